import Foundation
import NetTapCLI
import NetTapCore
import NetTapHAR
import NetTapReport
import Testing

/// A NetTap export: a 5,000,000-byte download kept in part, a request redirected once, and a 404.
enum NetTapExport {
    static let truncatedByteCount: Int64 = 5_000_000

    static func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:8080" + path) ?? URL(fileURLWithPath: "/")
    }

    static var transactions: [CapturedTransaction] {
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let timings = Timings(startDate: start, requestSent: 1, firstByte: 10, end: 20)
        return [
            CapturedTransaction(
                request: CapturedRequest(method: "GET", url: url("/big.txt"), headers: [:]),
                response: CapturedResponse(
                    statusCode: 200,
                    headers: ["Content-Type": "text/plain"],
                    url: url("/big.txt"),
                    body: CapturedBody(
                        data: Data(repeating: UInt8(ascii: "a"), count: 1_048_576),
                        totalByteCount: truncatedByteCount
                    )
                ),
                timings: timings,
                state: .completed
            ),
            CapturedTransaction(
                request: CapturedRequest(method: "GET", url: url("/old"), headers: [:]),
                response: CapturedResponse(
                    statusCode: 200,
                    headers: ["Content-Type": "text/plain"],
                    url: url("/new"),
                    body: CapturedBody(data: Data("ok".utf8))
                ),
                redirects: [
                    RedirectHop(
                        method: "GET",
                        url: url("/old"),
                        statusCode: 302,
                        headers: ["Location": "/new"],
                        elapsedMilliseconds: 5
                    )
                ],
                timings: timings,
                state: .completed
            ),
            CapturedTransaction(
                request: CapturedRequest(method: "GET", url: url("/missing"), headers: [:]),
                response: CapturedResponse(
                    statusCode: 404,
                    headers: ["Content-Type": "text/plain"],
                    url: url("/missing"),
                    body: CapturedBody(data: Data("nope".utf8))
                ),
                timings: timings,
                state: .completed
            ),
        ]
    }

    /// The export as written to and read back from a file.
    static func document() throws -> HARDocument {
        try HARDocument.decode(try HARDocument(transactions: transactions).encoded(), source: "nettap.har")
    }
}

@Suite("HAR summary statistics")
struct HARSummaryTests {
    func summary(of fixture: String) throws -> HARSummary {
        HARSummary(entries: try HARDocument.load(contentsOf: try fixtureURL(fixture)).log.entries)
    }

    @Test("nearest-rank percentiles pick the value at rank ceil(p/100 * n)")
    func percentiles() {
        let values = (1...20).map(Double.init)
        #expect(FlowStatistics.nearestRankPercentile(95, of: values) == 19)
        #expect(FlowStatistics.nearestRankPercentile(50, of: values) == 10)
        #expect(FlowStatistics.nearestRankPercentile(50, of: [1, 2, 3, 4]) == 2)
        #expect(FlowStatistics.nearestRankPercentile(95, of: [1, 2, 3, 4]) == 4)
        #expect(FlowStatistics.nearestRankPercentile(0, of: [7, 9]) == 7)
        #expect(FlowStatistics.nearestRankPercentile(100, of: [7, 9]) == 9)
        #expect(FlowStatistics.nearestRankPercentile(50, of: []) == nil)
    }

    @Test("Chrome export: two hosts, a status-0 failure, a 304, exact byte counts and percentiles")
    func chrome() throws {
        let summary = try summary(of: "chrome.har")
        #expect(summary.entryCount == 3)
        #expect(summary.hosts.map(\.host) == ["www.google.com", "mitmproxy.org"])

        let google = try #require(summary.hosts.first)
        #expect(google.requests == 2)
        #expect(google.bytesIn == 7108)
        #expect(google.bytesOut == 0)
        #expect(google.failed == 1)
        #expect(google.httpErrors == 0)
        #expect(google.p50Milliseconds == 4.119000000173401)
        #expect(google.p95Milliseconds == 58.204999993904494)

        let mitmproxy = summary.hosts[1]
        #expect(mitmproxy.requests == 1)
        #expect(mitmproxy.bytesIn == 23866)
        #expect(mitmproxy.p50Milliseconds == 14.666000031866133)

        #expect(summary.total.host == "(all)")
        #expect(summary.total.requests == 3)
        #expect(summary.total.bytesIn == 30974)
        #expect(summary.total.failed == 1)
        #expect(summary.total.p50Milliseconds == 14.666000031866133)
        #expect(summary.total.p95Milliseconds == 58.204999993904494)

        #expect(summary.statusCounts.map { [$0.status, $0.count] } == [[0, 1], [200, 1], [304, 1]])
        #expect(summary.slowest.map(\.index) == [2, 0, 1])
        #expect(summary.slowest.first?.status == 200)
        #expect(summary.slowest.first?.url.hasPrefix("https://www.google.com/images/branding/") == true)
    }

