import Foundation
import NetTapCore
import NetTapHAR
import NetTapReport
import Testing

/// A capture whose URL, header, body and finding carry script and markup.
enum Hostile {
    static let payload = "<script>alert(1)</script><img src=x onerror=\"document.documentElement.dataset.pwned=1\">"

    static var transaction: CapturedTransaction {
        var transaction = Samples.transaction(
            "POST",
            "https://evil.example/search?q=%3Cscript%3Ealert(1)%3C/script%3E&token=hunter2",
            status: 500,
            offset: 0,
            end: 42,
            requestHeaders: ["X-Note": payload, "Authorization": "Bearer s3cr3t-t0ken-value"],
            responseHeaders: ["Content-Type": "text/html", "X-Echo": payload],
            responseBody: Data("<html>\(payload)</script><!-- \u{2028}</html>".utf8),
            findings: [Finding(rule: "test.<b>", severity: .high, location: "body", message: payload)]
        )
        transaction.request.body = CapturedBody(data: Data(#"{"password":"pa55word","note":"</script>"}"#.utf8))
        transaction.request.headers["Content-Type"] = "application/json"
        return transaction
    }
}

@Suite("HTML report: the page as text")
struct HTMLReportTests {
    @Test("the throughput chart's time axis ends where the last bucket ends, after the last transaction")
    func throughputAxisEnd() throws {
        let transactions = [
            Samples.transaction("GET", "https://a.example/1", offset: 0, end: 100, down: 1000),
            Samples.transaction("GET", "https://a.example/2", offset: 2.5, end: 400, down: 1000),
        ]
        let html = HTMLReport(transactions: transactions).render()
        let chart = try #require(html.components(separatedBy: "id=\"throughput-chart\"").last)
        let endText = try #require(
            chart.components(separatedBy: "<tspan data-axis-end>").dropFirst().first?
                .components(separatedBy: "</tspan>").first
        )
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let end = try #require(formatter.date(from: endText))
        let lastEnd = Samples.start.addingTimeInterval(2.5 + 0.4)
        #expect(end >= lastEnd, "the axis ends at \(endText), before the last transaction ended")
        #expect(end.timeIntervalSince(lastEnd) <= 1, "one 1 s bucket at most after the last end")
    }

    @Test("one self-contained file: a CSP that forbids network loads, no external references")
    func selfContained() {
        let html = HTMLReport(transactions: Samples.many(20)).render()
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(
            html.contains(
                #"<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; "#
                    + #"style-src 'unsafe-inline'; script-src 'unsafe-inline'">"#
            )
        )
        for external in ["<link", "src=\"http", "src='http", "@import", "url(", "<iframe"] {
            #expect(!html.contains(external), "found \(external)")
        }
        #expect(html.contains("<svg class=\"chart\" id=\"throughput-chart\""))
        #expect(html.contains("id=\"waterfall-chart\""))
        #expect(html.contains("id=\"status-chart\""))
        #expect(html.contains("<section id=\"hosts\">"))
        #expect(html.contains("data-redacted=\"true\""))
    }

    @Test("capture text cannot close the data block or add markup; secrets are redacted")
    func escaping() throws {
        let html = HTMLReport(transactions: [Hostile.transaction]).render()
        // Only the report's own three script elements (statistics, data, code).
        #expect(html.components(separatedBy: "<script").count - 1 == 3)
        #expect(!html.contains("<img"))
        #expect(!html.contains("<!-- "))
        #expect(!html.contains("\u{2028}"))
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))  // the finding, escaped
        #expect(!html.contains("s3cr3t-t0ken-value"))
        #expect(!html.contains("pa55word"))
        #expect(!html.contains("hunter2"))

        // The embedded JSON still holds the exact captured text.
        let start = try #require(html.range(of: #"<script type="application/json" id="nettap-data">"#))
        let end = try #require(html.range(of: "</script>", range: start.upperBound..<html.endIndex))
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(html[start.upperBound..<end.lowerBound].utf8))
                as? [String: Any]
        )
        let details = try #require(json["details"] as? [[String: Any]])
        let headers = try #require(details.first?["requestHeaders"] as? [[String]])
        #expect(headers.contains(["X-Note", Hostile.payload]))
        #expect(headers.contains(["Authorization", "Bearer [redacted]"]))
        let body = try #require(details.first?["responseBody"] as? [String: Any])
        #expect((body["text"] as? String)?.contains("</script><!-- \u{2028}") == true)
    }

    @Test("with redaction off the page says so and shows the secrets")
    func redactionOff() {
        let html = HTMLReport(transactions: [Hostile.transaction], redactor: .disabled).render()
        #expect(html.contains("data-redacted=\"false\""))
        #expect(html.contains("redaction off"))
        #expect(html.contains("s3cr3t-t0ken-value"))
    }

    @Test("script-safe JSON keeps the value and removes <, >, & and line separators")
    func scriptSafe() throws {
        let text = "{\"a\":\"</script><!--&\u{2028}\u{2029}é\"}"
        let safe = HTMLText.scriptSafe(text)
        #expect(safe == #"{"a":"\u003c/script\u003e\u003c!--\u0026\u2028\u2029é"}"#)
        let decoded = try JSONSerialization.jsonObject(with: Data(safe.utf8)) as? [String: String]
        #expect(decoded?["a"] == "</script><!--&\u{2028}\u{2029}é")
    }

    @Test("the fixture HARs of real tools render")
    func fixtures() throws {
        #expect(HARFixtures.available.contains("chrome.har"))
        for name in HARFixtures.available {
            let document = try HARDocument.load(contentsOf: HARFixtures.folder.appendingPathComponent(name))
            let transactions = document.transactions()
            let html = HTMLReport(transactions: transactions, title: name).render()
            #expect(html.contains("<title>\(name)</title>"))
            #expect(html.contains("\"total\":\(transactions.count)"), "\(name)")
        }
    }
}
