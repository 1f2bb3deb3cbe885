import Foundation
import NetTapCore
import NetTapHAR
import NetTapReport
import Testing

@Suite("Report formats: durations, intervals, plurals, axis ticks")
struct ReportFormatTests {
    @Test("durations use their two largest units, so a 117-day span reads 117 d 12 h")
    func durations() {
        #expect(ReportFormat.duration(seconds: 0.85) == "850.0 ms")
        #expect(ReportFormat.duration(seconds: 12.345) == "12.35 s")
        #expect(ReportFormat.duration(seconds: 303.9) == "5 min 3 s")
        #expect(ReportFormat.duration(seconds: 3 * 3600 + 5 * 60 + 59) == "3 h 5 min")
        #expect(ReportFormat.duration(seconds: 10_155_471.99) == "117 d 12 h")
        #expect(ReportFormat.duration(seconds: -3) == "0.0 ms")
        #expect(ReportFormat.milliseconds(125_000) == "2 min 5 s")
        #expect(ReportFormat.milliseconds(1250) == "1.25 s")
        #expect(ReportFormat.milliseconds(nil) == "–")
    }

    @Test("intervals are exact and short: 250 ms, 1 s, 1.5 s, 1 min, 2 h, 1 d")
    func intervals() {
        #expect(ReportFormat.interval(seconds: 0.25) == "250 ms")
        #expect(ReportFormat.interval(seconds: 0.0025) == "2.5 ms")
        #expect(ReportFormat.interval(seconds: 1) == "1 s")
        #expect(ReportFormat.interval(seconds: 1.5) == "1.5 s")
        #expect(ReportFormat.interval(seconds: 90) == "90 s")
        #expect(ReportFormat.interval(seconds: 60) == "1 min")
        #expect(ReportFormat.interval(seconds: 7200) == "2 h")
        #expect(ReportFormat.interval(seconds: 86_400) == "1 d")
        #expect(ReportFormat.interval(seconds: 101.554_7) == "101.555 s")
    }

    @Test("counts take the singular for exactly one")
    func plurals() {
        #expect(ReportFormat.counted(1, "transaction") == "1 transaction")
        #expect(ReportFormat.counted(0, "transaction") == "0 transactions")
        #expect(ReportFormat.counted(2, "bucket") == "2 buckets")
        #expect(ReportFormat.counted(1, "is", plural: "are") == "1 is")
        #expect(ReportFormat.counted(3, "is", plural: "are") == "3 are")
    }

    @Test("rate ticks are distinct, ascending, start at 0 and reach the maximum")
    func ticks() {
        #expect(ReportFormat.rateTicks(maximum: 2.2).map(\.label) == ["0 B/s", "1 B/s", "2 B/s", "3 B/s"])
        #expect(
            ReportFormat.rateTicks(maximum: 1500).map(\.label) == ["0.0 KiB/s", "0.5 KiB/s", "1.0 KiB/s", "1.5 KiB/s"]
        )
        #expect(ReportFormat.rateTicks(maximum: 0.3).map(\.label) == ["0.0 B/s", "0.1 B/s", "0.2 B/s", "0.3 B/s"])
        #expect(ReportFormat.rateTicks(maximum: 0).map(\.label).last == "1.00 B/s")
        for maximum in [0.001, 0.3, 1, 1.01, 2.2, 7, 99, 1023, 1024, 1500, 3e6, 1e9, 5e12] {
            let ticks = ReportFormat.rateTicks(maximum: maximum)
            let labels = ticks.map(\.label)
            #expect(Set(labels).count == labels.count, "\(maximum): \(labels)")
            #expect(ticks.first?.value == 0)
            #expect((ticks.last?.value ?? 0) >= maximum * (1 - 1e-9), "\(maximum): \(labels)")
            #expect(ticks.count >= 2 && ticks.count <= 5, "\(maximum): \(labels)")
            #expect(ticks.map(\.value) == ticks.map(\.value).sorted())
        }
    }
}

@Suite("Flow statistics: bucket alignment and sparse series")
struct FlowStatisticsBucketTests {
    static let base = Date(timeIntervalSince1970: 1_750_000_000)  // 2025-06-15T15:06:40Z

    static func at(_ offset: Double) -> CapturedTransaction {
        Samples.transaction("GET", "https://a.example.com/\(offset)", offset: offset, end: 10, down: 100)
    }

