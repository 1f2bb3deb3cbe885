import Foundation
import NetTapCore
import NetTapTestSupport
import NetTapTesting
import Testing

@testable import NetTapFiles

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Mounts: which prefix covers a request")
struct FileMountTests {
    @Test("the longest matching prefix wins, at segment boundaries, with case-insensitive host and default ports")
    func longestPrefixWins() throws {
        let folder = try TemporaryFolder()
        let root = try folder.folder("root")
        let game = try folder.folder("game")
        let levels = try folder.folder("levels")
        let handler = LocalFilesHandler(mounts: [
            try FileMount(prefix: "https://cdn.example.com/", directory: root),
            try FileMount(prefix: "https://cdn.example.com/game/levels", directory: levels),
            try FileMount(prefix: "https://cdn.example.com/game/", directory: game),
        ])
        func directory(_ url: String) throws -> URL? {
            handler.mount(for: try #require(URL(string: url)))?.directory
        }
        #expect(try directory("https://cdn.example.com/game/main.js") == game.standardizedFileURL)
        #expect(try directory("https://CDN.Example.COM:443/game/main.js") == game.standardizedFileURL)
        #expect(try directory("HTTPS://cdn.example.com/game") == game.standardizedFileURL)
        #expect(try directory("https://cdn.example.com/game/levels/1.json") == levels.standardizedFileURL)
        #expect(try directory("https://cdn.example.com/gameplay.js") == root.standardizedFileURL)
        #expect(try directory("https://cdn.example.com/game%2Flevels/1.json") == root.standardizedFileURL)
        #expect(try directory("https://cdn.example.com/%67ame/x") == game.standardizedFileURL)
        #expect(try directory("http://cdn.example.com/game/main.js") == nil)
        #expect(try directory("https://cdn.example.com:8443/game/main.js") == nil)
        #expect(try directory("https://other.example.com/game/main.js") == nil)
    }

    @Test("an explicit default port equals a missing one, on the prefix side too")
    func defaultPorts() throws {
        let folder = try TemporaryFolder()
        let handler = LocalFilesHandler(mounts: [
            try FileMount(prefix: "http://localhost:80/app", directory: folder.url)
        ])
        #expect(handler.mount(for: try #require(URL(string: "http://localhost/app/x"))) != nil)
        #expect(handler.mount(for: try #require(URL(string: "http://localhost:1000/app/x"))) == nil)
    }

    @Test(
        "unusable prefixes are refused with the reason",
        arguments: [
            ("ftp://example.com/", "the scheme must be http or https"),
            ("/relative/path", "the scheme must be http or https"),
            ("http:///nohost", "the URL has no host"),
            ("http://user:pw@example.com/", "the URL must not contain a user or password"),
            ("http://example.com/?q=1", "the URL must not contain a query or fragment"),
            ("http://example.com/#top", "the URL must not contain a query or fragment"),
        ]
    )
    func invalidPrefixes(prefix: String, reason: String) throws {
        let folder = try TemporaryFolder()
        #expect(throws: FileMountError.invalidPrefix(prefix, reason: reason)) {
            try FileMount(prefix: prefix, directory: folder.url)
        }
    }

    @Test("a directory that does not exist is refused")
    func missingDirectory() throws {
        let folder = try TemporaryFolder()
        let missing = folder.url.appendingPathComponent("missing")
        #expect(throws: FileMountError.directoryNotFound(missing)) {
            try FileMount(prefix: "http://localhost/", directory: missing)
        }
        let file = try folder.write("x", to: "file.txt")
        #expect(throws: FileMountError.directoryNotFound(file)) {
            try FileMount(prefix: "http://localhost/", directory: file)
        }
    }

    @Test("requests under no mount reach next untouched and are not annotated")
    func othersPassThrough() async throws {
        let folder = try TemporaryFolder()
        try folder.write("hello", to: "a.txt")
        let transport = FakeTransport(statusCode: 299, body: Data("network".utf8))
        let harness = PipelineHarness(
            handlers: [
                LocalFilesHandler(mounts: [try FileMount(prefix: "http://localhost:1000/", directory: folder.url)])
            ],
            transport: transport
        )
        var request = URLRequest(url: try #require(URL(string: "http://localhost:1001/a.txt")))
        request.setValue("kept", forHTTPHeaderField: "X-Probe")
        let result = try await harness.send(request)
        #expect(result.statusCode == 299)
        #expect(result.body == Data("network".utf8))
        #expect(result.answeredBy == "network")
        #expect(result.annotations.isEmpty)
        #expect(transport.requests.first?.value(forHTTPHeaderField: "X-Probe") == "kept")
        #expect(transport.requests.first?.url == request.url)
    }
}
