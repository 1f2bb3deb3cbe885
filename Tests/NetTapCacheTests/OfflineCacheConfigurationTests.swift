import Foundation
import NetTapCore
import NetTapTesting
import Testing

@testable import NetTapCache

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("OfflineCacheHandler configuration: the cache section of nettap.json")
struct OfflineCacheConfigurationTests {
    /// The `cache` member of a `nettap.json` document.
    private static func node(_ json: String) throws -> ConfigNode {
        try ConfigNode(parsing: Data("{\"cache\": \(json)}".utf8), source: "nettap.json").requiredChild("cache")
    }

    private static func error(_ json: String, base: URL) throws -> String? {
        do {
            _ = try OfflineCacheHandler(configuration: node(json), baseDirectory: base)
            return nil
        } catch let error as ConfigurationError {
            return error.description
        }
    }

    @Test("every key is read: directory relative to the base, sizes with units or numbers, matcher, errors")
    func fullConfiguration() throws {
        let base = try ScratchDirectory()
        defer { base.remove() }
        let handler = try OfflineCacheHandler(
            configuration: Self.node(
                """
                {"directory": "cache", "maxBytes": "1.5 MiB", "maxEntryBytes": 4096,
                 "match": {"host": "api.example.com"}, "fallbackErrors": ["timedOut", "cannotFindHost"]}
                """
            ),
            baseDirectory: base.url
        )
        #expect(handler.cache.directory == base.url.appendingPathComponent("cache").standardizedFileURL)
        #expect(handler.cache.maxBytes == 1_572_864)
        #expect(handler.cache.maxEntryBytes == 4096)
        #expect(handler.fallbackErrorCodes == [.timedOut, .cannotFindHost])
        #expect(handler.matcher.matches(URLRequest(url: try #require(URL(string: "https://api.example.com/x")))))
        #expect(!handler.matcher.matches(URLRequest(url: .example("/x"))))
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: handler.cache.directory.path, isDirectory: &isDirectory))
        #expect(isDirectory.boolValue)
    }

    @Test("defaults: 64 MiB in all, 8 MiB per entry, every GET, the six offline errors")
    func defaults() throws {
        let base = try ScratchDirectory()
        defer { base.remove() }
        let handler = try OfflineCacheHandler(configuration: Self.node(#"{"directory": "c"}"#), baseDirectory: base.url)
        #expect(handler.cache.maxBytes == 64 * 1024 * 1024)
        #expect(handler.cache.maxEntryBytes == 8 * 1024 * 1024)
        #expect(handler.fallbackErrorCodes == OfflineCacheHandler.defaultFallbackErrorCodes)
        #expect(handler.fallbackErrorCodes.count == 6)
        #expect(handler.matcher.matches(URLRequest(url: .example("/anything"))))
    }

    @Test(
        "errors name the file, the JSON path and what is wrong",
        arguments: [
            (
                #"{"directory": "c", "maxByte": 10}"#,
                #"nettap.json: $.cache.maxByte: unknown key "maxByte"; did you mean "maxBytes"?"#
            ),
            (
                #"{"directory": "c", "maxBytes": "64 MB/s"}"#,
                #"nettap.json: $.cache.maxBytes: invalid size "64 MB/s"; expected a positive number and a unit: "#
                    + #"bytes, KB, MB, GB, KiB, MiB, GiB (for example "64 MiB"), or a number of bytes"#
            ),
            (
                #"{"directory": "c", "maxBytes": 0}"#,
                "nettap.json: $.cache.maxBytes: expected a size of at least 1 byte, found 0"
            ),
            (
                #"{"directory": "c", "maxBytes": true}"#,
                "nettap.json: $.cache.maxBytes: expected an integer, found a boolean"
            ),
            (
                #"{"directory": "c", "maxBytes": "1 KiB", "maxEntryBytes": "2 KiB"}"#,
                "nettap.json: $.cache.maxEntryBytes: maxEntryBytes (2048 bytes) must not exceed maxBytes (1024 bytes)"
            ),
            (
                #"{"directory": "c", "fallbackErrors": ["timedOut", "notConnectedToInternt"]}"#,
                #"nettap.json: $.cache.fallbackErrors[1]: unknown URLError code name "notConnectedToInternt"; "#
                    + #"did you mean "notConnectedToInternet"?"#
            ),
            (
                #"{"directory": "c", "fallbackErrors": ["offline"]}"#,
                #"nettap.json: $.cache.fallbackErrors[0]: unknown URLError code name "offline"; "#
                    + #"did you mean "notConnectedToInternet"?"#
            ),
            (
                #"{"directory": "c", "fallbackErrors": ["cancelled"]}"#,
                #"nettap.json: $.cache.fallbackErrors[0]: "cancelled" is not a network failure the cache can answer; "#
                    + "expected one of: badServerResponse, callIsActive, cannotConnectToHost, cannotFindHost, "
                    + "cannotLoadFromNetwork, dataNotAllowed, dnsLookupFailed, internationalRoamingOff, "
                    + "networkConnectionLost, notConnectedToInternet, secureConnectionFailed, timedOut"
            ),
            (
                #"{"directory": 7}"#,
                "nettap.json: $.cache.directory: expected a string, found a number"
            ),
            (
                #"{"directory": "c", "match": {"hots": "x"}}"#,
                #"nettap.json: $.cache.match.hots: unknown key "hots"; did you mean "host"?"#
            ),
        ]
    )
    func errors(json: String, expected: String) throws {
        let base = try ScratchDirectory()
        defer { base.remove() }
        #expect(try Self.error(json, base: base.url) == expected)
    }

    @Test("a directory that cannot be created is reported at its JSON path")
    func unusableDirectory() throws {
        let base = try ScratchDirectory()
        defer { base.remove() }
        try Data().write(to: base.url.appendingPathComponent("taken"))
        let message = try Self.error(#"{"directory": "taken"}"#, base: base.url)
        #expect(message?.hasPrefix("nettap.json: $.cache.directory: offline cache directory ") == true)
        #expect(message?.hasSuffix("/taken is a file, not a directory") == true)
    }

    @Test(
        "sizes are read with decimal and binary units",
        arguments: [
            ("64 MiB", 67_108_864), ("1.5MB", 1_500_000), ("4096", 4096), ("10 bytes", 10), ("2 kib", 2048),
            ("1 GB", 1_000_000_000), ("3B", 3),
        ] as [(String, Int)]
    )
    func byteCounts(text: String, bytes: Int) {
        #expect(OfflineCache.byteCount(parsing: text) == bytes)
    }

    @Test("sizes without a number, with an unknown unit or below one byte are rejected")
    func invalidByteCounts() {
        for text in ["", "MiB", "64 MiB/s", "-1", "0", "0.1 B", "1 XB"] {
            #expect(OfflineCache.byteCount(parsing: text) == nil, "\(text)")
        }
    }
}
