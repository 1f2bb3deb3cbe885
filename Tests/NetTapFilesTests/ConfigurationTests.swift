import Foundation
import NetTapCore
import NetTapTestSupport
import Testing

@testable import NetTapFiles

@Suite("The files section of nettap.json")
struct ConfigurationTests {
    private static func load(_ json: String, in folder: TemporaryFolder) throws -> LocalFilesHandler {
        let file = try folder.write(json, to: "nettap.json")
        return try LocalFilesHandler.load(contentsOf: file)
    }

    private static func error(_ json: String, in folder: TemporaryFolder) -> String? {
        do {
            _ = try load(json, in: folder)
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test("mounts are read with relative directories resolved against the file's folder")
    func readsMounts() throws {
        let folder = try TemporaryFolder()
        let web = try folder.folder("web")
        let elsewhere = try TemporaryFolder()
        let handler = try Self.load(
            """
            {"mocks": {}, "files": {"mounts": [
              {"prefix": "http://localhost:1000/", "directory": "web"},
              {"prefix": "https://cdn.example.com/game/", "directory": "\(elsewhere.url.path)", "fallthrough": true}
            ]}}
            """,
            in: folder
        )
        #expect(handler.mounts.count == 2)
        #expect(handler.mounts[0].directory.path == web.standardizedFileURL.path)
        #expect(handler.mounts[0].fallsThrough == false)
        #expect(handler.mounts[0].prefix.absoluteString == "http://localhost:1000/")
        #expect(handler.mounts[1].directory.path == elsewhere.url.standardizedFileURL.path)
        #expect(handler.mounts[1].fallsThrough)
    }

    @Test("errors name the file, the JSON path and the problem")
    func errors() throws {
        let folder = try TemporaryFolder()
        try folder.folder("web")
        #expect(
            Self.error(#"{"files": {"mount": []}}"#, in: folder)
                == #"nettap.json: $.files.mount: unknown key "mount"; did you mean "mounts"?"#
        )
        #expect(
            Self.error(
                #"{"files": {"mounts": [{"prefix": "http://a/", "directory": "web", "fallThru": true}]}}"#,
                in: folder
            )
                == #"nettap.json: $.files.mounts[0].fallThru: unknown key "fallThru"; did you mean "fallthrough"?"#
        )
        #expect(
            Self.error(#"{"files": {"mounts": [{"prefix": "ftp://a/", "directory": "web"}]}}"#, in: folder)
                == #"nettap.json: $.files.mounts[0].prefix: invalid prefix "ftp://a/": the scheme must be http or https"#
        )
        let missing = folder.url.appendingPathComponent("nope").standardizedFileURL.path
        #expect(
            Self.error(#"{"files": {"mounts": [{"prefix": "http://a/", "directory": "nope"}]}}"#, in: folder)
                == #"nettap.json: $.files.mounts[0].directory: directory "nope" not found (\#(missing))"#
        )
        #expect(
            Self.error(#"{"files": {"mounts": [{"directory": "web"}]}}"#, in: folder)
                == #"nettap.json: $.files.mounts[0]: missing required key "prefix""#
        )
        #expect(
            Self.error(
                #"{"files": {"mounts": [{"prefix": "http://a/", "directory": "web", "fallthrough": "yes"}]}}"#,
                in: folder
            )
                == "nettap.json: $.files.mounts[0].fallthrough: expected a boolean, found a string"
        )
    }

    @Test("a node built in code resolves relative directories against the given base directory")
    func nodeInCode() throws {
        let folder = try TemporaryFolder()
        try folder.folder("assets")
        let node = ConfigNode(
            value: .object([
                "mounts": .array([.object(["prefix": .string("http://x/"), "directory": .string("assets")])])
            ]),
            path: "$.files"
        )
        let handler = try LocalFilesHandler(configuration: node, baseDirectory: folder.url)
        #expect(handler.mounts.first?.directory.lastPathComponent == "assets")
    }
}
