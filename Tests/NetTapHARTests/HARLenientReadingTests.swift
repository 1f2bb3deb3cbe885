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
          "entries": [{"startedDateTime": "2026-01-01T00:00:00Z", "time": 1, "request": {\(request)}, \(rest),
            "timings": {"send": 0, "wait": 1, "receive": 0}}]}}
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

    @Test("numbers and booleans as strings and null or missing required values are read, each with a warning")
    func coercedScalarsAndNulls() throws {
        let json = """
            {"log": {"entries": [{"startedDateTime": "yesterday", "time": "12.5", "timings": null,
              "request": {"method": "GET", "url": 123, "headers": null, "cookies": [{"name": "a", "value": "1",
                "httpOnly": "true"}]},
              "response": {"status": "204", "content": null, "headersSize": "-1", "bodySize": "0"}},
              {"startedDateTime": "2026-01-01T00:00:00Z", "request": {"method": "GET", "url": "https://a.example/"},
               "response": {"status": 200, "redirectURL": null, "content": {"size": 0, "mimeType": ""}}}]}}
            """
        let (document, warnings) = try read(json)
        let first = try #require(document.log.entries.first)
        #expect(first.response.status == 204)
        #expect(first.time == 12.5)
        #expect(first.request.url == "123")
        #expect(first.request.cookies.first?.httpOnly == true)
        #expect(document.log.pages == [])
        #expect(
            Set(warnings.map(\.path)) == [
                "$.log.entries[0].startedDateTime", "$.log.entries[0].time", "$.log.entries[0].timings",
                "$.log.entries[0].request.url", "$.log.entries[0].request.headers",
                "$.log.entries[0].request.cookies[0].httpOnly", "$.log.entries[0].response.status",
                "$.log.entries[0].response.content", "$.log.entries[0].response.headersSize",
                "$.log.entries[0].response.bodySize", "$.log.entries[1]",
            ]
        )
        // The second entry's only oddities: no timings or time (required) and a null redirectURL (empty: no warning).
        #expect(
            warnings.filter { $0.path == "$.log.entries[1]" }.map(\.problem) == [
                #"missing "timings""#, #"missing "time""#,
            ]
        )
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
                #"$.log.entries[0]: missing "timings"; read as unknown (-1)"#,
                "$.log.entries[0].startedDateTime: not an ISO 8601 date and time; read as the earliest start in the file",
                "$.log.entries[0].time: expected a number, found a string; read as unknown",
                #"$.log.entries[1]: missing required field "request"; left out"#,
                #"$.log.entries[2]: missing "timings"; read as unknown (-1)"#,
                "$.log.entries[2].startedDateTime: not an ISO 8601 date and time; read as the earliest start in the file",
                #"$.log.entries[2]: missing "time"; read as the sum of the timings"#,
            ]
        )
        #expect(document.log.leftOutEntryPositions == [1])
        #expect(document.log.filePosition(ofEntry: 1) == 2)
        #expect(document.log.entryIndex(atFilePosition: 2) == 1)
        #expect(document.log.entryIndex(atFilePosition: 1) == nil)
        #expect(document.log.fileEntryCount == 3)
    }

    @Test("null where HAR 1.2 requires a date, number or version, numbers as header text and fractions as sizes warn")
    func requiredScalars() throws {
        let json = """
            {"log": {"entries": [
              {"startedDateTime": "2026-01-01T00:00:05Z", "time": 1, "timings": {"send": 0, "wait": 1, "receive": 0},
               "request": {"method": "GET", "url": "https://a.example/1", "httpVersion": null,
                 "headers": [{"name": "X-Count", "value": 5}, {"name": "X-Flag", "value": true}]},
               "response": {"status": 200, "statusText": null, "redirectURL": null,
                 "content": {"size": 3.7, "mimeType": "text/plain"}}},
              {"startedDateTime": null, "time": null, "timings": {"send": 0, "wait": 1, "receive": 0},
               "request": {"method": "GET", "url": "https://a.example/2"}, "response": {"status": 200}}
            ]}}
            """
        let (document, warnings) = try read(json)
        #expect(
            Set(warnings.map(\.path)) == [
                "$.log.entries[0].request.httpVersion", "$.log.entries[0].request.headers[0].value",
                "$.log.entries[0].request.headers[1].value", "$.log.entries[0].response.content.size",
                "$.log.entries[1].startedDateTime", "$.log.entries[1].time",
            ]
        )
        #expect(document.log.entries[0].request.headers.map(\.value) == ["5", "true"])
        #expect(document.log.entries[0].response.content.size == 4)
        // A missing start is the file's earliest, not 1970: statistics keep their span.
        let starts = document.transactions().map(\.timings.startDate)
        #expect(starts[1] == starts[0])
    }

    @Test("what is not HAR is still refused with the place: no log, entries that are not an array, not JSON")
    func notHAR() {
        #expect(throws: HARError.self) { try read(#"{"logs": {}}"#) }
        #expect(
            throws: HARError(
                source: "odd.har",
                path: "$.log.entries",
                message: "found null where HAR 1.2 requires a value"
            )
        ) {
            try read(#"{"log": {"entries": null}}"#)
        }
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

    @Test("a url that is no URL keeps its text, percent-encoded, with no host; an empty one is about:blank")
    func unusableURLs() throws {
        let entries = ["http://[::1", ""].map { url in
            #"{"startedDateTime": "2026-01-01T00:00:00Z", "time": 1, "timings": {}, "request": {"method": "GET","#
                + #" "url": "\#(url)"}, "response": {"status": 200}}"#
        }
        let (document, _) = try read(#"{"log": {"entries": [\#(entries.joined(separator: ","))]}}"#)
        let urls = document.transactions().map(\.request.url)
        #expect(urls.map(\.absoluteString) == ["http%3A%2F%2F%5B%3A%3A1", "about:blank"])
        #expect(urls.map(\.host) == [nil, nil])
    }
}

@Suite("Form post data listed as params")
struct FormParamsTests {
    @Test("params without text are the body a browser sends: space as +, reserved characters escaped")
    func formEncoded() {
        let postData = HARPostData(
            mimeType: "application/x-www-form-urlencoded",
            params: [
                HARPostParameter(name: "full name", value: "Ann Lee"), HARPostParameter(name: "q", value: "a&b=c+d/é"),
            ]
        )
        #expect(postData.decodedData() == Data("full+name=Ann+Lee&q=a%26b%3Dc%2Bd%2F%C3%A9".utf8))
    }
}