    @Test("HAR's -1 (unknown) sizes count as 0, and bodySize falls back to postData text")
    func unknownSizes() throws {
        let insomnia = try summary(of: "insomnia.har")
        #expect(insomnia.total.bytesIn == 250)
        #expect(insomnia.total.bytesOut == 0)
        #expect(insomnia.total.p50Milliseconds == 70.402)
        #expect(insomnia.hosts.map(\.host) == ["mitm.it"])

        let post = try summary(of: "postdata.har")
        #expect(post.total.bytesOut == 1310)
        #expect(post.total.bytesIn == 0)
        #expect(post.slowest.map(\.method) == ["POST"])

        let charles = try summary(of: "charles.har")
        #expect(charles.total.bytesIn == 23866)
        #expect(charles.total.p95Milliseconds == 107)
    }

    @Test("the slowest list honours its limit and HTTP errors are counted apart from failures")
    func limitsAndErrors() throws {
        let entries = try HARDocument.load(contentsOf: try fixtureURL("chrome.har")).log.entries
        #expect(HARSummary(entries: entries, slowestLimit: 1).slowest.map(\.index) == [2])
        #expect(HARSummary(entries: entries, slowestLimit: 0).slowest.isEmpty)

        let demo = HARSummary(entries: try DemoCommand.loadBundledCapture().log.entries)
        #expect(demo.total.requests == 10)
        #expect(demo.total.httpErrors == 2)
        #expect(demo.total.failed == 0)
        #expect(demo.hosts.map(\.host) == ["api.nettap.example"])
    }
}

@Suite("HAR summary of NetTap's own exports")
struct NetTapExportSummaryTests {
    @Test("a truncated 5,000,000-byte download counts in full: bodySize wins over the kept content.size")
    func truncatedDownload() throws {
        let document = try NetTapExport.document()
        let big = document.log.entries[0]
        #expect(big.response.content.size == 1_048_576)
        #expect(big.response.bodySize == 5_000_000)
        #expect(big.transaction().response?.body?.totalByteCount == 5_000_000)

        let summary = HARSummary(entries: document.log.entries)
        #expect(summary.total.bytesIn == 5_000_000 + 2 + 4)
    }

    @Test("redirect hop entries count with their transaction, apart, as nettap stats and the HTML report count")
    func redirectHops() throws {
        let document = try NetTapExport.document()
        let entries = document.log.entries
        #expect(entries.map(\.response.status) == [200, 302, 200, 404])
        #expect(entries[1].isRedirectHop)
        let summary = HARSummary(entries: entries)
        #expect(summary.entryCount == 4)
        #expect(summary.transactionCount == 3)
        #expect(summary.transactionCount == document.transactions().count)
        #expect(summary.redirectHopCount == 1)
        #expect(summary.total.requests == 3)
        #expect(summary.total.httpErrors == 1)
        #expect(summary.total.failed == 0)
        #expect(summary.statusCounts.map { [$0.status, $0.count] } == [[200, 2], [404, 1]])
        #expect(summary.redirectHopStatusCounts.map { [$0.status, $0.count] } == [[302, 1]])
        // The redirected transaction's time includes its hop's.
        #expect(summary.slowest.first { $0.index == 2 }?.milliseconds == entries[1].time + entries[2].time)
    }

