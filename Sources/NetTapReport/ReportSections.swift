import Foundation
import NetTapCore

/// The parts of an ``HTMLReport`` drawn as HTML in Swift: summary, host table, findings, and the skeleton of
/// the transaction table that the page's script fills.
enum ReportSections {
    static func section(id: String, title: String, body: String) -> String {
        "<section id=\"\(id)\"><h2>\(HTMLText.escape(title))</h2>\n\(body)</section>\n"
    }

    static func summary(_ statistics: FlowStatistics, findingCount: Int) -> String {
        let total = statistics.total
        var cards: [(String, String, String)] = [
            ("requests", "Transactions", "\(total.requests)"),
            ("hosts", "Hosts", "\(statistics.hosts.count)"),
            ("bytes-out", "Bytes out", ReportFormat.bytes(total.bytesOut)),
            ("bytes-in", "Bytes in", ReportFormat.bytes(total.bytesIn)),
            ("failed", "Failed", "\(total.failed)"),
            ("client-errors", "4xx", "\(total.clientErrors)"),
            ("server-errors", "5xx", "\(total.serverErrors)"),
            ("p50", "p50", ReportFormat.milliseconds(total.p50Milliseconds)),
            ("p95", "p95", ReportFormat.milliseconds(total.p95Milliseconds)),
            ("p99", "p99", ReportFormat.milliseconds(total.p99Milliseconds)),
            ("findings", "Findings", "\(findingCount)"),
        ]
        if let range = statistics.range {
            cards.append(("span", "Time span", ReportFormat.duration(seconds: range.duration)))
        }
        var html = "<section id=\"summary\"><h2>Summary</h2>\n<div class=\"cards\">\n"
        for (key, label, value) in cards {
            html +=
                "<div class=\"card\" data-key=\"\(key)\"><div class=\"value\(value.count > 9 ? " long" : "")\">"
                + "\(HTMLText.escape(value))</div>"
                + "<div class=\"label\">\(HTMLText.escape(label))</div></div>\n"
        }
        html += "</div>\n"
        if !total.answeredBy.isEmpty {
            html += "<p class=\"sources\">Answered by: "
            html += total.answeredBy.map { share in
                "<span class=\"badge\">\(HTMLText.escape(share.source)) \(share.count) "
                    + "(\(ReportFormat.percent(share.share)))</span>"
            }
            .joined(separator: " ")
            html += "</p>\n"
        }
        return html + "</section>\n"
    }

    static func hosts(_ statistics: FlowStatistics) -> String {
        var html = "<section id=\"hosts\"><h2>Hosts</h2>\n<div class=\"scroll\"><table class=\"grid\">\n<thead><tr>"
        for heading in [
            "Host", "Requests", "Bytes out", "Bytes in", "Failed", "4xx", "5xx", "p50", "p95", "p99", "Answered by",
        ] {
            html += "<th>\(heading)</th>"
        }
        html += "</tr></thead>\n<tbody>\n"
        for totals in statistics.hosts + [statistics.total] {
            let sources = totals.answeredBy.map { "\($0.source) \(ReportFormat.percent($0.share))" }
                .joined(separator: ", ")
            let cells = [
                totals.host, "\(totals.requests)", ReportFormat.bytes(totals.bytesOut),
                ReportFormat.bytes(totals.bytesIn), "\(totals.failed)", "\(totals.clientErrors)",
                "\(totals.serverErrors)", ReportFormat.milliseconds(totals.p50Milliseconds),
                ReportFormat.milliseconds(totals.p95Milliseconds), ReportFormat.milliseconds(totals.p99Milliseconds),
                sources,
            ]
            let rowClass = totals.host == statistics.total.host ? " class=\"total\"" : ""
            html += "<tr\(rowClass)>" + cells.map { "<td>\(HTMLText.escape($0))</td>" }.joined() + "</tr>\n"
        }
        return html + "</tbody></table></div></section>\n"
    }

    static func findings(_ transactions: [CapturedTransaction]) -> String {
        var items: [(Finding, CapturedTransaction)] = []
        for transaction in transactions {
            for finding in transaction.findings { items.append((finding, transaction)) }
        }
        let sorted = items.enumerated()
            .sorted { ($0.element.0.severity, $1.offset) > ($1.element.0.severity, $0.offset) }
            .map(\.element)
        var html = "<section id=\"findings\"><h2>Findings (\(items.count))</h2>\n"
        guard !sorted.isEmpty else {
            return html + "<p class=\"muted\">No findings: no secrets, plaintext, oversized images or integrity "
                + "problems were recorded.</p></section>\n"
        }
        html += "<ul class=\"findings\">\n"
        for (finding, transaction) in sorted {
            let id = transaction.id.uuidString.lowercased()
            html += "<li data-severity=\"\(finding.severity.rawValue)\">"
            html += "<span class=\"badge sev-\(finding.severity.rawValue)\">\(finding.severity.rawValue)</span> "
            html += "<code>\(HTMLText.escape(finding.rule))</code> "
            if let location = finding.location { html += "at <code>\(HTMLText.escape(location))</code> " }
            html += HTMLText.escape(finding.message)
            html += " <a href=\"#id=\(id)\">\(HTMLText.escape(transaction.request.method)) "
            html += "\(HTMLText.escape(ReportFormat.shortened(transaction.request.url.absoluteString)))</a></li>\n"
        }
        return html + "</ul></section>\n"
    }

    /// The filter bar, the table's header and its empty viewport, and the detail pane.
    static let transactionTable = """
        <section id="transactions"><h2>Transactions</h2>
        <form id="filters" class="filters" autocomplete="off">
        <label>Text <input id="f-q" type="search" placeholder="URL, method, status…"></label>
        <label>Host <select id="f-host"><option value="">all</option></select></label>
        <label>Status <select id="f-status"><option value="">all</option></select></label>
        <label>Method <select id="f-method"><option value="">all</option></select></label>
        <label>Source <select id="f-source"><option value="">all</option></select></label>
        <button type="button" id="f-clear">Clear</button>
        <span id="tx-count" class="muted" aria-live="polite"></span>
        </form>
        <div class="split">
        <div class="table" id="tx-table">
        <div class="tx-head" id="tx-head" role="row">
        <button type="button" class="num" data-sort="start" title="Start, after the first transaction">Start</button>\
        <button type="button" data-sort="method">Method</button>\
        <button type="button" data-sort="status">Status</button><button type="button" data-sort="host">Host</button>\
        <button type="button" data-sort="url">URL</button>\
        <button type="button" data-sort="source" title="Answered by">Source</button>\
        <button type="button" class="num" data-sort="duration">Duration</button>\
        <button type="button" class="num" data-sort="size" title="Response body size">Size</button>\
        <button type="button" data-sort="findings" title="Findings">⚑</button>
        </div>
        <div id="tx-viewport" class="viewport" tabindex="0"><div id="tx-rows" class="rows"></div></div>
        </div>
        <aside id="detail" class="detail"><p class="muted">Select a transaction to see its headers, bodies and \
        cURL command.</p></aside>
        </div>
        </section>

        """

    /// The page's figures as `{"hosts":[…],"total":…}`, script-safe.
    static func statisticsJSON(_ statistics: FlowStatistics) -> String {
        struct Figures: Encodable {
            var total: FlowStatistics.Totals
            var hosts: [FlowStatistics.Totals]
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let figures = Figures(total: statistics.total, hosts: statistics.hosts)
        let data = (try? encoder.encode(figures)) ?? Data("null".utf8)
        return String(decoding: HTMLText.scriptSafe(data), as: UTF8.self)
    }
}
