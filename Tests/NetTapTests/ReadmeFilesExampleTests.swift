import Foundation
import NetTap
import NetTapTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The README's "Serve local files, guard integrity, fall back offline" example, compiled and run.
@Suite("README local files, integrity and cache example")
struct ReadmeFilesExampleTests {
    /// The example, line for line (checked by ``filesMatchesReadme()``).
    private func filesExample(
        interceptor: NetTapInterceptor,
        session: URLSession,
        gameFolder: URL,
        copies: URL,
        cacheFolder: URL
    ) async throws -> (page: Data, findings: [Finding]) {
        // README-BEGIN files
        let game = try FileMount(prefix: "http://localhost:1000/", directory: gameFolder)
        let checked = IntegrityRule(
            .host("cdn.nettap.example"),
            expect: .fileName,
            onMismatch: .fallback(.directory(copies))
        )
        let cache = try OfflineCache(directory: cacheFolder, maxBytes: 64 << 20)
        interceptor.handlers = [  // verify what comes back; local files before the network; the cache when it fails
            IntegrityHandler(rules: [checked]), LocalFilesHandler(mounts: [game]), OfflineCacheHandler(cache: cache),
        ]

        let (page, _) = try await session.data(from: URL(string: "http://localhost:1000/")!)  // gameFolder/index.html
        let findings = interceptor.captureLog.transactions.flatMap(\.findings)  // integrity mismatches, action taken
        // README-END files
        return (page, findings)
    }

    @Test("the example runs: the page comes from the mounted folder, nothing was found")
    func filesRuns() async throws {
        let folder = try TemporaryFolder(prefix: "readme-files", files: ["game/index.html": Data("<h1>Game</h1>".utf8)])
        defer { folder.remove() }
        let interceptor = NetTapInterceptor()
        let session = interceptor.makeSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }
        let result = try await filesExample(
            interceptor: interceptor,
            session: session,
            gameFolder: folder.url.appendingPathComponent("game"),
            copies: folder.url.appendingPathComponent("copies"),
            cacheFolder: folder.url.appendingPathComponent("cache")
        )
        #expect(result.page == Data("<h1>Game</h1>".utf8))
        #expect(result.findings.isEmpty)
        #expect(interceptor.captureLog.transactions.first?.answeredBy == "files")
    }

    @Test("the example is the README's code")
    func filesMatchesReadme() throws {
        let readme = try ReadmeBlocks.block(containing: "let game = try FileMount(", from: "let game")
        #expect(!readme.isEmpty)
        #expect(ReadmeBlocks.compact(readme) == ReadmeBlocks.compact(try ReadmeBlocks.marked("files", in: #filePath)))
    }
}
