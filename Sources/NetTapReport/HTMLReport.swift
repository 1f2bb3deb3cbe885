import Foundation
import NetTapCore

/// A self-contained HTML page about captured transactions: summary numbers, a bytes-per-second chart, a
/// waterfall, per-host and status tables, findings, and a sortable, filterable table with a detail pane.
///
/// The page is one file that loads nothing: CSS and JavaScript are inline, the charts are inline SVG drawn
/// here, images are `data:` URLs, and a Content-Security-Policy (`default-src 'none'; img-src data:; style-src
/// 'unsafe-inline'; script-src 'unsafe-inline'`) forbids any network load. The transactions travel as JSON in a
/// `<script type="application/json">` block whose `<`, `>` and `&` are written as `\u003c`, `\u003e` and
/// `\u0026`, so no captured text can close the block; the script puts capture text on the page only through
/// `textContent`, and the parts drawn here escape it (``HTMLText``).
///
/// ```
/// ┌ summary ─────────────┐ ┌ bytes/s chart ┐ ┌ waterfall ┐ ┌ hosts ┐ ┌ statuses ┐ ┌ findings ┐
/// ┌ filters: text · host · status · method · source ──── #q=…&host=…&status=5xx&id=<uuid> ┐
/// │ virtualized table (only the visible rows exist)      │ detail: headers, bodies, cURL │
/// ```
///
/// Every transaction is redacted with ``redactor`` before anything is shown (`Redactor.default` unless told
/// otherwise); the page says whether redaction was on. The statistics (``FlowStatistics``) are computed from the
/// transactions as given: sizes and times reveal no secrets.
///
/// The table's filter lives in the URL fragment, so a link reproduces the view: `q` (text in the method, status,
/// URL, source or error), `host`, `status` (`2xx`, `5xx`, `failed` or a code such as `404`), `method`, `source`
/// (`answeredBy`), `sort` (`start`, `method`, `status`, `host`, `url`, `source`, `duration`, `size`,
/// `findings`), `dir` (`asc` or `desc`) and `id` (the transaction shown in the detail pane). Once its script has
/// run, the page's root element has `data-ready="true"` and `data-errors` with the number of script errors.
///
/// ```swift
/// let report = HTMLReport(transactions: try HARDocument.load(contentsOf: harURL).transactions(),
///                         title: "checkout.har")
/// try report.write(to: URL(fileURLWithPath: "report.html"))
/// ```
public struct HTMLReport: Sendable {
    /// The transactions, in any order (the page lists them by start time).
    public var transactions: [Transaction]
    /// The page title, shown in the heading and the browser tab.
    public var title: String
    /// What replaces secrets before anything is shown; `Redactor.disabled` shows everything as captured.
    public var redactor: Redactor
    /// The bucket of the bytes-per-second chart; 1 second by default.
    ///
    /// A capture longer than ``maximumChartPoints`` buckets is drawn with wider buckets (a whole multiple).
    public var bucketDuration: Duration
    /// How many transactions the waterfall draws (the earliest ones); 200 by default.
    public var waterfallLimit: Int
    /// How many bytes of each text body the page embeds; 256 KiB by default.
    ///
    /// Binary bodies embed at most 4 KiB (for the hex dump) and images at most 1 MiB.
    public var bodyByteLimit: Int
    /// The time written as the report's creation time; now by default.
    public var generatedAt: Date

    /// The most points the bytes-per-second chart draws.
    public static let maximumChartPoints = 1_000

    /// Creates a report.
    ///
    /// - Parameters:
    ///   - transactions: The transactions.
    ///   - title: The page title; `NetTap report` by default.
    ///   - redactor: The redactor applied to every transaction; `Redactor.default` by default.
    ///   - bucketDuration: The chart's bucket; 1 second by default.
    ///   - waterfallLimit: How many transactions the waterfall draws; 200 by default.
    ///   - bodyByteLimit: Bytes of each text body embedded; 256 KiB by default.
    ///   - generatedAt: The creation time written in the page; now by default.
    public init(
        transactions: [Transaction],
        title: String = "NetTap report",
        redactor: Redactor = .default,
        bucketDuration: Duration = .seconds(1),
        waterfallLimit: Int = 200,
        bodyByteLimit: Int = 256 * 1024,
        generatedAt: Date = Date()
    ) {
        self.transactions = transactions
        self.title = title
        self.redactor = redactor
        self.bucketDuration = bucketDuration
        self.waterfallLimit = waterfallLimit
        self.bodyByteLimit = bodyByteLimit
        self.generatedAt = generatedAt
    }

    /// Whether ``redactor`` replaces anything (`Redactor.isEnabled`: it has a rule or redacts tokens).
    public var isRedacting: Bool { redactor.isEnabled }

