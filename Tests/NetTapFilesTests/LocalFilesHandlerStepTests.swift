import Foundation
import NetTapCore
import NetTapFiles
import NetTapTestSupport
import NetTapTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("LocalFilesHandler stepped in the HandlerHarness: files streamed in pieces, misses passed on, the contract")
struct LocalFilesHandlerStepTests {
    @Test("keeps the handler contract for a file, a folder's index, a redirect, a 404 and a miss that falls through")
    func contract() async throws {
        let folder = try TemporaryFolder(files: [
            "app.js": Data("console.log(1)".utf8), "docs/index.html": Data("<h1>Docs</h1>".utf8),
        ])
        defer { folder.remove() }
        let strict = try FileMount(prefix: "http://localhost:1000/", directory: folder.url)
        let lenient = try FileMount(prefix: "http://localhost:2000/", directory: folder.url, fallsThrough: true)
        let urls = [
            "http://localhost:1000/app.js", "http://localhost:1000/docs/", "http://localhost:1000/docs",
            "http://localhost:1000/missing.js", "http://localhost:2000/missing.js", "http://elsewhere.example/",
        ]
        for url in urls {
            let request = URLRequest(url: try #require(URL(string: url)))
            let violations = await HandlerContract.violations(
                of: { LocalFilesHandler(mounts: [strict, lenient]) },
                request: request
            )
            #expect(violations == [], "\(url)")
        }
    }

    @Test("a file larger than one piece arrives in order, whole; cancelling midway leaves nothing behind")
    func largeFile() async throws {
        let bytes = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let folder = try TemporaryFolder(files: ["big.bin": bytes])
        defer { folder.remove() }
        let mount = try FileMount(prefix: "http://localhost:1000/", directory: folder.url)
        let request = URLRequest(url: URL(string: "http://localhost:1000/big.bin")!)

        let whole = HandlerHarness(handler: LocalFilesHandler(mounts: [mount]))
        guard case .answered(let answer) = await whole.start(request) else {
            Issue.record("the file was not served")
            return
        }
        #expect(answer.body.expectedLength == Int64(bytes.count))
        var chunks = 0
        var received = Data()
        while let chunk = try await whole.readChunk() {
            chunks += 1
            received.append(chunk)
        }
        #expect(received == bytes)
        #expect(chunks > 1, "streamed in pieces, not read whole")
        #expect(whole.context.answeredBy == "files")
        try await whole.finish()

        let cancelled = HandlerHarness(handler: LocalFilesHandler(mounts: [mount]))
        _ = await cancelled.start(request)
        #expect(try await cancelled.readChunk() != nil)
        cancelled.cancel()
        try await cancelled.finish()
    }
}
