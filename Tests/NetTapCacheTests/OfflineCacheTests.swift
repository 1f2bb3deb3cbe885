import Foundation
import NetTapCore
import NetTapTesting
import Testing

@testable import NetTapCache

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("OfflineCache: size cap, LRU eviction, files and restarts")
struct OfflineCacheTests {
    /// A harness storing 100-byte answers into `cache`, and the network behind it.
    private static func harness(_ cache: OfflineCache, size: Int = 100) -> (PipelineHarness, SwitchableNetwork) {
        let network = SwitchableNetwork(body: { bytes(size, seed: UInt8(truncatingIfNeeded: $0.url?.path.count ?? 0)) })
        return (PipelineHarness(handlers: [OfflineCacheHandler(cache: cache)], transport: network.transport), network)
    }

    private static func fetch(_ harness: PipelineHarness, _ path: String) async throws -> PipelineHarness.Result {
        try await harness.send(URLRequest(url: .example(path)))
    }

    @Test("storing past maxBytes evicts the least recently used entries; a hit counts as a use")
    func lruEviction() async throws {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        let cache = try OfflineCache(directory: directory.url, maxBytes: 300, maxEntryBytes: 100)
        let (harness, network) = Self.harness(cache)
        for path in ["/a", "/b", "/c"] { _ = try await Self.fetch(harness, path) }
        #expect(cache.entries.map(\.url) == ["/c", "/b", "/a"].map { "https://example.com" + $0 })
        #expect(cache.totalBytes == 300)

        network.fail(with: .notConnectedToInternet)
        #expect(try await Self.fetch(harness, "/a").answeredBy == "cache")
        network.fail(with: nil)
        _ = try await Self.fetch(harness, "/d")
        #expect(cache.entries.map(\.url) == ["/d", "/a", "/c"].map { "https://example.com" + $0 }, "b was used least")
        #expect(cache.totalBytes == 300)
        #expect(directory.entryFileNames.count == 6)

        _ = try await Self.fetch(harness, "/e")
        _ = try await Self.fetch(harness, "/f")
        #expect(cache.entries.map(\.url) == ["/f", "/e", "/d"].map { "https://example.com" + $0 })
        network.fail(with: .notConnectedToInternet)
        await #expect(throws: URLError.self) { _ = try await Self.fetch(harness, "/a") }
    }

    @Test("an entry larger than the rest of the space evicts as many entries as needed")
    func evictsSeveral() async throws {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        let cache = try OfflineCache(directory: directory.url, maxBytes: 250, maxEntryBytes: 250)
        let (small, _) = Self.harness(cache, size: 100)
        let (large, _) = Self.harness(cache, size: 200)
        _ = try await Self.fetch(small, "/1")
        _ = try await Self.fetch(small, "/2")
        _ = try await Self.fetch(large, "/big")
        #expect(cache.entries.map(\.url) == ["https://example.com/big"])
        #expect(cache.totalBytes == 200)
    }

    @Test("entries, their use order and their answers survive a restart")
    func restart() async throws {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        let first = try OfflineCache(directory: directory.url, maxBytes: 1000)
        let (harness, network) = Self.harness(first)
        for path in ["/a", "/b", "/c"] { _ = try await Self.fetch(harness, path) }
        network.fail(with: .notConnectedToInternet)
        let stored = try await Self.fetch(harness, "/a")
        await first.flush()

        let second = try OfflineCache(directory: directory.url, maxBytes: 1000)
        #expect(second.entries.map(\.url) == ["/a", "/c", "/b"].map { "https://example.com" + $0 })
        #expect(second.totalBytes == 300)
        let (reloaded, offline) = Self.harness(second)
        offline.fail(with: .cannotConnectToHost)
        let answer = try await Self.fetch(reloaded, "/a")
        #expect(answer.answeredBy == "cache")
        #expect(answer.body == stored.body)
    }

    @Test("a restart with a smaller maxBytes evicts the least recently used entries at once")
    func restartSmaller() async throws {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        let first = try OfflineCache(directory: directory.url, maxBytes: 1000)
        let (harness, _) = Self.harness(first)
        for path in ["/a", "/b", "/c"] { _ = try await Self.fetch(harness, path) }
        await first.flush()
        let second = try OfflineCache(directory: directory.url, maxBytes: 200, maxEntryBytes: 100)
        #expect(second.entries.map(\.url) == ["/c", "/b"].map { "https://example.com" + $0 })
        await second.flush()
        #expect(directory.entryFileNames.count == 4)
    }

