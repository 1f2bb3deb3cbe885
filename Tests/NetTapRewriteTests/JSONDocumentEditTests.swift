import Foundation
import NetTapCore
import Testing

@testable import NetTapRewrite

@Suite("JSON value rewrites: paths, set, add, remove, and every other byte kept")
struct JSONDocumentEditTests {
    private static func set(_ path: String, _ value: String, in document: String) throws -> String? {
        let parsed = try JSONValuePath(parsing: path)
        switch JSONDocumentEdit.setting(Array(value.utf8), at: parsed, in: Array(document.utf8)) {
        case .edited(let bytes, _): return String(decoding: bytes, as: UTF8.self)
        case .notFound, .notJSON: return nil
        }
    }

    private static func remove(_ path: String, in document: String) throws -> String? {
        let parsed = try JSONValuePath(parsing: path)
        switch JSONDocumentEdit.removing(at: parsed, in: Array(document.utf8)) {
        case .edited(let bytes, _): return String(decoding: bytes, as: UTF8.self)
        case .notFound, .notJSON: return nil
        }
    }

    @Test("a value is replaced in place; white space, key order and number spelling elsewhere stay")
    func setKeepsTheRest() throws {
        let document = "{\n  \"user\" : {\"name\": \"Ann\", \"age\": 3.50},\n  \"z\": 1e2\n}"
        let result = try Self.set("$.user.name", "\"Test\"", in: document)
        #expect(result == "{\n  \"user\" : {\"name\": \"Test\", \"age\": 3.50},\n  \"z\": 1e2\n}")
    }

    @Test("paths reach array elements from either end, every element, and names that need quotes")
    func pathForms() throws {
        let document = #"{"items":[{"p":1},{"p":2},{"p":3}],"content-type":"a","x.y":0}"#
        #expect(try Self.set("$.items[0].p", "9", in: document)?.contains(#"[{"p":9},{"p":2}"#) == true)
        #expect(try Self.set("$.items[-1].p", "9", in: document)?.contains(#"{"p":9}]"#) == true)
        #expect(try Self.set("$.items[*].p", "0", in: document)?.contains(#"[{"p":0},{"p":0},{"p":0}]"#) == true)
        #expect(try Self.set("$.content-type", "\"b\"", in: document)?.contains(#""content-type":"b""#) == true)
        #expect(try Self.set(#"$["x.y"]"#, "1", in: document)?.hasSuffix(#""x.y":1}"#) == true)
        #expect(try Self.set("$['x.y']", "1", in: document)?.hasSuffix(#""x.y":1}"#) == true)
        #expect(try Self.set("$", "null", in: document) == "null")
    }

    @Test("a missing member is added to its object; a missing element or parent changes nothing")
    func addsMissingMember() throws {
        #expect(try Self.set("$.b", "2", in: #"{"a":1}"#) == #"{"a":1,"b":2}"#)
        #expect(try Self.set("$.b", "2", in: "{ }") == #"{ "b":2}"#)
        #expect(try Self.set("$.a.b", "2", in: #"{"c":1}"#) == nil)
        #expect(try Self.set("$.a[5]", "2", in: #"{"a":[1]}"#) == nil)
        #expect(try Self.set("$.a", "2", in: "[1,2]") == nil)
    }

    @Test("removing takes the member or element and its comma, for any run of neighbours")
    func removes() throws {
        #expect(try Self.remove("$.a", in: #"{"a":1, "b":2}"#) == #"{"b":2}"#)
        #expect(try Self.remove("$.b", in: #"{"a":1, "b":2}"#) == #"{"a":1}"#)
        #expect(try Self.remove("$.a", in: #"{ "a" : 1 }"#) == "{  }")
        #expect(try Self.remove("$[1]", in: "[0, 1, 2, 3]") == "[0, 2, 3]")
        #expect(try Self.remove("$[*]", in: "[0, 1, 2]") == "[]")
        #expect(
            try Self.remove("$.items[*].secret", in: #"{"items":[{"secret":1,"k":2},{"k":3,"secret":4}]}"#)
                == #"{"items":[{"k":2},{"k":3}]}"#
        )
        #expect(try Self.remove("$.missing", in: #"{"a":1}"#) == nil)
    }