    @Test("the summary, nettap stats and the HTML report count the same transactions per host and status")
    func agreesWithFlowStatistics() throws {
        let document = try NetTapExport.document()
        let summary = HARSummary(entries: document.log.entries)
        let transactions = document.transactions()
        let statistics = FlowStatistics(transactions: transactions)
        #expect(summary.total.requests == statistics.total.requests)
        #expect(summary.hosts.map { [$0.host: $0.requests] } == statistics.hosts.map { [$0.host: $0.requests] })
        var statuses: [Int: Int] = [:]
        for transaction in transactions { statuses[transaction.response?.statusCode ?? 0, default: 0] += 1 }
        #expect(
            summary.statusCounts.map { [$0.status: $0.count] }
                == statuses.sorted { $0.key < $1.key }.map { [$0.key: $0.value] }
        )
        let html = HTMLReport(transactions: transactions).render()
        #expect(html.contains("1 redirect hop (302 ×1)"))
        #expect(html.contains(#"data-redirect-hops="1""#))
        #expect(html.contains("\"total\":3"))
    }

    @Test("received sizes: the larger known size without compression, content.size with it, -1 counts as 0")
    func receivedSizes() throws {
        var response = try NetTapExport.document().log.entries[3].response
        response.headers = []
        response.content.text = nil
        response.content.size = -1
        response.bodySize = 120
        #expect(response.receivedBodySize == 120, "unknown content.size: the bytes transferred")
        response.content.size = 300
        #expect(response.receivedBodySize == 300, "not compressed: the larger")
        response.bodySize = 900
        #expect(response.receivedBodySize == 900, "not compressed: the larger (a text cut by its exporter)")
        response.headers = [HARHeader(name: "content-encoding", value: "gzip")]
        #expect(response.receivedBodySize == 300, "compressed: the decoded content.size, not the transfer size")
        response.headers = [HARHeader(name: "Content-Encoding", value: "identity")]
        #expect(response.receivedBodySize == 900, "identity is no compression")
        response.content.text = String(repeating: "x", count: 1_000)
        #expect(response.receivedBodySize == 1_000, "a text longer than both")
        response.content.text = nil
        response.content.size = -1
        response.bodySize = -1
        #expect(response.receivedBodySize == 0)

        var request = try NetTapExport.document().log.entries[3].request
        request.postData = HARPostData(mimeType: "text/plain", text: "abcdef")
        request.bodySize = 0
        #expect(request.sentBodySize == 6, "bodySize 0 beside the text")
        request.bodySize = 40
        #expect(request.sentBodySize == 40)
        request.postData = nil
        request.bodySize = -1
        #expect(request.sentBodySize == 0)
    }
}

@Suite("nettap report")
struct ReportCommandTests {
    @Test("prints the per-host table, the status histogram and the slowest entries")
    func text() async throws {
        let url = try fixtureURL("chrome.har")
        let run = await runCLI(["report", url.path])
        #expect(run.exitCode == .success)
        #expect(run.standardError.isEmpty)
        let lines = run.standardOutput.components(separatedBy: "\n")
        #expect(lines.first == "\(url.path): 3 transactions, 2 hosts")
        #expect(lines.contains("HOST            REQUESTS  BYTES IN  BYTES OUT  FAILED  HTTP ERRORS  P50 MS  P95 MS"))
        #expect(lines.contains("www.google.com         2      7108          0       1            0     4.1    58.2"))
        #expect(lines.contains("mitmproxy.org          1     23866          0       0            0    14.7    14.7"))
        #expect(lines.contains("(all)                  3     30974          0       1            0    14.7    58.2"))
        #expect(lines.contains("   304      1"))
        #expect(lines.contains("Slowest 3:"))
    }

    @Test("the slowest list names each transaction's HTTP version; the totals stay as they were")
    func httpVersion() async throws {
        let url = try fixtureURL("chrome.har")
        let summary = HARSummary(entries: try HARDocument.load(contentsOf: url).log.entries)
        #expect(summary.slowest.map(\.httpVersion) == ["HTTP/3", "HTTP/2", nil])
        let run = await runCLI(["report", url.path])
        let lines = run.standardOutput.components(separatedBy: "\n")
        let slowest = try #require(lines.firstIndex(of: "Slowest 3:"))
        #expect(lines[slowest + 1].hasPrefix("  MS  STATUS  HTTP    METHOD  URL"))
        #expect(lines[slowest + 2].contains("   200  HTTP/3  GET     https://www.google.com/images/"))
        #expect(lines[slowest + 3].contains("   304  HTTP/2  GET     https://mitmproxy.org/"))
        #expect(lines[slowest + 4].contains("     0  -       GET     https://www.google.com/"))
        #expect(lines.contains("(all)                  3     30974          0       1            0    14.7    58.2"))
    }