    @Test("a missing or corrupt index.json is rebuilt from the entries; nothing is lost")
    func corruptIndex() async throws {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        let first = try OfflineCache(directory: directory.url)
        let (harness, _) = Self.harness(first)
        for path in ["/a", "/b"] { _ = try await Self.fetch(harness, path) }
        await first.flush()
        let index = directory.url.appendingPathComponent("index.json")
        try Data("{not json".utf8).write(to: index)

        let second = try OfflineCache(directory: directory.url)
        #expect(Set(second.entries.map(\.url)) == ["https://example.com/a", "https://example.com/b"])
        await second.flush()
        let rewritten = try JSONSerialization.jsonObject(with: Data(contentsOf: index)) as? [String: Any]
        #expect((rewritten?["entries"] as? [Any])?.count == 2, "the index was rewritten")

        try FileManager.default.removeItem(at: index)
        let third = try OfflineCache(directory: directory.url)
        #expect(third.entries.count == 2)
    }

    @Test("unreadable entries, bodies without metadata and unfinished writes are removed at start-up")
    func strayFiles() async throws {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        let first = try OfflineCache(directory: directory.url)
        let (harness, _) = Self.harness(first)
        for path in ["/good", "/bad", "/short"] { _ = try await Self.fetch(harness, path) }
        await first.flush()
        let ids = Dictionary(
            uniqueKeysWithValues: first.state.withLock { state in
                state.slots.values.map { ($0.record.url, $0.id) }
            }
        )
        let bad = try #require(ids["https://example.com/bad"])
        let short = try #require(ids["https://example.com/short"])
        try Data("garbage".utf8).write(to: first.metadataURL(bad))
        try Data("cut".utf8).write(to: first.bodyURL(short))
        let orphan = UUID()
        try Data("orphan".utf8).write(to: first.bodyURL(orphan))
        try Data("half".utf8).write(to: first.bodyURL(UUID()).appendingPathExtension("partial"))
        let unrelated = directory.url.appendingPathComponent("README.txt")
        try Data("mine".utf8).write(to: unrelated)

        let second = try OfflineCache(directory: directory.url)
        #expect(second.entries.map(\.url) == ["https://example.com/good"])
        let good = try #require(ids["https://example.com/good"])
        #expect(
            directory.entryFileNames == ["\(good.uuidString).body", "\(good.uuidString).json", "README.txt"].sorted()
        )
    }

    @Test("every file the cache writes is readable and writable by its owner only (0600)")
    func filePermissions() async throws {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        let cache = try OfflineCache(directory: directory.url.appendingPathComponent("nested/cache"))
        let (harness, _) = Self.harness(cache)
        _ = try await Self.fetch(harness, "/p")
        await cache.flush()
        let names = try FileManager.default.contentsOfDirectory(atPath: cache.directory.path)
        #expect(names.count == 3)
        for name in names {
            let attributes = try FileManager.default.attributesOfItem(
                atPath: cache.directory.appendingPathComponent(name).path
            )
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600, "\(name)")
        }
    }

    @Test("removeAll empties the cache and its directory")
    func removeAll() async throws {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        let cache = try OfflineCache(directory: directory.url)
        let (harness, _) = Self.harness(cache)
        _ = try await Self.fetch(harness, "/gone")
        cache.removeAll()
        await cache.flush()
        #expect(cache.entries.isEmpty)
        #expect(cache.totalBytes == 0)
        #expect(directory.fileNames == ["index.json"])
    }

    @Test("limits out of range and a file in place of the directory are rejected")
    func invalidArguments() throws {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        #expect(throws: OfflineCacheError("maxBytes must be at least 1 byte, found 0")) {
            try OfflineCache(directory: directory.url, maxBytes: 0)
        }
        #expect(
            throws: OfflineCacheError("maxEntryBytes must be between 1 and maxBytes (10) bytes, found 11")
        ) {
            try OfflineCache(directory: directory.url, maxBytes: 10, maxEntryBytes: 11)
        }
        let file = directory.url.appendingPathComponent("file")
        try Data().write(to: file)
        #expect(throws: OfflineCacheError.self) { try OfflineCache(directory: file) }
        #expect(try OfflineCache(directory: directory.url, maxBytes: 1000).maxEntryBytes == 1000)
    }
}
