import Foundation
import Testing

@testable import NetTapCore

@Suite("HTTP headers")
struct HTTPHeadersTests {
    @Test("looks names up case-insensitively and keeps the original spelling")
    func caseInsensitiveLookup() {
        let headers: HeaderFields = ["Content-Type": "application/json"]
        #expect(headers["content-type"] == "application/json")
        #expect(headers["CONTENT-TYPE"] == "application/json")
        #expect(headers.fields.first?.name == "Content-Type")
    }

    @Test("keeps repeated fields separate and in order")
    func repeatedFields() {
        var headers = HeaderFields()
        headers.add(name: "Set-Cookie", value: "a=1")
        headers.add(name: "X-Other", value: "x")
        headers.add(name: "set-cookie", value: "b=2")
        #expect(headers.values(for: "Set-Cookie") == ["a=1", "b=2"])
        #expect(headers.count == 3)
        #expect(headers.dictionary["Set-Cookie"] == "a=1, b=2")
    }

    @Test("set replaces every field of the name with one, at the first position")
    func setReplaces() {
        var headers: HeaderFields = ["A": "1", "B": "2", "a": "3"]
        headers.set(name: "a", value: "9")
        #expect(headers.fields.map(\.name) == ["A", "B"])
        #expect(headers["a"] == "9")
        headers["B"] = nil
        #expect(headers.fields.map(\.name) == ["A"])
        headers["C"] = "new"
        #expect(headers.fields.map(\.name) == ["A", "C"])
    }

    @Test("a Foundation dictionary becomes fields sorted by name")
    func fromDictionary() {
        let headers = HeaderFields(["b": "2", "A": "1", "c": "3"] as [AnyHashable: Any])
        #expect(headers.fields.map(\.name) == ["A", "b", "c"])
    }
}
