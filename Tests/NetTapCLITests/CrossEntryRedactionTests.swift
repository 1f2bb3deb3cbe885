import Foundation
import NetTapCLI
import Testing

/// An imported HAR in Firefox's shape, no value of whose cookies any command may print or write.
///
/// Every `Set-Cookie` of a response is in one value, one per line; one cookie is only in a request's HAR `cookies`
/// array (its headers filtered out); the cookies' values are copied into later entries' URLs and headers.
@Suite("Imported HAR: multi-line Set-Cookie and values copied across entries are redacted in every output")
struct CrossEntryRedactionTests {
    static let planted = ["SIDa8f3c0de55e1", "REFRESHr79c0ffee", "TRACKt0k3n-5150", "ARRAYONLYc00k1e"]

    static let document = """
        {"log": {"version": "1.2", "creator": {"name": "Firefox", "version": "128.0"}, "pages": [],
          "entries": [
            {"startedDateTime": "2026-01-01T00:00:00.000Z", "time": 12,
             "request": {"method": "POST", "url": "https://shop.example/login", "httpVersion": "HTTP/1.1",
               "cookies": [{"name": "session", "value": "\(planted[3])"}], "headers": [], "queryString": [],
               "headersSize": -1, "bodySize": 0},
             "response": {"status": 302, "statusText": "Found", "httpVersion": "HTTP/1.1",
               "cookies": [{"name": "sid", "value": "\(planted[0])"}, {"name": "refresh", "value": "\(planted[1])"}],
               "headers": [
                 {"name": "Set-Cookie",
                  "value": "sid=\(planted[0]); Path=/; HttpOnly\\nrefresh=\(planted[1]); Secure\\ntrk=\(planted[2])"},
                 {"name": "Location", "value": "/home"}],
               "content": {"size": 0, "mimeType": "text/html"}, "redirectURL": "/home",
               "headersSize": -1, "bodySize": 0},
             "cache": {}, "timings": {"send": 1, "wait": 10, "receive": 1}},
            {"startedDateTime": "2026-01-01T00:00:01.000Z", "time": 20,
             "request": {"method": "GET", "url": "https://shop.example/track?visit=\(planted[0])&page=2&ref=\(planted[3])",
               "httpVersion": "HTTP/1.1", "cookies": [], "headers": [{"name": "X-Trace", "value": "\(planted[2])"}],
               "queryString": [{"name": "visit", "value": "\(planted[0])"}, {"name": "page", "value": "2"}],
               "headersSize": -1, "bodySize": 0},
             "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1", "cookies": [],
               "headers": [{"name": "Content-Type", "value": "text/plain"},
                           {"name": "Content-Location", "value": "https://cdn.shop.example/t?r=\(planted[1])"}],
               "content": {"size": 26, "mimeType": "text/plain", "text": "refresh=\(planted[1])"},
               "redirectURL": "", "headersSize": -1, "bodySize": 26},
             "cache": {}, "timings": {"send": 1, "wait": 18, "receive": 1}}
          ]}}
        """

    private func leaks(in text: String) -> [String] { Self.planted.filter { text.contains($0) } }

    private func files(in directory: URL) throws -> String {
        try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension != "har" }
            .map { String(decoding: try Data(contentsOf: $0), as: UTF8.self) }
            .joined(separator: "\n")
    }

    @Test("mock save, report (text, JSON, HTML) and stats print and write none of the planted values")
    func nothingLeaks() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(Self.document.utf8).write(to: directory.appendingPathComponent("firefox.har"))
        var printed: [String] = []
        for arguments in [
            ["mock", "save", "firefox.har", "--entry", "1", "--to", "mocks.json"],
            ["mock", "save", "firefox.har", "--entry", "0", "--to", "login.json"],
            ["report", "firefox.har"], ["report", "firefox.har", "--json"],
            ["report", "firefox.har", "--html", "report.html"], ["stats", "firefox.har"],
        ] {
            let run = await runCLI(arguments, workingDirectory: directory)
            #expect(run.exitCode == .success, "\(arguments): \(run.standardError)")
            printed.append(run.standardOutput + run.standardError)
        }
        #expect(leaks(in: printed.joined()) == [], "printed")
        #expect(leaks(in: try files(in: directory)) == [], "written")
    }

    @Test("control: with --no-redact the saved stub and the report keep the values")
    func controlFindsThem() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(Self.document.utf8).write(to: directory.appendingPathComponent("firefox.har"))
        let save = await runCLI(
            ["mock", "save", "firefox.har", "--entry", "1", "--to", "mocks.json", "--no-redact"],
            workingDirectory: directory
        )
        #expect(save.exitCode == .success, "\(save.standardError)")
        #expect(leaks(in: try files(in: directory)).count >= 2)
        let report = await runCLI(["report", "firefox.har", "--no-redact"], workingDirectory: directory)
        #expect(leaks(in: report.standardOutput).contains(Self.planted[0]))
    }
}
