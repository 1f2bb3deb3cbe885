import Foundation
import NetTapCore
import NetTapReport

/// An optional scenario (`--only report`, seconds; needs no server) that measures how fast NetTapReport renders
/// a large capture to HTML.
///
/// Renders `count` synthetic finished transactions (four hosts, a mix of statuses, a 1 KiB JSON response body
/// each, default redaction on) with ``HTMLReport/render()``, three times; reports the median time, target
/// < 2 s for 10,000 transactions, and the page size.
struct ReportBench {
    /// Transactions per render.
    let count: Int

    /// Runs the measurement and prints the table.
    func run() {
        let transactions = (0..<count).map(Self.transaction)
        var times: [Double] = []
        var size = 0
        let clock = ContinuousClock()
        for run in 1...3 {
            var html = ""
            let elapsed = clock.measure { html = HTMLReport(transactions: transactions).render() }
            let (seconds, attoseconds) = elapsed.components
            let time = Double(seconds) + Double(attoseconds) / 1e18
            times.append(time)
            size = html.utf8.count
            Log.detail("report run \(run): \(count) transactions in \(Report.format(time, decimals: 3)) s")
        }
        let median = times.sorted()[times.count / 2]
        let isMet = median < 2
        print("")
        print(
            Columns.render([
                ["figure", "target", "achieved", "result"],
                [
                    "HTML report of \(count) transactions (s, median of 3)", "< 2", Report.format(median, decimals: 3),
                    isMet ? "PASS" : "MISS",
                ],
            ])
        )
        print("")
        print("report: page of \(size / 1024) KiB for \(count) transactions")
    }

    /// A finished transaction with a 1 KiB JSON body; every fifth one is a POST with a body and a bearer token.
    private static func transaction(_ index: Int) -> CapturedTransaction {
        let url =
            URL(string: "https://api\(index % 4).example.com/items/\(index)?page=\(index % 10)")
            ?? URL(fileURLWithPath: "/")
        let padding = String(repeating: "x", count: 960)
        let body = Data(#"{"id":\#(index),"name":"item \#(index)","padding":"\#(padding)"}"#.utf8)
        let isPost = index % 5 == 0
        return CapturedTransaction(
            request: CapturedRequest(
                method: isPost ? "POST" : "GET",
                url: url,
                headers: ["Accept": "application/json", "Authorization": "Bearer token-\(index)"],
                body: isPost ? CapturedBody(data: Data(#"{"name":"new","password":"p\#(index)"}"#.utf8)) : nil
            ),
            response: CapturedResponse(
                statusCode: [200, 200, 200, 201, 304, 404, 500, 503][index % 8],
                headers: ["Content-Type": "application/json"],
                url: url,
                body: CapturedBody(data: body)
            ),
            timings: Timings(
                startDate: Date(timeIntervalSince1970: 1_750_000_000 + Double(index) / 100),
                requestSent: 0.5,
                firstByte: 3,
                end: Double(5 + index % 40)
            ),
            answeredBy: index % 10 == 0 ? "mock" : CapturedTransaction.answeredByNetwork,
            state: .completed
        )
    }
}