    @Test("reports a NetTap export's truncated download in full and its redirect hop as no error")
    func netTapExport() async throws {
        let directory = try makeTemporaryDirectory()
        try NetTapExport.document().write(to: directory.appendingPathComponent("nettap.har"))
        let run = await runCLI(["report", "nettap.har", "--json"], workingDirectory: directory)
        #expect(run.exitCode == .success)
        let summary = try JSONDecoder().decode(HARSummary.self, from: run.standardOutputData)
        #expect(summary.total.bytesIn == 5_000_006)
        #expect(summary.total.httpErrors == 1)
        #expect(summary.total.requests == 3)
        #expect(summary.redirectHopCount == 1)

        let text = await runCLI(["report", "nettap.har"], workingDirectory: directory)
        let lines = text.standardOutput.components(separatedBy: "\n")
        #expect(
            lines.first
                == "nettap.har: 3 transactions (and 1 redirect hop, counted with its transaction: 4 HAR entries), "
                + "1 host"
        )
        let total = lines.first { $0.hasPrefix("(all)") }
        #expect(total?.split(separator: " ").map(String.init).prefix(6) == ["(all)", "3", "5000006", "0", "0", "1"])
        #expect(!lines.contains("   302      1"))
        #expect(
            lines.contains(
                "Redirect hops (not in the table: each transaction counts once, with its final status): 302 ×1"
            )
        )
    }

    @Test("--json prints the same summary as JSON")
    func json() async throws {
        let url = try fixtureURL("chrome.har")
        let run = await runCLI(["report", url.path, "--json"])
        #expect(run.exitCode == .success)
        let decoded = try JSONDecoder().decode(HARSummary.self, from: run.standardOutputData)
        let direct = HARSummary(entries: try HARDocument.load(contentsOf: url).log.entries)
        #expect(decoded == direct)
        #expect(run.standardOutput.contains("\"bytesIn\" : 30974"))
    }

    @Test("reads a file with a byte-order mark, relative to the working directory")
    func byteOrderMark() async throws {
        let url = try fixtureURL("with-bom.har")
        let run = await runCLI(["report", url.lastPathComponent], workingDirectory: url.deletingLastPathComponent())
        #expect(run.exitCode == .success)
        #expect(run.standardOutput.hasPrefix("with-bom.har: 1 transaction, 1 host\n"))
    }

    @Test("an invalid HAR exits 1 with one line naming the file")
    func broken() async throws {
        let path = try fixtureURL("broken.har").path
        let run = await runCLI(["report", path])
        #expect(run.exitCode == .failure)
        #expect(run.standardError.hasPrefix("nettap: report: \(path): 5:1: invalid JSON"))
        #expect(run.standardError.filter { $0 == "\n" }.count == 1)
        #expect(run.standardOutput.isEmpty)
    }

    @Test("a JSON file that is not a HAR exits 1 naming the file as typed and the JSON path")
    func notHAR() async throws {
        let directory = try makeTemporaryDirectory()
        try Data(#"{"entries": []}"#.utf8).write(to: directory.appendingPathComponent("plain.json"))
        let run = await runCLI(["report", "plain.json"], workingDirectory: directory)
        #expect(run.exitCode == .failure)
        #expect(run.standardError.hasPrefix("nettap: report: plain.json: $"))
        #expect(run.standardError.contains("log"))
        #expect(run.standardError.filter { $0 == "\n" }.count == 1)
    }

    @Test("a missing file exits 1 naming it")
    func missing() async throws {
        let run = await runCLI(["report", "nowhere.har"], workingDirectory: try makeTemporaryDirectory())
        #expect(run.exitCode == .failure)
        #expect(run.standardError == "nettap: report: nowhere.har: no such file\n")
    }
}
