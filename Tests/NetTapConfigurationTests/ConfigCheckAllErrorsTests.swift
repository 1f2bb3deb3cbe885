import Foundation
import NetTapConfiguration
import NetTapCore
import NetTapTestSupport
import Testing

@Suite("Validating a configuration finds every error")
struct ConfigCheckAllErrorsTests {
    @Test("validate reports every mistake, in document order, with the file's array indexes")
    func everyError() throws {
        let folder = try TemporaryFolder(prefix: "nettap-all-errors")
        let url = folder.url.appendingPathComponent("nettap.json")
        try Data(brokenConfiguration.utf8).write(to: url)
        let errors = NetTapConfiguration.validate(contentsOf: url)
        #expect(errors.map(\.path) == brokenConfigurationPaths, "\(errors.map(\.description))")
        #expect(errors.allSatisfy { $0.source == "nettap.json" })
        let messages = Dictionary(errors.map { ($0.path, $0.message) }, uniquingKeysWith: { first, _ in first })
        #expect(messages["$.scope.denyHost"] == #"unknown key "denyHost"; did you mean "denyHosts"?"#)
        #expect(messages["$.redaction.add[1].feild"] == #"unknown key "feild"; did you mean "field"?"#)
        #expect(messages["$.mocks.stubs[1].name"] == "expected a string, found a number")
        #expect(
            messages["$.redaction.add[0].header"]
                == #"redaction pattern "^(x": not a valid regular expression: missing ")" to close "(" at character 2"#
        )
        #expect(
            messages["$.mocks.stubs[1].match.pathRegex"]?.hasPrefix(#"invalid regular expression "^/b/(": missing ")""#)
                == true
        )
        // Checking changes nothing on disk: no cache folder, no store, no cassette.
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
        #expect(names == ["nettap.json"])
    }

    @Test("load still throws a single first error, and a valid file validates to no errors")
    func loadThrowsFirst() throws {
        let folder = try TemporaryFolder(prefix: "nettap-all-errors")
        let url = folder.url.appendingPathComponent("nettap.json")
        try Data(brokenConfiguration.utf8).write(to: url)
        let error = try #require(throws: ConfigurationError.self) { try NetTapConfiguration.load(contentsOf: url) }
        #expect(error.path == "$.scpoe")
        let valid = folder.url.appendingPathComponent("valid.json")
        try Data(#"{"scope": {"denyHosts": ["a.example"]}, "cache": {"directory": "c"}}"#.utf8).write(to: valid)
        #expect(NetTapConfiguration.validate(contentsOf: valid).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("c").path))
    }

    @Test("a trailing comma is invalid JSON with its line and column")
    func trailingComma() throws {
        let folder = try TemporaryFolder(prefix: "nettap-all-errors")
        let url = folder.url.appendingPathComponent("comma.json")
        try Data(#"{"scope":{"denyHosts":["a"],}}"#.utf8).write(to: url)
        let errors = NetTapConfiguration.validate(contentsOf: url)
        #expect(errors.count == 1)
        #expect(errors.first?.line == 1)
        #expect(errors.first?.column == 28)
        #expect(errors.first?.description.hasPrefix("comma.json:1:28: invalid JSON: a comma before a closing") == true)
        try Data("[1,\n 2 ,\n]".utf8).write(to: url)
        let array = try #require(throws: ConfigurationError.self) { try NetTapConfiguration.load(contentsOf: url) }
        #expect(array.line == 2 && array.column == 4, "\(array)")
        try Data(#"{"scope": {"denyHosts": ["a,]"]}}"#.utf8).write(to: url)
        #expect(NetTapConfiguration.validate(contentsOf: url).isEmpty, "a comma inside a string is no trailing comma")
    }

    @Test("a file that cannot be read says why in words")
    func unreadable() throws {
        let folder = try TemporaryFolder(prefix: "nettap-all-errors")
        let missing = NetTapConfiguration.validate(contentsOf: folder.url.appendingPathComponent("nope.json"))
        #expect(missing.map(\.description) == ["nope.json: no such file"])
        let directory = folder.url.appendingPathComponent("dir.json", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        #expect(
            NetTapConfiguration.validate(contentsOf: directory).map(\.description) == [
                "dir.json: is a directory, not a file"
            ]
        )
    }

    @Test("scope and matcher patterns name the pattern as written and what is wrong")
    func patternErrors() throws {
        let folder = try TemporaryFolder(prefix: "nettap-all-errors")
        let url = folder.url.appendingPathComponent("p.json")
        try Data(#"{"scope": {"denyHosts": ["regex:a)"]}, "redaction": {"add": [{"field": "regex:*x"}]}}"#.utf8)
            .write(to: url)
        let lines = NetTapConfiguration.validate(contentsOf: url).map(\.description)
        #expect(
            lines == [
                #"p.json: $.scope.denyHosts[0]: invalid regular expression "a)": unmatched ")" at character 2"#,
                #"p.json: $.redaction.add[0].field: redaction pattern "*x": not a valid regular expression: "*" has nothing to repeat at character 1"#,
            ]
        )
    }
}
