import Foundation
import Testing

@testable import NetTapCore

@Suite("Configuration nodes")
struct ConfigNodeTests {
    private func parse(_ json: String) throws -> ConfigNode {
        try ConfigNode(parsing: Data(json.utf8), source: "nettap.json")
    }

    @Test("typed accessors read values and name paths")
    func accessors() throws {
        let root = try parse(#"{"mocks":{"stubs":[{"status":200,"delay":1.5,"on":true,"name":"x"}]},"odd key":null}"#)
        let stub = try #require(try root.requiredChild("mocks").array("stubs").first)
        #expect(stub.path == "$.mocks.stubs[0]")
        #expect(try stub.int("status") == 200)
        #expect(try stub.double("delay") == 1.5)
        #expect(try stub.bool("on") == true)
        #expect(try stub.requiredString("name") == "x")
        #expect(try stub.string("missing") == nil)
        #expect(try root.keys == ["mocks", "odd key"])
        #expect(try root.child("odd key")?.path == #"$["odd key"]"#)
        #expect(try root.child("odd key")?.value == .null)
        #expect(try stub.members().map(\.key) == ["delay", "name", "on", "status"])
    }

    @Test("a section is the named member, or the whole document when it holds only the section's keys")
    func sections() throws {
        let keys: Set<String> = ["mounts"]
        let whole = try parse(#"{"files": {"mounts": []}, "mocks": {}}"#)
        #expect(try whole.section("files", sectionKeys: keys).path == "$.files")
        #expect(try parse(#"{"mounts": []}"#).section("files", sectionKeys: keys).path == "$")
        #expect(try parse("{}").section("files", sectionKeys: keys).path == "$")
        let error = #expect(throws: ConfigurationError.self) {
            try parse(#"{"mocks": {}, "shaping": {}}"#).section("files", sectionKeys: keys)
        }
        let expected = #"nettap.json: $: no "files" section (the file has: mocks, shaping)"#
        #expect(error?.description.hasPrefix(expected) == true)
    }

    @Test("a wrong type names file, path, expected and found")
    func wrongType() throws {
        let root = try parse(#"{"mocks":{"stubs":[{"status":"200","delay":1.5}]}}"#)
        let stub = try #require(try root.requiredChild("mocks").array("stubs").first)
        let status = try #require(throws: ConfigurationError.self) { try stub.int("status") }
        #expect(status.description == "nettap.json: $.mocks.stubs[0].status: expected an integer, found a string")
        let fraction = try #require(throws: ConfigurationError.self) { try stub.requiredInt("delay") }
        #expect(fraction.message == "expected an integer, found 1.5")
        let notArray = try #require(throws: ConfigurationError.self) { try root.array("mocks") }
        #expect(notArray.description == "nettap.json: $.mocks: expected an array, found an object")
        let missing = try #require(throws: ConfigurationError.self) { try stub.requiredString("url") }
        #expect(missing.description == #"nettap.json: $.mocks.stubs[0]: missing required key "url""#)
        let notObject = try #require(throws: ConfigurationError.self) { try stub.requiredChild("delay").child("x") }
        #expect(notObject.path == "$.mocks.stubs[0].delay")
    }

    @Test("unknown keys are rejected with a did-you-mean suggestion when one key is close")
    func unknownKeys() throws {
        let root = try parse(#"{"match":{"pathRgex":"x"}}"#)
        let match = try root.requiredChild("match")
        let typo = try #require(throws: ConfigurationError.self) {
            try match.rejectUnknownKeys(allowed: ["pathRegex", "pathPrefix", "path"])
        }
        #expect(
            typo.description == #"nettap.json: $.match.pathRgex: unknown key "pathRgex"; did you mean "pathRegex"?"#
        )
        let unrelated = try #require(throws: ConfigurationError.self) {
            try root.rejectUnknownKeys(allowed: ["mocks", "shaping"])
        }
        #expect(unrelated.description == #"nettap.json: $.match: unknown key "match"; expected one of: mocks, shaping"#)
        #expect(ConfigNode.suggestion(for: "METHOD", among: ["method", "host"]) == "method")
        #expect(ConfigNode.suggestion(for: "hots", among: ["host", "path"]) == "host")
        try root.rejectUnknownKeys(allowed: ["match"])
    }

    @Test("invalid JSON reports line and column")
    func syntax() throws {
        let error = try #require(throws: ConfigurationError.self) { try parse("{\n  \"a\": 1,\n  \"b\": tru\n}") }
        #expect(error.line == 3)
        #expect(error.column != nil)
        #expect(error.description.hasPrefix("nettap.json:3:"))
        #expect(error.message.hasPrefix("invalid JSON: "))
        let empty = try #require(throws: ConfigurationError.self) { try parse("") }
        #expect(empty.description == "nettap.json:1:1: invalid JSON: the file is empty")
        let truncated = try #require(throws: ConfigurationError.self) { try parse("{\"a\":\n[1,") }
        #expect(truncated.line == 2)
        #expect(truncated.column == 4)
    }

    @Test("text that is not UTF-8, or holds a NUL byte, is named by byte, offset, line and column")
    func notUTF8() throws {
        // The fuzzer's input (FuzzIntegrity, CI 2026-11-30): Foundation read it as UTF-32 and accepted it,
        // then the offset scan met a "}" with nothing open and trapped.
        let fuzzed = Data([0x00, 0x00, 0x00, 0x33, 0x9E, 0x7D, 0x20])
        let nul = try #require(throws: ConfigurationError.self) { try ConfigNode(parsing: fuzzed, source: "f.json") }
        #expect(
            nul.description
                == "f.json:1:1: invalid JSON: a NUL byte (0x00) at byte offset 0, which JSON text never holds (UTF-16 or UTF-32? JSON must be UTF-8, RFC 8259 §8.1)"
        )
        let latin1 = Data("{\n  \"name\": \"caf".utf8) + Data([0xE9]) + Data("\"\n}".utf8)
        let bad = try #require(throws: ConfigurationError.self) { try ConfigNode(parsing: latin1, source: "f.json") }
        #expect(bad.line == 2)
        #expect(bad.column == 15)
        #expect(
            bad.message
                == "invalid JSON: byte 0xE9 at byte offset 16 is not UTF-8 (JSON text must be UTF-8, RFC 8259 §8.1)"
        )
        let utf16 = try #require("{\"a\": 1}".data(using: .utf16BigEndian))
        #expect(throws: ConfigurationError.self) { try ConfigNode(parsing: utf16, source: "f.json") }
        #expect(try parse("{\"name\": \"café ☕️\"}").string("name") == "café ☕️")
    }

    @Test("load names the file it read or could not read")
    func load() throws {
        let directory = FileManager.default.temporaryDirectory
        let missing = directory.appendingPathComponent("no-such-\(UUID()).json")
        let error = try #require(throws: ConfigurationError.self) { try ConfigNode.load(contentsOf: missing) }
        #expect(error.source == missing.lastPathComponent)
        #expect(error.message == "no such file")
        #expect(error.description == "\(missing.lastPathComponent): no such file")
        let file = directory.appendingPathComponent("config-\(UUID()).json")
        try Data("\u{FEFF}{\"a\":[true]}".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let root = try ConfigNode.load(contentsOf: file)
        #expect(root.source == file.lastPathComponent)
        #expect(try root.array("a").first?.boolValue() == true)
    }

    @Test("an error without a source leaves the name out")
    func noSource() {
        #expect(ConfigurationError(path: "$.a", message: "m").description == "$.a: m")
        #expect(ConfigurationError(message: "m", line: 2, column: 3).description == "2:3: m")
    }
}