    @Test("a document that is not JSON, or nests too deep, is left alone")
    func notJSON() throws {
        let path = try JSONValuePath(parsing: "$.a")
        for text in ["{\"a\":1,}", "<html>", "{\"a\":01}", "{\"a\":\"\u{01}\"}", "", "{\"a\":1} x"] {
            #expect(JSONDocumentEdit.setting([0x31], at: path, in: Array(text.utf8)) == .notJSON, "\(text)")
        }
        let deep = String(repeating: "[", count: 300) + String(repeating: "]", count: 300)
        #expect(JSONDocumentEdit.removing(at: try JSONValuePath(parsing: "$[0]"), in: Array(deep.utf8)) == .notJSON)
    }

    @Test("on thousands of damaged documents an edit never traps, and what it writes is JSON whenever it read JSON")
    func damagedDocuments() throws {
        let original = Array(#"{"user": {"name": "A\u00e9", "tags": [1, 2.5e3, true, null]}, "ads": [{"id": 1}]}"#.utf8)
        let paths = try ["$.user.name", "$.user.tags[*]", "$.ads[0].id", "$.*", "$.user.missing"].map(
            JSONValuePath.init(parsing:)
        )
        var seed: UInt64 = 0x5EED
        func next() -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: seed >> 33)
        }
        let alphabet = Array(#"{}[]",:\ 0123456789.eE-+tfnul"#.utf8)
        var edited = 0
        for _ in 0..<4000 {
            var document = original
            for _ in 0...(next() % 3) {
                let position = next() % document.count
                document[position] = alphabet[next() % alphabet.count]
            }
            let readsAsJSON =
                (try? JSONSerialization.jsonObject(with: Data(document), options: [.fragmentsAllowed])) != nil
            for path in paths {
                for outcome in [
                    JSONDocumentEdit.setting(Array(#"{"x":[]}"#.utf8), at: path, in: document),
                    JSONDocumentEdit.removing(at: path, in: document),
                ] {
                    guard case .edited(let bytes, _) = outcome else { continue }
                    edited += 1
                    #expect(
                        readsAsJSON,
                        "edited a document JSONSerialization refuses: \(String(decoding: document, as: UTF8.self))"
                    )
                    #expect(
                        (try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])) != nil,
                        "wrote something that is not JSON from \(String(decoding: document, as: UTF8.self))"
                    )
                }
            }
        }
        #expect(edited > 1000)
        let deep = Array(repeating: UInt8(ascii: "["), count: 100_000)
        #expect(JSONDocumentEdit.removing(at: try JSONValuePath(parsing: "$[0]"), in: deep) == .notJSON)
    }

    @Test("member names with escapes are read as their text")
    func escapedNames() throws {
        let document = #"{"na\u006de":"x","\ud83d\ude00":1,"a\"b":2}"#
        #expect(try Self.set("$.name", "\"y\"", in: document)?.contains(#""na\u006de":"y""#) == true)
        #expect(try Self.set("$.😀", "2", in: document)?.contains(#""\ud83d\ude00":2"#) == true)
        #expect(try Self.set(#"$["a\"b"]"#, "3", in: document)?.hasSuffix(#""a\"b":3}"#) == true)
    }

    @Test(
        "a path that does not parse names the character at fault",
        arguments: [
            ("user.name", "starts with \"$\""), ("$.user.", "a name must follow"), ("$[abc]", "expected an index"),
            ("$[0", "unclosed"), ("$.a[\"b]", "a quoted name must end"), ("$x", "expected \".\" or \"[\""),
        ]
    )
    func badPaths(text: String, message: String) {
        #expect {
            _ = try JSONValuePath(parsing: text)
        } throws: { error in
            let failure = error as? RewriteRuleError
            return failure?.kind == .jsonPath && (failure?.message.contains(message) ?? false)
        }
    }
}
