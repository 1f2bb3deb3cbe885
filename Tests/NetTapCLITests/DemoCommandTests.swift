import Foundation
import NetTapCLI
import NetTapCore
import NetTapHAR
import NetTapTestSupport
import Testing

@Suite("nettap demo")
struct DemoCommandTests {
    /// caller, method, path, status, bytes: the rows the demo must print, in order.
    static let expectedRows: [(String, String, String, String, String)] = [
        ("async", "GET", "/v1/profile", "200", "78"),
        ("async", "GET", "/v1/items?page=1", "200", "154"),
        ("completion", "POST", "/v1/login", "200", "44"),
        ("completion", "PUT", "/v1/items/42", "200", "38"),
        ("completion", "DELETE", "/v1/items/42", "204", "0"),
        ("delegate", "GET", "/v1/items/999", "404", "57"),
        ("delegate", "GET", "/v1/reports/daily", "500", "57"),
        ("delegate", "GET", "/v1/avatar.png", "200", "70"),
        ("async", "GET", "/v1/me", "200", "78"),
        ("async", "GET", "/v1/items?page=2", "200", "75"),
    ]

    @Test("answers every caller style from the bundled HAR, prints the table and writes a decodable HAR")
    func offlineDemo() async throws {
        let directory = try makeTemporaryDirectory()
        let interceptor = Interceptor()
        let run = await runCLI(["demo", "--har", "capture.har"], interceptor: interceptor, workingDirectory: directory)
        #expect(run.exitCode == .success)
        #expect(run.standardError.isEmpty)

        let lines = run.standardOutput.components(separatedBy: "\n")
        let header = try #require(lines.firstIndex { $0.hasPrefix(" #  CALLER") })
        let rows = lines[(header + 1)...].prefix { !$0.isEmpty }.map { $0.split(separator: " ").map(String.init) }
        #expect(rows.count == Self.expectedRows.count)
        for (index, (row, expected)) in zip(rows, Self.expectedRows).enumerated() {
            #expect(row.count == 8)
            #expect(row[0] == "\(index + 1)")
            #expect(row[1] == expected.0)
            #expect(row[2] == expected.1)
            #expect(row[3] == DemoCommand.baseURL + expected.2)
            #expect(row[4] == expected.3)
            #expect(row[5] == expected.4)
            #expect(Double(row[6]) != nil)
            #expect(row[7] == DemoCommand.responderName)
        }
        #expect(
            lines.contains(
                "10 requests (async 4, completion 3, delegate 3); answered 10 by demo.har; "
                    + "8×2xx, 1×4xx, 1×5xx; 0 failed"
            )
        )
        #expect(
            lines.contains(
                "Redirect: https://api.nettap.example/v1/me answered 301; NetTap followed it to "
                    + "https://api.nettap.example/v1/profile and the caller received the final 200."
            )
        )
        // The redirected request is two entries: its 301 hop, then the final 200.
        #expect(lines.contains("HAR: wrote 11 entries to capture.har"))

        let har = try HARDocument.load(contentsOf: directory.appendingPathComponent("capture.har"))
        #expect(har.log.entries.count == 11)
        let hop = try #require(har.log.entries.firstIndex { $0.request.url.hasSuffix("/v1/me") })
        #expect(har.log.entries[hop].isRedirectHop)
        #expect(har.log.entries[hop].response.status == 301)
        #expect(har.log.entries[hop + 1].request.url == DemoCommand.baseURL + "/v1/profile")
        let transactions = har.transactions()
        #expect(transactions.map(\.request.url.absoluteString) == Self.expectedRows.map { DemoCommand.baseURL + $0.2 })
        #expect(transactions.map { "\($0.response?.statusCode ?? 0)" } == Self.expectedRows.map(\.3))
        #expect(transactions.first { $0.request.url.path == "/v1/me" }?.redirects.map(\.statusCode) == [301])
        #expect(interceptor.handlers.isEmpty, "the demo restores the interceptor's handlers")
        #expect(interceptor.captureLog.transactions.count == 10)
    }

    @Test("with --upstream it also sends a live GET and POST through the forwarding transport")
    func upstream() async throws {
        let base = try await HTTPBin.shared().baseURL.absoluteString
        let directory = try makeTemporaryDirectory()
        let run = await runCLI(["demo", "--upstream", base + "/anything"], workingDirectory: directory)
        #expect(run.exitCode == .success)
        let rows = run.standardOutput.components(separatedBy: "\n").filter { $0.contains(base) }
        #expect(rows.count == 2)
        #expect(rows.allSatisfy { $0.hasSuffix("  network") && $0.contains(" 200 ") })
        #expect(rows.first?.contains("GET") == true)
        #expect(rows.last?.contains("POST") == true)
        let har = try HARDocument.load(contentsOf: directory.appendingPathComponent("nettap-demo.har"))
        #expect(har.log.entries.count == 13)
        #expect(har.transactions().count == 12)
    }

    @Test("a failing upstream still prints the table and writes the HAR, then exits 1 naming the URL and code")
    func failingUpstream() async throws {
        let directory = try makeTemporaryDirectory()
        let run = await runCLI(["demo", "--upstream", "http://127.0.0.1:1/"], workingDirectory: directory)
        #expect(run.exitCode == .failure)
        #expect(
            run.standardError
                == "nettap: demo: http://127.0.0.1:1/: request failed: URLError -1004 (cannotConnectToHost)\n"
        )
        #expect(run.standardOutput.contains("ERR -1004"))
        let har = try HARDocument.load(contentsOf: directory.appendingPathComponent("nettap-demo.har"))
        #expect(har.log.entries.count == 13)
        #expect(har.transactions().count == 12)
    }
}
