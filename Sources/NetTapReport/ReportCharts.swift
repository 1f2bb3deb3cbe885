import Foundation
import NetTapCore

/// The inline SVG charts of an ``HTMLReport``; every capture text in them is escaped.
enum ReportCharts {
    private static let width = 1000.0

    /// Two lines, bytes per second out and in, over the capture's time.
    static func throughput(_ statistics: FlowStatistics) -> String {
        let series = statistics.series
        guard !series.isEmpty else { return "<p class=\"muted\">No traffic.</p>\n" }
        let height = 220.0
        let left = 70.0
        let bottom = 24.0
        let plotWidth = width - left - 10
        let plotHeight = height - bottom - 10
        let ticks = ReportFormat.rateTicks(
            maximum: series.map { max($0.bytesOutPerSecond, $0.bytesInPerSecond) }.max() ?? 0
        )
        let peak = ticks.last?.value ?? 1
        // The time axis runs from the first bucket's start to the last bucket's end; each point sits in the
        // middle of its bucket.
        func x(_ index: Int) -> Double {
            left + plotWidth * (Double(index) + 0.5) / Double(series.count)
        }
        func y(_ value: Double) -> Double { 10 + plotHeight * (1 - value / peak) }
        func points(_ value: (FlowStatistics.Bucket) -> Double) -> String {
            series.enumerated().map { format(x($0.offset)) + "," + format(y(value($0.element))) }
                .joined(separator: " ")
        }
        let bucket = ReportFormat.interval(seconds: statistics.bucketSeconds)
        var svg =
            "<svg class=\"chart\" id=\"throughput-chart\" viewBox=\"0 0 \(format(width)) \(format(height))\" "
            + "role=\"img\" aria-label=\"Bytes per second out and in, \(bucket) buckets\">\n"
        for tick in ticks {
            let lineY = format(y(tick.value))
            svg += "<line class=\"grid\" x1=\"\(format(left))\" x2=\"\(format(width - 10))\" y1=\"\(lineY)\" "
            svg += "y2=\"\(lineY)\"/><text class=\"axis tick\" x=\"\(format(left - 6))\" y=\"\(lineY)\" "
            svg += "text-anchor=\"end\" dominant-baseline=\"middle\">\(tick.label)</text>\n"
        }
        svg += "<polyline class=\"down\" data-series=\"down\" points=\"\(points(\.bytesInPerSecond))\"/>\n"
        svg += "<polyline class=\"up\" data-series=\"up\" points=\"\(points(\.bytesOutPerSecond))\"/>\n"
        if series.count <= 60 {
            // Few buckets (one, for a short capture) draw no visible line: mark each point.
            for (index, bucket) in series.enumerated() {
                for (kind, value) in [("down", bucket.bytesInPerSecond), ("up", bucket.bytesOutPerSecond)] {
                    svg += "<circle class=\"\(kind)\" cx=\"\(format(x(index)))\" cy=\"\(format(y(value)))\" r=\"3\"/>"
                }
            }
            svg += "\n"
        }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let first = series.first, let last = series.last {
            svg += "<text class=\"axis\" x=\"\(format(left))\" y=\"\(format(height - 6))\">"
            svg += "\(formatter.string(from: first.start))</text>\n"
            svg += "<text class=\"axis\" x=\"\(format(width - 10))\" y=\"\(format(height - 6))\" text-anchor=\"end\">"
            let end = last.start.addingTimeInterval(statistics.bucketSeconds)
            svg += "<tspan data-axis-end>\(formatter.string(from: end))</tspan></text>\n"
        }
        svg += "</svg>\n<p class=\"legend\"><span class=\"key down\"></span>in (response bodies) "
        svg += "<span class=\"key up\"></span>out (request bodies) · "
        svg += "\(ReportFormat.counted(series.count, "bucket")) of \(bucket)</p>\n"
        return svg
    }

    /// One bar per transaction (the earliest `limit`), from its start to its end: waiting to send, waiting for the
    /// first byte, receiving; split into the wire phases (DNS, connect, TLS, send, wait, receive) when the
    /// transaction has them (``WaterfallSegments``).
    ///
    /// Each bar links to the transaction's detail.
    static func waterfall(_ transactions: [CapturedTransaction], limit: Int) -> String {
        let shown = Array(transactions.prefix(max(0, limit)))
        guard let origin = shown.first?.timings.startDate else { return "<p class=\"muted\">No transactions.</p>\n" }
        let rowHeight = 10.0
        let left = 6.0
        let plotWidth = width - left - 6
        let ends = shown.map { $0.timings.startDate.timeIntervalSince(origin) * 1000 + max(0, $0.timings.end ?? 0) }
        let span = max(1, ends.max() ?? 1)
        let height = Double(shown.count) * rowHeight + 4
        func x(_ milliseconds: Double) -> Double { left + plotWidth * milliseconds / span }
        var svg =
            "<svg class=\"chart waterfall\" id=\"waterfall-chart\" viewBox=\"0 0 \(format(width)) \(format(height))\" "
            + "role=\"img\" aria-label=\"Waterfall of \(shown.count) transactions\">\n"
        var hasPhases = false
        for (index, transaction) in shown.enumerated() {
            let timings = transaction.timings
            let start = timings.startDate.timeIntervalSince(origin) * 1000
            let end = timings.end ?? timings.firstByte ?? timings.requestSent ?? 0
            let sent = min(timings.requestSent ?? 0, end)
            let firstByte = min(max(timings.firstByte ?? end, sent), end)
            let top = format(Double(index) * rowHeight + 2)
            let bar = WaterfallSegments(transaction, sent: sent, firstByte: firstByte, end: end)
            svg += waterfallBar(transaction, bar, top: top, height: rowHeight - 3) { milliseconds in
                (x(start + milliseconds), plotWidth / span)
            }
            hasPhases = hasPhases || !bar.summary.isEmpty
        }
        svg += "</svg>\n<p class=\"legend\"><span class=\"key queue\"></span>until sent "
        svg += "<span class=\"key wait\"></span>waiting for the first byte <span class=\"key receive\"></span>receiving"
        if hasPhases { svg += " " + WaterfallSegments.legend }
        svg += " · \(shown.count == transactions.count ? "" : "the first \(shown.count) of ")"
        svg += "\(ReportFormat.counted(transactions.count, "transaction")) by start, over "
        svg += "\(ReportFormat.milliseconds(span))</p>\n"
        return svg
    }