    @Test("wall-clock buckets start on whole minutes, whatever the first start")
    func wallClock() {
        // Samples start at 1_750_000_000 (40 s into a minute): 0 s and 15 s in one minute, 30 s in the next.
        let statistics = FlowStatistics(
            transactions: [Self.at(0), Self.at(15), Self.at(30)],
            bucketDuration: .seconds(60),
            alignment: .wallClock
        )
        #expect(statistics.series.map(\.start.timeIntervalSince1970) == [1_749_999_960, 1_750_000_020])
        #expect(statistics.series.map(\.requests) == [2, 1])
        #expect(statistics.bucketCount == 2)
        let fromStart = FlowStatistics(
            transactions: [Self.at(0), Self.at(15), Self.at(30)],
            bucketDuration: .seconds(60)
        )
        #expect(fromStart.series.map(\.start.timeIntervalSince1970) == [1_750_000_000])
    }

    @Test("without empty buckets a 117-day series keeps 1-second buckets and lists only those with traffic")
    func sparse() {
        let transactions = [Self.at(0), Self.at(0.5), Self.at(86_400 * 117)]
        let sparse = FlowStatistics(transactions: transactions, includesEmptyBuckets: false)
        #expect(sparse.bucketSeconds == 1)
        #expect(!sparse.isBucketWidened)
        #expect(sparse.series.map(\.requests) == [2, 1])
        #expect(sparse.bucketCount == 86_400 * 117 + 1)
        let dense = FlowStatistics(transactions: transactions)
        #expect(dense.isBucketWidened)
        #expect(dense.requestedBucketSeconds == 1)
        #expect(dense.series.count <= FlowStatistics.maximumBucketCount)
    }
}

@Suite("HTML report: long and short captures, progress")
struct HTMLReportScaleTests {
    static func chromeReport() throws -> String {
        let url = HARFixtures.folder.appendingPathComponent("chrome.har")
        return HTMLReport(transactions: try HARDocument.load(contentsOf: url).transactions(), title: "chrome.har")
            .render()
    }

    @Test("a 117-day capture: the span card reads 117 d 12 h and the axis labels are distinct")
    func longSpan() throws {
        let html = try Self.chromeReport()
        #expect(html.contains(#"<div class="card" data-key="span"><div class="value long">117 d 12 h</div>"#))
        let labels = html.components(separatedBy: #"<text class="axis tick""#).dropFirst().compactMap { part in
            part.split(separator: ">", maxSplits: 1).last?.split(separator: "<").first.map(String.init)
        }
        #expect(labels.count >= 2)
        #expect(Set(labels).count == labels.count, "\(labels)")
        #expect(!html.contains("1 buckets"))
        #expect(!html.contains(" 1 transactions"))
    }

    @Test("a capture of about a second gets sub-second chart buckets; a long one wider buckets")
    func chartBuckets() {
        let start = Date(timeIntervalSince1970: 1_750_000_000)
        #expect(
            HTMLReport.chartBucket(for: DateInterval(start: start, duration: 1.2), requested: .seconds(1))
                == .milliseconds(20)
        )
        #expect(
            HTMLReport.chartBucket(for: DateInterval(start: start, duration: 600), requested: .seconds(1))
                == .seconds(1)
        )
        #expect(
            HTMLReport.chartBucket(for: DateInterval(start: start, duration: 10_000), requested: .seconds(1))
                == .seconds(10)
        )
        #expect(HTMLReport.chartBucket(for: nil, requested: .seconds(1)) == .seconds(1))
        let html = HTMLReport(transactions: Samples.many(100)).render()  // one second of traffic
        #expect(html.contains("buckets of 20 ms</p>"))
    }

    @Test("rendering reports every step, with fractions that never decrease and end at 1")
    func progress() {
        let seen = ProgressLog()
        _ = HTMLReport(transactions: Samples.many(3000)).render { seen.append($0) }
        let all = seen.values
        #expect(all.first?.fraction == 0)
        #expect(all.last?.fraction == 1)
        #expect(all.map(\.fraction) == all.map(\.fraction).sorted())
        #expect(Set(all.map(\.step)) == [.statistics, .redacting, .encoding, .assembling])
        #expect(all.filter { $0.step == .redacting }.count >= 5)
        #expect(all.filter { $0.step == .encoding }.count >= 5)
    }
}

/// Progress values collected from any thread.
final class ProgressLog: @unchecked Sendable {
    private let lock = NSLock()
    private var collected: [HTMLReport.Progress] = []

    func append(_ value: HTMLReport.Progress) {
        lock.lock()
        collected.append(value)
        lock.unlock()
    }

    var values: [HTMLReport.Progress] {
        lock.lock()
        defer { lock.unlock() }
        return collected
    }
}
