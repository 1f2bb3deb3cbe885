import Foundation
import NetTapHAR
import Testing

/// Real exporters write values outside HAR 1.2; NetTap reads them, says where, and refuses only what is not HAR.
@Suite("HAR reading: odd values are coerced or left out with a warning naming their path")
struct HARLenientReadingTests {
    private func read(_ json: String) throws -> (HARDocument, [HARWarning]) {
        var warnings: [HARWarning] = []
        let document = try HARDocument.decode(Data(json.utf8), source: "odd.har", warnings: &warnings)
        return (document, warnings)
    }

    private func entry(request: String = #""method": "GET", "url": "https://a.example/x""#, rest: String) -> String {
        """
        {"log": {"version": "1.2", "creator": {"name": "t", "version": "1"},
          "entries": [{"startedDateTime": "2026-01-01T00:00:00Z", "time": 1, "request": {\(request)}, \(rest)}]}}
        """
    }

    private let response = #""response": {"status": 200, "content": {"size": 0, "mimeType": ""}}"#

    @Test("request cookies as an object and cache as [] are left out; the rest of the entry is read")
    func wrongKinds() throws {
        let (document, warnings) = try read(
            entry(
                request: #""method": "GET", "url": "https://a.example/x", "cookies": {"a": "1"}"#,
                rest: response + #", "cache": []"#
            )
        )
        #expect(document.log.entries.first?.response.status == 200)
        #expect(document.log.entries.first?.request.cookies == [])
        #expect(
            warnings.map(\.description) == [
                "$.log.entries[0].request.cookies: expected an array, found an object; left out",
                "$.log.entries[0].cache: expected an object, found an array; left out",
            ]
        )
    }

    @Test("a header value written as an array is joined one per line; a param value that is an object is its JSON")
    func coercedStrings() throws {
        let request = """
            "method": "POST", "url": "https://a.example/x", "headers": [{"name": "Set-Cookie", "value": ["a=1", "b=2"]}],
            "postData": {"mimeType": "application/x-www-form-urlencoded", "params": [{"name": "p", "value": {"k": 1}}]}
            """
        let (document, warnings) = try read(entry(request: request, rest: response))
        let read = try #require(document.log.entries.first?.request)
        #expect(read.headers.first?.value == "a=1\nb=2")
        #expect(read.postData?.params.first?.value == #"{"k":1}"#)
        #expect(
            warnings.map(\.path) == [
                "$.log.entries[0].request.headers[0].value", "$.log.entries[0].request.postData.params[0].value",
            ]
        )
    }

    @Test("numbers and booleans as strings, null objects, missing pages and timings are read without a warning")
    func quietlyRead() throws {
        let (document, warnings) = try read(
            entry(
                rest:
                    #""response": {"status": "204", "content": null, "headersSize": "-1", "bodySize": "0"}, "timings": null"#
            )
        )
        #expect(document.log.entries.first?.response.status == 204)
        #expect(document.log.pages == [])
        #expect(warnings == [])
    }

    @Test("a number that is not one is unknown; an entry without response is no response; one without request goes")
    func entriesAndNumbers() throws {
        let json = """
            {"log": {"entries": [
              {"startedDateTime": "", "request": {"method": "GET", "url": "https://a.example/1"}, "time": "soon"},
              {"startedDateTime": "", "response": {"status": 200}},
              {"startedDateTime": "", "request": {"method": "GET", "url": "https://a.example/3"}, "response": {"status": 0}}
            ]}}
            """
        let (document, warnings) = try read(json)
        #expect(document.log.entries.map(\.request.url) == ["https://a.example/1", "https://a.example/3"])
        #expect(document.log.entries.first?.response.status == 0)
        #expect(
            warnings.map(\.description) == [
                #"$.log.entries[0]: missing "response"; read as no response (status 0)"#,
                "$.log.entries[0].time: expected a number, found a string; read as unknown",
                #"$.log.entries[1]: missing required field "request"; left out"#,
            ]
        )
    }

    @Test("what is not HAR is still refused with the place: no log, entries that are not an array, not JSON")
    func notHAR() {
        #expect(throws: HARError.self) { try read(#"{"logs": {}}"#) }
        do {
            _ = try read(#"{"log": {"entries": {"0": {}}}}"#)
            Issue.record("entries as an object was accepted")
        } catch {
            #expect((error as? HARError)?.path == "$.log.entries")
        }
        do {
            _ = try read("onInputData({})")
            Issue.record("JSONP was accepted")
        } catch {
            #expect((error as? HARError)?.line == 1)
        }
    }
}
