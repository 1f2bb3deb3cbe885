import Foundation
import NetTapCore
import NetTapTesting
import Testing

@testable import NetTapCache

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("OfflineCacheHandler stepped in the HandlerHarness: stored only once the body ends, answered on failure")
struct OfflineCacheHandlerStepTests {
    @Test("keeps the handler contract with an empty cache and with a stored answer")
    func contract() async throws {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        let cache = try OfflineCache(directory: directory.url)
        let request = URLRequest(url: .example("/contract"))
        #expect(await HandlerContract.violations(of: { OfflineCacheHandler(cache: cache) }, request: request) == [])
        #expect(cache.entries.count == 1, "the first case stored the answer")
        #expect(await HandlerContract.violations(of: { OfflineCacheHandler(cache: cache) }, request: request) == [])
    }

    @Test("a body is stored only when it has ended, then a failure from below is answered from the cache")
    func storedAtTheEndThenAnswered() async throws {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        let cache = try OfflineCache(directory: directory.url)
        let request = URLRequest(url: .example("/feed"))
        let online = HandlerHarness(handler: OfflineCacheHandler(cache: cache))
        _ = await online.start(request)
        try online.sendHead(statusCode: 200, headers: ["Content-Type": "text/plain", "ETag": "\"v1\""])
        _ = try await online.answer()
        online.sendChunk(Data("first ".utf8))
        #expect(try await online.readChunk() == Data("first ".utf8))
        #expect(cache.entries.isEmpty, "nothing is stored before the body ends")
        online.sendChunk(Data("second".utf8))
        #expect(try await online.readChunk() == Data("second".utf8))
        online.end()
        #expect(try await online.readChunk() == nil)
        #expect(online.context.annotations["cache"] == "stored")
        #expect(cache.entries.map(\.url) == ["https://example.com/feed"])
        try await online.finish()

        let offline = HandlerHarness(handler: OfflineCacheHandler(cache: cache))
        _ = await offline.start(request)
        try offline.fail(URLError(.notConnectedToInternet))
        let answer = try await offline.answer()
        #expect(answer.statusCode == 200)
        #expect(answer.headers["etag"] == "\"v1\"")
        #expect(try await offline.readBody() == Data("first second".utf8))
        #expect(offline.context.answeredBy == "cache")
        try await offline.finish()
    }

    @Test("a body the app cancels midway is not stored, and the body from below is cancelled")
    func cancelledBodyNotStored() async throws {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        let cache = try OfflineCache(directory: directory.url)
        let harness = HandlerHarness(handler: OfflineCacheHandler(cache: cache))
        _ = await harness.start(URLRequest(url: .example("/partial")))
        try harness.sendHead(statusCode: 200, headers: ["Content-Type": "text/plain"])
        _ = try await harness.answer()
        harness.sendChunk(Data("part".utf8))
        #expect(try await harness.readChunk() == Data("part".utf8))
        harness.cancel()
        try await harness.finish()
        #expect(harness.isBodyFromBelowCancelled)
        #expect(cache.entries.isEmpty)
        #expect(directory.entryFileNames.isEmpty, "no partial file is left")
    }
}
