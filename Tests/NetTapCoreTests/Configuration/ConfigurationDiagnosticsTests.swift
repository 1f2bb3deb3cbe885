import Foundation
import NetTapCore
import Testing

@Suite("One reading collects every configuration error")
struct ConfigurationDiagnosticsTests {
    private func document(_ json: String) throws -> ConfigNode {
        try ConfigNode(parsing: Data(json.utf8), source: "c.json")
    }

    @Test("accessors report and go on with a neutral value; without diagnostics the first error is thrown")
    func accessorsGoOn() throws {
        let root = try document(#"{"a": 1, "b": "x", "c": "2 MiB", "d": "lots", "e": [1, "two", 3], "f": true}"#)
        #expect(throws: ConfigurationError.self) { try root.string("a") }
        let diagnostics = ConfigurationDiagnostics()
        let node = root.collectingDiagnostics(into: diagnostics)
        #expect(try node.string("a") == "")
        #expect(try node.int("b") == 0)
        #expect(try node.byteCount("c") == 2 * 1024 * 1024)
        #expect(try node.byteCount("d", minimum: 1) == 1)
        #expect(try node.each("e") { try $0.intValue() } == [1, 0, 3])
        try node.rejectUnknownKeys(allowed: ["a", "b", "c", "d", "e"])
        #expect(
            diagnostics.errors.map(\.error.path) == ["$.a", "$.b", "$.d", "$.e[1]", "$.f"],
            "\(diagnostics.errors.map(\.error.description))"
        )
    }

    @Test("an element that throws is left out and the next one is read")
    func elementsRecover() throws {
        let node = try document(#"{"list": [{"n": 1}, {"m": 2}, {"n": 3}]}"#)
        let diagnostics = ConfigurationDiagnostics()
        let values = try node.collectingDiagnostics(into: diagnostics).each("list") { try $0.requiredInt("n") }
        #expect(values == [1, 3])
        #expect(diagnostics.errors.map(\.error.description) == [#"c.json: $.list[1]: missing required key "n""#])
        #expect(throws: ConfigurationError.self) { try node.each("list") { try $0.requiredInt("n") } }
    }

    @Test("an error at a reported value's place, or at an object holding it, is a consequence and not kept")
    func consequences() throws {
        let node = try document(#"{"stub": {"name": 5, "other": "x"}}"#)
        let diagnostics = ConfigurationDiagnostics()
        let stub = try #require(try node.collectingDiagnostics(into: diagnostics).child("stub"))
        let name = try stub.requiredString("name")
        diagnostics.report(try stub.requiredChild("name").error("must not be empty, found \"\(name)\""), from: stub)
        diagnostics.report(stub.error("missing required key \"name\""), from: stub)
        diagnostics.report(node.error("the document has a broken stub"), from: node)
        diagnostics.report(try stub.requiredChild("other").error("a sibling's own mistake"), from: stub)
        // A path that only starts like a reported one is no consequence.
        diagnostics.report(ConfigurationError(source: "c.json", path: "$.stu", message: "x"), from: node)
        #expect(
            diagnostics.errors.map(\.error.path) == ["$.stub.name", "$.stub.other", "$.stu"],
            "\(diagnostics.errors.map(\.error.description))"
        )
    }
}
