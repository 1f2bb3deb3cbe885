import Foundation
import NetTapCLI
import Testing

/// Cookie and URL shapes real exports hold that a redactor splitting at `=` or reading only headers misses.
///
/// A value with `=` in it, a quoted value, a cookie without a name, a cookie listed only in the HAR `cookies` array
/// beside headers that leave it out, and secrets in URLs that do not parse; each value is echoed elsewhere.
@Suite("Imported HAR: cookie values with =, quoted and nameless cookies, array-only cookies, unparsable URLs")
struct CookieShapeRedactionTests {
    /// Every planted value, and the tail a redactor splitting at `=` would leave (`=9Zq`).
    static let planted = [
        "EQUALSv4lue=9Zq", "=9Zq", "QUOTEDs1d00", "NONAMEv4lue999", "ARRAYBESIDEh34der", "RESPARRAYc00kie",
        "BADURLt0ken1", "BADURLt0ken2",
    ]

    static let document = """
        {"log": {"version": "1.2", "creator": {"name": "HAR generator", "version": "1"}, "pages": [],
          "entries": [
            {"startedDateTime": "2026-01-01T00:00:00.000Z", "time": 10,
             "request": {"method": "GET", "url": "https://shop.example/start", "httpVersion": "HTTP/1.1",
               "cookies": [{"name": "a", "value": "1"}, {"name": "hidden", "value": "ARRAYBESIDEh34der"}],
               "headers": [{"name": "Cookie", "value": "a=1"}], "queryString": [], "headersSize": -1, "bodySize": 0},
             "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1",
               "cookies": [{"name": "x", "value": "1"}, {"name": "resp", "value": "RESPARRAYc00kie"}],
               "headers": [
                 {"name": "Set-Cookie", "value": "pref=EQUALSv4lue=9Zq; Path=/"},
                 {"name": "Set-Cookie", "value": "sid=\\"QUOTEDs1d00\\"; Path=/; HttpOnly"},
                 {"name": "Set-Cookie", "value": "NONAMEv4lue999; Path=/"},
                 {"name": "Set-Cookie", "value": "x=1"},
                 {"name": "Content-Type", "value": "text/plain"}],
               "content": {"size": 2, "mimeType": "text/plain", "text": "ok"}, "redirectURL": "",
               "headersSize": -1, "bodySize": 2},
             "cache": {}, "timings": {"send": 1, "wait": 8, "receive": 1}},
            {"startedDateTime": "2026-01-01T00:00:01.000Z", "time": 10,
             "request": {"method": "GET",
               "url": "https://shop.example/echo?p=EQUALSv4lue%3D9Zq&q=QUOTEDs1d00&h=ARRAYBESIDEh34der&r=RESPARRAYc00kie",
               "httpVersion": "HTTP/1.1", "cookies": [], "headers": [{"name": "X-Echo", "value": "NONAMEv4lue999"}],
               "queryString": [], "headersSize": -1, "bodySize": 0},
             "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1", "cookies": [],
               "headers": [{"name": "Content-Type", "value": "application/json"}],
               "content": {"size": 90, "mimeType": "application/json",
                 "text": "{\\"pref\\":\\"EQUALSv4lue=9Zq\\",\\"sid\\":\\"QUOTEDs1d00\\",\\"n\\":\\"NONAMEv4lue999\\"}"},
               "redirectURL": "", "headersSize": -1, "bodySize": 90},
             "cache": {}, "timings": {"send": 1, "wait": 8, "receive": 1}},
            {"startedDateTime": "2026-01-01T00:00:02.000Z", "time": 10,
             "request": {"method": "GET", "url": "http://exa mple.com/?access_token=BADURLt0ken1",
               "httpVersion": "HTTP/1.1", "cookies": [], "headers": [], "queryString": [],
               "headersSize": -1, "bodySize": 0},
             "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1", "cookies": [], "headers": [],
               "content": {"size": 0, "mimeType": "text/plain"}, "redirectURL": "", "headersSize": -1, "bodySize": 0},
             "cache": {}, "timings": {"send": 1, "wait": 8, "receive": 1}},
            {"startedDateTime": "2026-01-01T00:00:03.000Z", "time": 10,
             "request": {"method": "GET", "url": "http://[bad/?token=BADURLt0ken2",
               "httpVersion": "HTTP/1.1", "cookies": [], "headers": [], "queryString": [],
               "headersSize": -1, "bodySize": 0},
             "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1", "cookies": [], "headers": [],
               "content": {"size": 0, "mimeType": "text/plain"}, "redirectURL": "", "headersSize": -1, "bodySize": 0},
             "cache": {}, "timings": {"send": 1, "wait": 8, "receive": 1}}
          ]}}
        """

    private static let commands: [[String]] = [
        ["mock", "save", "shapes.har", "--entry", "0", "--to", "start.json"],
        ["mock", "save", "shapes.har", "--entry", "1", "--to", "echo.json"],
        ["mock", "save", "shapes.har", "--entry", "2", "--to", "bad.json"],
        ["mock", "save", "shapes.har", "--entry", "3", "--to", "bad.json"],
        ["report", "shapes.har"], ["report", "shapes.har", "--json"], ["report", "shapes.har", "--audit"],
        ["report", "shapes.har", "--html", "report.html"], ["stats", "shapes.har"], ["stats", "shapes.har", "--json"],
    ]

    private func leaks(in text: String) -> [String] { Self.planted.filter { text.contains($0) } }

    private func written(in directory: URL) throws -> String {
        try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension != "har" }
            .map { String(decoding: try Data(contentsOf: $0), as: UTF8.self) }
            .joined(separator: "\n")
    }

    private func run(_ extra: [String]) async throws -> (printed: String, written: String) {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(Self.document.utf8).write(to: directory.appendingPathComponent("shapes.har"))
        var printed = ""
        for arguments in Self.commands {
            let run = await runCLI(arguments + extra, workingDirectory: directory)
            printed += run.standardOutput + run.standardError
        }
        return (printed, try written(in: directory))
    }

    @Test("no command prints or writes a planted value, whole or in part")
    func nothingLeaks() async throws {
        let (printed, written) = try await run([])
        #expect(leaks(in: printed) == [], "printed")
        #expect(leaks(in: written) == [], "written")
        #expect(printed.contains("(no host)"), "the unparsable URLs have no host")
        #expect(printed.contains("its URL is not a URL"), "mock save says why, with the URL redacted")
    }

    @Test("control: with --no-redact every planted value is there")
    func controlFindsThem() async throws {
        let (printed, written) = try await run(["--no-redact"])
        #expect(Set(leaks(in: printed + written)) == Set(Self.planted))
    }
}
