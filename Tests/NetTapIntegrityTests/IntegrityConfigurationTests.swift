import Foundation
import NetTapCore
import NetTapIntegrity
import NetTapTestSupport
import NetTapTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Integrity configuration: nettap.json's integrity section and manifest files")
struct IntegrityConfigurationTests {
    static let abc256 = "sha256-ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0="

    /// A fresh folder holding `files` (UTF-8 text by relative path); the caller removes it.
    static func folder(_ files: [String: String]) throws -> TemporaryFolder {
        try TemporaryFolder(prefix: "nettap-config", files: files.mapValues { Data($0.utf8) })
    }

    static func node(_ json: String) throws -> ConfigNode {
        try ConfigNode(parsing: Data(json.utf8), source: "nettap.json")
    }

    /// The error description thrown by `body`, or nil.
    static func message(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test("a full nettap.json loads: relative manifest and fallback paths resolve against its folder")
    func fullConfiguration() async throws {
        let good = "console.log(1)\n"
        let goodSRI = try IntegrityDigest.of(Data(good.utf8), using: .sha256).sri
        let folder = try Self.folder([
            "nettap.json": """
            {"mocks": {}, "integrity": {"bufferByteLimit": 4096, "rules": [
              {"match": {"host": "cdn.example.com"}, "expect": {"manifest": "integrity.json"},
               "onMismatch": "fallback", "fallback": {"directory": "bundled"}},
              {"match": {"host": "x.example.com"}, "extensions": ["mjs"], "expect": "filename", "onMismatch": "report"},
              {"match": {"host": "y.example.com"}, "expect": {"digest": "\(Self.abc256)"},
               "onMismatch": "fallback", "fallback": {"files": {"/y.js": "bundled/app.js"}}}
            ]}}
            """,
            "integrity.json": #"{"/app.js": "\#(goodSRI)"}"#,
            "bundled/app.js": good,
        ])
        defer { folder.remove() }
        let base = folder.url
        let handler = try IntegrityHandler.load(contentsOf: base.appendingPathComponent("nettap.json"))
        #expect(handler.bufferByteLimit == 4096)
        #expect(handler.rules.count == 3)
        #expect(handler.rules[1].pathExtensions == ["mjs"])
        #expect(handler.rules[0].pathExtensions == IntegrityRule.defaultPathExtensions)
        guard case .fallback(.files(let files)) = handler.rules[2].onMismatch else {
            Issue.record("rule 2 has a file-map fallback")
            return
        }
        #expect(files["/y.js"]?.path == base.appendingPathComponent("bundled/app.js").standardizedFileURL.path)
        let transport = FakeTransport(headers: ["Content-Type": "text/javascript"], body: Data("tampered".utf8))
        let request = URLRequest(url: try #require(URL(string: "https://cdn.example.com/app.js")))
        let result = try await PipelineHarness(handlers: [handler], transport: transport).send(request)
        #expect(String(decoding: result.body, as: UTF8.self) == good)
        #expect(result.answeredBy == "integrity")
    }

    @Test(
        "mistakes are errors naming the file and the JSON path",
        arguments: [
            (
                #"{"rules": [{"match": {}, "expect": "filename", "onMismatch": "fial"}]}"#,
                #"nettap.json: $.rules[0].onMismatch: unknown action "fial"; did you mean "fail"?"#
            ),
            (
                #"{"rulez": []}"#,
                #"nettap.json: $.rulez: unknown key "rulez"; did you mean "rules"?"#
            ),
            (
                #"{"rules": [{"match": {}, "expect": "filename", "fallbak": {}}]}"#,
                #"nettap.json: $.rules[0].fallbak: unknown key "fallbak"; did you mean "fallback"?"#
            ),
            (
                #"{"rules": [{"match": {"hots": "a"}, "expect": "filename"}]}"#,
                #"nettap.json: $.rules[0].match.hots: unknown key "hots"; did you mean "host"?"#
            ),
            (
                #"{"rules": [{"match": {}, "expect": "filenames"}]}"#,
                #"nettap.json: $.rules[0].expect: unknown expectation "filenames"; did you mean "filename"?"#
            ),
            (
                #"{"rules": [{"match": {}, "expect": {"digets": "x"}}]}"#,
                #"nettap.json: $.rules[0].expect.digets: unknown key "digets"; did you mean "digest"?"#
            ),
            (
                #"{"rules": [{"match": {}, "expect": {"digest": "sha256-abc"}}]}"#,
                #"nettap.json: $.rules[0].expect.digest: "sha256-abc": a sha256 digest is 32 bytes, found 2"#
            ),
            (
                #"{"rules": [{"match": {}, "expect": "filename", "onMismatch": "fallback"}]}"#,
                #"nettap.json: $.rules[0]: onMismatch "fallback" needs a "fallback": {"directory": …} or {"files": …}"#
            ),
            (
                #"{"rules": [{"match": {}, "expect": "filename", "fallback": {"directory": "b"}}]}"#,
                #"nettap.json: $.rules[0].fallback: "fallback" is only used with onMismatch "fallback", not "fail""#
            ),
            (
                #"{"rules": [{"match": {}, "expect": "filename", "extensions": [".js"]}]}"#,
                #"nettap.json: $.rules[0].extensions[0]: expected an extension without the dot, such as "js", found ".js""#
            ),
            (
                #"{"rules": [{"expect": "filename"}]}"#,
                #"nettap.json: $.rules[0]: missing required key "match""#
            ),
            (
                #"{"bufferByteLimit": 0}"#,
                #"nettap.json: $.bufferByteLimit: bufferByteLimit must be at least 1 byte, found 0"#
            ),
        ]
    )
    func configurationErrors(json: String, expected: String) throws {
        let node = try Self.node(json)
        #expect(Self.message { _ = try IntegrityHandler(configuration: node) } == expected)
    }

    @Test(
        "manifest mistakes name the manifest file and the JSON path in it",
        arguments: [
            (
                #"["/app.js"]"#,
                #"integrity.json: $: expected an object mapping URL paths to SRI values, found an array"#
            ),
            (
                #"{"/app.js": 5}"#,
                #"integrity.json: $["/app.js"]: expected an SRI string such as "sha256-<base64>", found a number"#
            ),
            (
                #"{"/app.js": "sha256-ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAF!0="}"#,
                #"integrity.json: $["/app.js"]: malformed base64 "ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAF!0=" in sha256 digest"#
            ),
            (
                #"{"/app.js": "sha512-ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0="}"#,
                #"integrity.json: $["/app.js"]: "sha512-ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=": a sha512 digest is 64 bytes, found 32"#
            ),
            (
                #"{"app.js": "x"}"#,
                #"integrity.json: $["app.js"]: the key "app.js" is not a URL path; it must start with "/""#
            ),
            (
                #"{"/app.js": "md5-abc"}"#,
                #"integrity.json: $["/app.js"]: no sha256, sha384 or sha512 digest in the SRI value; found only "md5""#
            ),
            (#"{"/app.js": }"#, "integrity.json:1:13: invalid JSON"),
        ]
    )
    func manifestErrors(manifest: String, expected: String) throws {
        let folder = try Self.folder(["integrity.json": manifest])
        defer { folder.remove() }
        let base = folder.url
        let node = try Self.node(#"{"rules": [{"match": {}, "expect": {"manifest": "integrity.json"}}]}"#)
        let message = Self.message { _ = try IntegrityHandler(configuration: node, baseDirectory: base) }
        // Where the manifest was referenced, its full path, then the manifest's own file and JSON path.
        let referenced =
            #"nettap.json: $.rules[0].expect.manifest: cannot use the manifest "#
            + base.appendingPathComponent("integrity.json").path + ": "
        #expect(message?.hasPrefix(referenced + expected) == true, "\(message ?? "no error")")
    }

    @Test("a missing manifest file is an error naming it")
    func missingManifest() throws {
        let node = try Self.node(#"{"rules": [{"match": {}, "expect": {"manifest": "none.json"}}]}"#)
        let message = Self.message {
            _ = try IntegrityHandler(configuration: node, baseDirectory: FileManager.default.temporaryDirectory)
        }
        #expect(message?.contains(": $.rules[0].expect.manifest: cannot use the manifest ") == true)
        #expect(message?.contains("none.json: no such file") == true, "\(message ?? "no error")")
    }

    @Test("a manifest entry with several values keeps the strongest algorithm's")
    func manifestStrongest() throws {
        let sha384 = try IntegrityDigest.of(Data("abc".utf8), using: .sha384).sri
        let manifest = try IntegrityManifest(
            configuration: Self.node(#"{"/a.js": "\#(Self.abc256) \#(sha384) sha999-zzz"}"#)
        )
        #expect(manifest.expectation(forPath: "/a.js")?.sri == sha384)
        #expect(manifest.expectation(forPath: "/b.js") == nil)
    }
}