    /// The link, tooltip and coloured parts of one waterfall bar.
    ///
    /// - Parameters:
    ///   - transaction: The transaction.
    ///   - bar: Its parts.
    ///   - top: The bar's top coordinate.
    ///   - height: The bar's height.
    ///   - place: The x coordinate of a time in milliseconds from the transaction's start, and the width of a
    ///     millisecond.
    /// - Returns: The bar's SVG.
    private static func waterfallBar(
        _ transaction: CapturedTransaction,
        _ bar: WaterfallSegments,
        top: String,
        height: Double,
        place: (Double) -> (x: Double, scale: Double)
    ) -> String {
        let id = transaction.id.uuidString.lowercased()
        let status = transaction.response.map { "\($0.statusCode)" } ?? transaction.state.rawValue
        let label =
            "\(transaction.request.method) \(ReportFormat.shortened(transaction.request.url.absoluteString)) "
            + "· \(status) · \(ReportFormat.milliseconds(transaction.timings.end))"
            + (bar.summary.isEmpty ? "" : " · \(bar.summary)")
        var svg = "<a href=\"#id=\(id)\"><g class=\"bar\(bar.summary.isEmpty ? "" : " phased")\" data-id=\"\(id)\">"
        svg += "<title>\(HTMLText.escape(label))</title>"
        for segment in bar.segments {
            let (x, scale) = place(segment.from)
            let barWidth = max(segment.to - segment.from, segment.kind.hasSuffix("receive") ? 0.5 : 0) * scale
            guard barWidth > 0 else { continue }
            svg += "<rect class=\"\(segment.kind)\" x=\"\(format(x))\" y=\"\(top)\" "
            svg += "width=\"\(format(max(barWidth, 1)))\" height=\"\(format(height))\""
            svg += segment.title.map { "><title>\(HTMLText.escape($0))</title></rect>" } ?? "/>"
        }
        return svg + "</g></a>\n"
    }

    /// One bar per status code (0 for no response), colored by class.
    static func statusHistogram(_ transactions: [CapturedTransaction]) -> String {
        var counts: [Int: Int] = [:]
        for transaction in transactions { counts[transaction.response?.statusCode ?? 0, default: 0] += 1 }
        let sorted = counts.sorted { $0.key < $1.key }
        guard !sorted.isEmpty else { return "<p class=\"muted\">No transactions.</p>\n" }
        let height = 180.0
        let barSlot = min(80, (width - 20) / Double(sorted.count))
        let peak = Double(sorted.map(\.value).max() ?? 1)
        var svg =
            "<svg class=\"chart\" id=\"status-chart\" viewBox=\"0 0 \(format(width)) \(format(height))\" "
            + "role=\"img\" aria-label=\"Status code histogram\">\n"
        for (index, entry) in sorted.enumerated() {
            let barHeight = max(1, (height - 44) * Double(entry.value) / peak)
            let x = 10 + Double(index) * barSlot
            let statusClass = entry.key == 0 ? "s0" : "s\(entry.key / 100)"
            svg += "<g data-status=\"\(entry.key)\" data-count=\"\(entry.value)\">"
            svg += "<rect class=\"\(statusClass)\" x=\"\(format(x + 4))\" y=\"\(format(height - 22 - barHeight))\" "
            svg += "width=\"\(format(barSlot - 8))\" height=\"\(format(barHeight))\"/>"
            svg += "<text class=\"axis\" x=\"\(format(x + barSlot / 2))\" y=\"\(format(height - 26 - barHeight))\" "
            svg += "text-anchor=\"middle\">\(entry.value)</text>"
            svg += "<text class=\"axis\" x=\"\(format(x + barSlot / 2))\" y=\"\(format(height - 6))\" "
            svg += "text-anchor=\"middle\">\(entry.key == 0 ? "failed" : "\(entry.key)")</text></g>\n"
        }
        svg += "</svg>\n"
        var hops: [Int: Int] = [:]
        for transaction in transactions {
            for hop in transaction.redirects { hops[hop.statusCode, default: 0] += 1 }
        }
        svg += "<p class=\"legend\" id=\"status-note\" data-redirect-hops=\"\(hops.values.reduce(0, +))\">"
        svg += "Each transaction counts once, with its final status"
        if !hops.isEmpty {
            let list = hops.sorted { $0.key < $1.key }.map { "\($0.key) ×\($0.value)" }.joined(separator: ", ")
            svg += "; its redirect hops are not counted here: "
            svg += "\(ReportFormat.counted(hops.values.reduce(0, +), "redirect hop")) (\(list))"
        }
        return svg + ".</p>\n"
    }

    /// A coordinate with at most two decimals.
    private static func format(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}