    /// Renders the page.
    ///
    /// - Returns: One HTML5 document, UTF-8 text, that loads nothing from the network.
    /// - Complexity: O(n log n) in the number of transactions plus the size of their bodies.
    public func render() -> String {
        let ordered = transactions.enumerated()
            .sorted { ($0.element.timings.startDate, $0.offset) < ($1.element.timings.startDate, $1.offset) }
            .map(\.element)
        let statistics = FlowStatistics(transactions: ordered, bucketDuration: bucketDuration)
        let chartStatistics = Self.chartStatistics(ordered, statistics: statistics)
        let redacted = isRedacting ? Self.redact(ordered, with: redactor) : ordered
        let payload = ReportPayload(
            transactions: redacted,
            title: title,
            isRedacted: isRedacting,
            generatedAt: generatedAt,
            bodyByteLimit: bodyByteLimit
        )
        var page = ""
        page.reserveCapacity(4096 + transactions.count * 1024)
        page += Self.head(title: title)
        page += "<body>\n<header><h1>\(HTMLText.escape(title))</h1>\n<p class=\"muted\" id=\"meta\">"
        page += HTMLText.escape(
            "Generated \(ISO8601DateFormatter().string(from: generatedAt)) by NetTap · \(transactions.count) "
                + "transactions · "
        )
        page +=
            isRedacting
            ? "<span id=\"redaction\" data-redacted=\"true\" class=\"badge ok\">redaction on</span>"
            : "<span id=\"redaction\" data-redacted=\"false\" class=\"badge bad\">redaction off: secrets are "
                + "shown as captured</span>"
        page += "</p></header>\n<main>\n"
        page += ReportSections.summary(statistics, findingCount: ordered.reduce(0) { $0 + $1.findings.count })
        page += ReportSections.section(
            id: "throughput",
            title: "Bytes per second",
            body: ReportCharts.throughput(chartStatistics)
        )
        page += ReportSections.section(
            id: "waterfall",
            title: "Waterfall",
            body: ReportCharts.waterfall(redacted, limit: waterfallLimit)
        )
        page += ReportSections.hosts(statistics)
        page += ReportSections.section(
            id: "statuses",
            title: "Status codes",
            body: ReportCharts.statusHistogram(ordered)
        )
        page += ReportSections.findings(redacted)
        page += ReportSections.transactionTable
        page += "</main>\n<div id=\"errors\" role=\"alert\" hidden></div>\n"
        page += "<script type=\"application/json\" id=\"nettap-data\">"
        page += payload.scriptSafeJSON()
        page += "</script>\n<script>\n" + ReportAssets.script + "\n</script>\n</body>\n</html>\n"
        return page
    }

    /// Renders the page and writes it to a file, replacing any file there.
    ///
    /// - Parameter url: The file to write, for example `report.html`.
    /// - Throws: The file system's error when the file cannot be written.
    public func write(to url: URL) throws {
        try Data(render().utf8).write(to: url, options: .atomic)
    }

    /// The content security policy of the page: nothing from the network, inline styles and scripts only.
    public static let contentSecurityPolicy =
        "default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'"

    /// Redacts every transaction, on all cores (redaction is the largest part of the rendering time).
    private static func redact(_ transactions: [Transaction], with redactor: Redactor) -> [Transaction] {
        let chunkSize = 256
        let chunkCount = (transactions.count + chunkSize - 1) / chunkSize
        let results = ChunkResults(count: chunkCount)
        DispatchQueue.concurrentPerform(iterations: chunkCount) { chunk in
            let range = chunk * chunkSize..<min(transactions.count, (chunk + 1) * chunkSize)
            results.set(chunk, transactions[range].map { redactor.redact(transaction: $0).value })
        }
        return results.joined()
    }

    private static func head(title: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en" data-ready="false">
        <head>
        <meta charset="utf-8">
        <meta http-equiv="Content-Security-Policy" content="\(contentSecurityPolicy)">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="generator" content="NetTap">
        <title>\(HTMLText.escape(title))</title>
        <style>
        \(ReportAssets.style)
        </style>
        </head>

        """
    }

    /// The statistics the chart draws: the report's bucket, widened to a whole multiple when the capture would
    /// need more than ``maximumChartPoints`` points.
    private static func chartStatistics(_ ordered: [Transaction], statistics: FlowStatistics) -> FlowStatistics {
        guard statistics.series.count > maximumChartPoints else { return statistics }
        let factor = (Double(statistics.series.count) / Double(maximumChartPoints)).rounded(.up)
        let milliseconds = Int64((statistics.bucketSeconds * factor * 1000).rounded(.up))
        return FlowStatistics(transactions: ordered, bucketDuration: .milliseconds(milliseconds))
    }
}

/// Per-chunk results written from concurrent iterations, each to its own slot.
private final class ChunkResults: @unchecked Sendable {
    // Each slot is written by exactly one iteration of `concurrentPerform`, and read only after it returned;
    // the lock makes the writes visible without relying on that ordering.
    private var slots: [[Transaction]]
    private let lock = NSLock()

    init(count: Int) { slots = Array(repeating: [], count: count) }

    func set(_ index: Int, _ value: [Transaction]) {
        lock.lock()
        slots[index] = value
        lock.unlock()
    }

    func joined() -> [Transaction] {
        lock.lock()
        defer { lock.unlock() }
        return slots.flatMap { $0 }
    }
}
