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
/// `textContent`, and the parts drawn here escape it (`HTMLText`).
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
/// The figures of the summary and host table are also in a `<script type="application/json"
/// id="nettap-statistics">` block, `{"total":…,"hosts":[…]}`, the same objects `nettap report --json` and
/// `nettap stats --json` print (``FlowStatistics/Totals``), so a script can read them from the page.
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
    public var transactions: [CapturedTransaction]
    /// The page title, shown in the heading and the browser tab.
    public var title: String
    /// What replaces secrets before anything is shown; `Redactor.disabled` shows everything as captured.
    public var redactor: Redactor
    /// The bucket of the bytes-per-second chart; 1 second by default.
    ///
    /// A capture longer than ``maximumChartPoints`` buckets is drawn with wider buckets (a whole multiple); one
    /// shorter than ``minimumChartPoints`` buckets with narrower ones (1, 2 or 5 × 10ⁿ ms, at least 1 ms), so a
    /// capture of a second still draws a line. The chart's legend names the bucket drawn.
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
    /// The fewest points the bytes-per-second chart draws for a capture that lasts long enough (at least
    /// `minimumChartPoints` milliseconds).
    public static let minimumChartPoints = 40

    /// How far rendering has come, as ``render(progress:)`` reports it.
    public struct Progress: Sendable, Hashable {
        /// A step of rendering.
        public enum Step: String, Sendable, Hashable {
            /// Sorting the transactions and computing the statistics.
            case statistics
            /// Redacting the transactions (the largest step with redaction on).
            case redacting
            /// Encoding the transactions and their details as the page's JSON.
            case encoding
            /// Drawing the charts and tables and joining the page.
            case assembling
        }

        /// The fraction of the whole rendering done, from 0 to 1; it never decreases.
        public var fraction: Double
        /// The step being done.
        public var step: Step
    }

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
        transactions: [CapturedTransaction],
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
        render(progress: { _ in })
    }

    /// Renders the page, reporting its progress as it goes, for a progress bar.
    ///
    /// `progress` is called at the start and end of each ``Progress/Step`` and after every chunk of a few hundred
    /// transactions redacted or encoded, with fractions weighted by the time each step takes, ending with 1.
    /// It may be called from any thread (redaction runs on all cores), but never concurrently, and its
    /// fractions never decrease; it should return quickly.
    ///
    /// ```swift
    /// let html = report.render { progress in
    ///     bar.update(progress.fraction, step: progress.step.rawValue)
    /// }
    /// ```
    ///
    /// - Parameter progress: Called with the progress.
    /// - Returns: One HTML5 document, UTF-8 text, that loads nothing from the network.
    /// - Complexity: O(n log n) in the number of transactions plus the size of their bodies.
    public func render(progress: @escaping @Sendable (Progress) -> Void) -> String {
        let reporter = ProgressReporter(progress, isRedacting: isRedacting)
        reporter.report(.statistics, 0)
        let ordered = transactions.enumerated()
            .sorted { ($0.element.timings.startDate, $0.offset) < ($1.element.timings.startDate, $1.offset) }
            .map(\.element)
        let extent = FlowStatistics.extent(of: ordered)
        let statistics = FlowStatistics(
            transactions: ordered,
            bucketDuration: Self.chartBucket(for: extent, requested: bucketDuration)
        )
        reporter.report(.statistics, 1)
        let redacted =
            isRedacting
            ? Self.redact(ordered, with: redactor) { reporter.report(.redacting, $0) } : ordered
        let payload = ReportPayload(
            transactions: redacted,
            title: title,
            isRedacted: isRedacting,
            generatedAt: generatedAt,
            bodyByteLimit: bodyByteLimit
        )
        let json = payload.scriptSafeJSON { reporter.report(.encoding, $0) }
        reporter.report(.assembling, 0)
        var page = ""
        page.reserveCapacity(json.utf8.count + 65_536 + min(transactions.count, waterfallLimit) * 512)
        appendHeader(to: &page)
        appendSections(to: &page, statistics: statistics, ordered: ordered, redacted: redacted)
        appendScripts(to: &page, statistics: statistics, json: json)
        reporter.report(.assembling, 1)
        return page
    }

    /// Appends the document head and the page header: title, generation time, count and the redaction badge.
    private func appendHeader(to page: inout String) {
        page += Self.head(title: title)
        page += "<body>\n<header><h1>\(HTMLText.escape(title))</h1>\n<p class=\"muted\" id=\"meta\">"
        page += HTMLText.escape(
            "Generated \(ISO8601DateFormatter().string(from: generatedAt)) by NetTap · "
                + "\(ReportFormat.counted(transactions.count, "transaction")) · "
        )
        page +=
            isRedacting
            ? "<span id=\"redaction\" data-redacted=\"true\" class=\"badge ok\">redaction on</span>"
            : "<span id=\"redaction\" data-redacted=\"false\" class=\"badge bad\">redaction off: secrets are "
                + "shown as captured</span>"
        page += "</p></header>\n<main>\n"
    }

    /// Appends the page's sections, in order: summary, throughput, waterfall, hosts, status codes, findings and
    /// the transaction table.
    private func appendSections(
        to page: inout String,
        statistics: FlowStatistics,
        ordered: [CapturedTransaction],
        redacted: [CapturedTransaction]
    ) {
        page += ReportSections.summary(statistics, findingCount: ordered.reduce(0) { $0 + $1.findings.count })
        page += ReportSections.section(
            id: "throughput",
            title: "Bytes per second",
            body: ReportCharts.throughput(statistics)
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
    }

    /// Appends the end of the page: the error box, the statistics and transactions as JSON, and the script.
    private func appendScripts(to page: inout String, statistics: FlowStatistics, json: String) {
        page += "</main>\n<div id=\"errors\" role=\"alert\" hidden></div>\n"
        page += "<script type=\"application/json\" id=\"nettap-statistics\">"
        page += ReportSections.statisticsJSON(statistics)
        page += "</script>\n<script type=\"application/json\" id=\"nettap-data\">"
        page += json
        page += "</script>\n<script>\n" + ReportAssets.script + "\n</script>\n</body>\n</html>\n"
    }

    /// The bucket the chart draws: `requested`, widened to a whole multiple when the capture would need more
    /// than ``maximumChartPoints`` buckets, or narrowed to 1, 2 or 5 × 10ⁿ ms (at least 1 ms) when it would
    /// have fewer than ``minimumChartPoints``.
    ///
    /// - Parameters:
    ///   - extent: The capture's time range, from the earliest start to the latest end; `nil` for none.
    ///   - requested: The bucket asked for (``bucketDuration``).
    /// - Returns: The bucket to draw.
    public static func chartBucket(for extent: DateInterval?, requested: Duration) -> Duration {
        let (seconds, attoseconds) = requested.components
        let requestedMilliseconds = max(1, (Double(seconds) * 1000 + Double(attoseconds) / 1e15).rounded())
        guard let extent, extent.duration > 0 else { return requested }
        let span = extent.duration * 1000
        let points = span / requestedMilliseconds
        if points > Double(maximumChartPoints) {
            let factor = (points / Double(maximumChartPoints)).rounded(.up)
            return .milliseconds(Int64((requestedMilliseconds * factor).rounded(.up)))
        }
        guard points < Double(minimumChartPoints) else { return requested }
        var candidate = 1.0
        var best = 1.0
        while candidate < requestedMilliseconds {
            for factor in [1.0, 2, 5] where candidate * factor < requestedMilliseconds {
                if span / (candidate * factor) >= Double(minimumChartPoints) { best = candidate * factor }
            }
            candidate *= 10
        }
        return .milliseconds(Int64(best))
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

    /// Redacts every transaction as one document (`Redactor.redact(transactions:)`: a value redacted in one is
    /// redacted wherever it appears in the others), on all cores (redaction is the largest part of the rendering
    /// time), calling `progress` with the fraction done after each chunk of the first pass.
    private static func redact(
        _ transactions: [CapturedTransaction],
        with redactor: Redactor,
        progress: @escaping @Sendable (Double) -> Void
    ) -> [CapturedTransaction] {
        guard redactor.isEnabled else {
            progress(1)
            return transactions
        }
        let chunkSize = 256
        let chunkCount = (transactions.count + chunkSize - 1) / chunkSize
        let count = transactions.count
        @Sendable func range(of chunk: Int) -> Range<Int> { chunk * chunkSize..<min(count, (chunk + 1) * chunkSize) }
        let passes = ChunkResults<[Redactor.TransactionRedaction]>(count: chunkCount)
        DispatchQueue.concurrentPerform(iterations: chunkCount) { chunk in
            let done = passes.set(chunk, transactions[range(of: chunk)].map(redactor.redactionPass(of:)))
            progress(Double(done) / Double(chunkCount))
        }
        let firstPasses = passes.values()
        let documentSecrets = Redactor.DocumentSecrets(
            firstPasses.reduce(into: Set<String>()) { all, chunk in
                for pass in chunk { all.formUnion(pass.secrets) }
            }
        )
        let results = ChunkResults<[CapturedTransaction]>(count: chunkCount)
        DispatchQueue.concurrentPerform(iterations: chunkCount) { chunk in
            let completed = zip(transactions[range(of: chunk)], firstPasses[chunk]).map { transaction, pass in
                redactor.completing(pass, of: transaction, sweeping: documentSecrets).value
            }
            _ = results.set(chunk, completed)
        }
        return results.values().flatMap { $0 }
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

}

/// Turns the progress of each step into the fraction of the whole rendering, serialized and never decreasing.
private final class ProgressReporter: @unchecked Sendable {
    // `last` is only read and written under `lock`, which also serializes the calls of `callback`.
    private let callback: @Sendable (HTMLReport.Progress) -> Void
    private let lock = NSLock()
    private var last = -1.0
    private var lastStep: HTMLReport.Progress.Step?
    private let weights: [(HTMLReport.Progress.Step, Double)]

    init(_ callback: @escaping @Sendable (HTMLReport.Progress) -> Void, isRedacting: Bool) {
        self.callback = callback
        // Shares of the time in a release build (10,000 transactions with 1 KiB bodies).
        weights = [(.statistics, 0.05), (.redacting, isRedacting ? 0.45 : 0), (.encoding, 0.4), (.assembling, 0.1)]
    }

    /// Reports `fraction` (0 to 1) of `step` done.
    func report(_ step: HTMLReport.Progress.Step, _ fraction: Double) {
        let total = weights.reduce(0) { $0 + $1.1 }
        var before = 0.0
        var share = 0.0
        for (candidate, weight) in weights {
            if candidate == step {
                share = weight
                break
            }
            before += weight
        }
        let overall = min(1, (before + share * min(1, max(0, fraction))) / total)
        lock.lock()
        defer { lock.unlock() }
        guard overall > last || step != lastStep else { return }
        last = max(last, overall)
        lastStep = step
        callback(HTMLReport.Progress(fraction: last, step: step))
    }
}
