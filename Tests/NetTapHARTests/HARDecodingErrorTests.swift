import Foundation
import NetTapHAR
import Testing

@Suite("Decoding errors and leniency")
struct HARDecodingErrorTests {
    private func decode(_ json: String) throws(HARError) -> HARDocument {
        try HARDocument.decode(Data(json.utf8), source: "test.har")
    }

    @Test("An entry missing a required field is left out with a warning naming its JSON path")
    func missingURL() throws {
        var warnings: [HARWarning] = []
        let json = #"{"log":{"entries":[{"request":{"method":"GET"},"response":{"status":200}}]}}"#
        let document = try HARDocument.decode(Data(json.utf8), source: "test.har", warnings: &warnings)
        #expect(document.log.entries.isEmpty)
        #expect(
            warnings.map(\.description) == [
                #"$.log.entries[0]: missing required field "url" at $.log.entries[0].request; left out"#
            ]
        )
    }

    @Test("A value of the wrong type is named with its JSON path; an unusable status reads as 0, no response")
    func wrongType() throws {
        let json = #"""
            {"log":{"entries":[
              {"startedDateTime":"2026-01-01T00:00:00Z","time":1,
               "request":{"method":"GET","url":"http://a/"},"response":{"status":200},"timings":{}},
              {"startedDateTime":"2026-01-01T00:00:00Z","time":1,
               "request":{"method":"GET","url":"http://a/"},"response":{"status":{"code":200}},"timings":{}}
            ]}}
            """#
        var warnings: [HARWarning] = []
        let document = try HARDocument.decode(Data(json.utf8), source: "test.har", warnings: &warnings)
        #expect(document.log.entries.map(\.response.status) == [200, 0])
        #expect(warnings.count == 1)
        #expect(warnings.first?.path == "$.log.entries[1].response.status")
        #expect(warnings.first?.problem == "expected a number, found an object")
        #expect(warnings.first?.resolution == "read as unknown")
    }

    @Test("A document without log, or not an object, is rejected at the root")
    func noLog() throws {
        let missing = try #require(throws: HARError.self) { try decode(#"{"entries":[]}"#) }
        #expect(missing.description == #"test.har: $: missing required field "log""#)
        let array = try #require(throws: HARError.self) { try decode("[1,2]") }
        #expect(array.path == "$")
        #expect(array.line == nil)
    }

    @Test("An empty file and a missing file give clear errors")
    func emptyAndMissing() throws {
        let empty = try #require(throws: HARError.self) { try decode("") }
        #expect(empty.description == "test.har:1:1: invalid JSON: the file is empty")
        let missingURL = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-\(UUID()).har")
        let missing = try #require(throws: HARError.self) { try HARDocument.load(contentsOf: missingURL) }
        #expect(missing.source == missingURL.lastPathComponent)
        #expect(missing.message.hasPrefix("cannot read file"))
    }

    @Test("Sloppy exports load: numbers as strings, nulls, missing pages, cache and timings")
    func lenient() throws {
        let json = #"""
            {"log":{"version":"1.2","creator":{"name":"x"},"entries":[{
              "pageref":"nowhere","startedDateTime":"2024-01-02T03:04:05Z","time":"12.5",
              "request":{"method":"GET","url":"http://127.0.0.1/x","headersSize":null,"headers":[{"name":"N","value":7}]},
              "response":{"status":"201","statusText":null,"content":{"size":"3","text":"abc"},"redirectURL":null,
                          "_vendor":{"nested":[1,true,null]}},
              "timings":{}
            }]}}
            """#
        let document = try decode(json)
        let entry = try #require(document.log.entries.first)
        #expect(document.log.pages.isEmpty)
        #expect(entry.time == 12.5)
        #expect(entry.request.headers == [HARHeader(name: "N", value: "7")])
        #expect(entry.request.headersSize == -1)
        #expect(entry.response.status == 201)
        #expect(entry.response.content.size == 3)
        #expect(
            entry.response.customFields["_vendor"] == .object(["nested": .array([.number(1), .bool(true), .null])])
        )
        #expect(entry.timings == HARTimings())
        let transaction = entry.transaction()
        #expect(transaction.response?.body?.data == Data("abc".utf8))
        #expect(transaction.timings.startDate == Date(timeIntervalSince1970: 1_704_164_645))
        #expect(transaction.timings.end == 12.5)
        // Vendor fields survive a re-export.
        let again = try HARDocument.decode(try document.encoded(), source: "again.har")
        #expect(again.log.entries.first?.response.customFields == entry.response.customFields)
        // A pageref naming no page is accepted on import but not written again.
        #expect(entry.pageref == "nowhere")
        #expect(again.log.entries.first?.pageref == nil)
    }
}
