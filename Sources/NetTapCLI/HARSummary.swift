import Foundation
import NetTapCore
import NetTapHAR
import NetTapReport

/// Traffic statistics of a HAR 1.2 log: per host, overall, by status code, and the slowest entries.
///
/// The statistics count *transactions*, as `nettap stats` and the HTML report do: a request and its fate. A
/// NetTap export writes a transaction that followed N redirects as N + 1 entries (a redirect hop entry per
/// hop, `_netTap.redirectOf`, then the final entry; `HAREntry.entries(for:)`); those hop entries are not counted
/// as requests: ``redirectHopCount`` counts them and ``redirectHopStatusCounts`` has their statuses, the
/// transaction counts once with its final status, and its time includes the hops'. Entries of other tools are
/// one transaction each (a browser's redirect entries included), as `HARDocument.transactions()` reads them.
///
/// Definitions (HAR 1.2 field names):
/// - **bytes in**: the larger of the response `content.size` (the decoded body) and `response.bodySize` (the
///   body as transferred), 0 when neither is known. HAR uses −1 for "unknown"; unknown sizes are ignored, not
///   subtracted. Taking the larger counts a NetTap export of a large download fully: NetTap keeps the first
///   bytes of a long body, writes the size of the text kept as `content.size` (so `text` and `size` agree for
///   strict HAR readers) and the full decoded size as `bodySize`. A body NetTap redacted or cut has its size as
///   received in its `_netTap.bodies` record, which wins: a redacted text may be longer or shorter than the body.
/// - **bytes out**: `request.bodySize` when ≥ 0, else the UTF-8 length of `request.postData.text`, else 0.
/// - **failed**: entries with `response.status` 0 (no response: blocked, aborted, network error).
/// - **HTTP errors**: entries with `response.status` ≥ 400 (4xx and 5xx together); they are not failures, and
///   neither are redirects (3xx), such as the redirect hop entries browsers and NetTap write before the final
///   response.
/// - **time**: the entry `time` (milliseconds); for a transaction with redirect hop entries, plus their times.
/// - **p50 / p95**: nearest-rank percentiles of the time: the value at rank ⌈p/100 · n⌉ of the n ascending
///   times. Entries with a negative `time` are left out; `nil` when none remain.
///
/// URLs in the summary are redacted (secret query items and user-info passwords become `[redacted]`, with
/// `Redactor.default`), whatever the file holds: a browser's HAR export keeps every token.
///
/// ```swift
/// let summary = HARSummary(entries: try HARDocument.load(contentsOf: url).log.entries)
/// summary.transactionCount      // 52
/// summary.total.requests        // 52
/// summary.hosts.first?.host     // "example.com"
/// ```
public struct HARSummary: Sendable, Hashable, Codable {
    /// The statistics of one host (or of all entries, in ``HARSummary/total``).
    public struct HostStatistics: Sendable, Hashable, Codable {
        /// The host name, with `:port` when the URL names a port; `(all)` in the total, `(no host)` for URLs
        /// without a host or text that is not a URL (`FlowStatistics.noHost`).
        public var host: String
        /// The number of transactions (redirect hop entries are not counted).
        public var requests: Int
        /// Response bytes received (see the type's definitions).
        public var bytesIn: Int64
        /// Request body bytes sent.
        public var bytesOut: Int64
        /// Entries with status 0.
        public var failed: Int
        /// Entries with status ≥ 400 (redirects, 3xx, are not errors).
        public var httpErrors: Int
        /// The nearest-rank median of `time`, in milliseconds; `nil` without timed entries.
        public var p50Milliseconds: Double?
        /// The nearest-rank 95th percentile of `time`, in milliseconds; `nil` without timed entries.
        public var p95Milliseconds: Double?
    }

    /// How many entries had one status code.
    public struct StatusCount: Sendable, Hashable, Codable {
        /// The HTTP status code (0 for no response).
        public var status: Int
        /// The number of transactions (or redirect hops) with it.
        public var count: Int
    }

    /// One entry of the slowest list.
    public struct SlowEntry: Sendable, Hashable, Codable {
        /// The entry's position in the log, from 0.
        public var index: Int
        /// The request method.
        public var method: String
        /// The request URL, redacted unless the summary was made with `Redactor.disabled`.
        public var url: String
        /// The response status.
        public var status: Int
        /// The protocol of the final exchange (`HTTP/1.1`, `HTTP/2`, …), when the entry says
        /// (`HAREntry.negotiatedHTTPVersion`).
        public var httpVersion: String?
        /// The transaction's time, in milliseconds: the entry's `time`, plus its redirect hops' times.
        public var milliseconds: Double
    }

    /// How many entries one source answered (NetTap's `answeredBy`), and which stubs or cassette entries.
    public struct SourceCount: Sendable, Hashable, Codable {
        /// Who answered: `network`, `mock`, `cassette`, or another handler's name, from the entry's `_netTap`
        /// record; entries of other tools count as `network`.
        public var source: String
        /// The number of entries.
        public var count: Int
        /// For stub answers, how often each stub answered, by name (`scenario/stub` for scenario stubs),
        /// most frequent first then by name; empty for other sources.
        public var stubs: [NamedCount]

        /// Creates a count.
        ///
        /// - Parameters:
        ///   - source: Who answered.
        ///   - count: The number of entries.
        ///   - stubs: Per-stub counts.
        public init(source: String, count: Int, stubs: [NamedCount]) {
            self.source = source
            self.count = count
            self.stubs = stubs
        }
    }

    /// A name and how often it occurred.
    public struct NamedCount: Sendable, Hashable, Codable {
        /// The name.
        public var name: String
        /// The count.
        public var count: Int

        /// Creates a named count.
        ///
        /// - Parameters:
        ///   - name: The name.
        ///   - count: The count.
        public init(name: String, count: Int) {
            self.name = name
            self.count = count
        }
    }

    /// The number of HAR entries in the log, redirect hop entries included.
    public var entryCount: Int
    /// The number of transactions: the entries, less the redirect hop entries NetTap folds into their
    /// transaction.
    public var transactionCount: Int
    /// The number of redirect hop entries counted with their transaction rather than as requests.
    public var redirectHopCount: Int
    /// The statuses of the redirect hops, ascending; they are not in ``statusCounts``.
    public var redirectHopStatusCounts: [StatusCount]
    /// Per-host statistics, most requests first, then by host name.
    public var hosts: [HostStatistics]
    /// The statistics over all entries; its host is `(all)`.
    public var total: HostStatistics
    /// The status code histogram of the transactions (their final statuses), ascending by status.
    public var statusCounts: [StatusCount]
    /// The slowest transactions, slowest first (ties in log order), at most the limit given at creation.
    public var slowest: [SlowEntry]
    /// Who answered the entries, most entries first then by name: the network, a stub, a cassette, … Only HAR
    /// files written by NetTap know; entries from other tools all count as `network`.
    public var answeredBy: [SourceCount]
    /// The findings: those NetTap recorded in the entries (integrity mismatches, audit findings), and with
    /// `nettap report --audit` those the audit rules find now; most severe first.
    public var findings: [FindingEntry] = []
    /// Whether the URLs were redacted: `on`, or `off` for a summary made with `Redactor.disabled`.
    public var redaction: String

    /// Computes the summary of HAR entries.
    ///
    /// - Parameters:
    ///   - entries: The HAR 1.2 `log.entries`, in log order.
    ///   - slowestLimit: How many of the slowest entries to list; 10 by default.
    ///   - redactor: What is redacted in the URLs listed; `Redactor.default` by default.
    /// - Complexity: O(n log n) in the number of entries.
    public init(entries: [HAREntry], slowestLimit: Int = 10, redactor: Redactor = .default) {
        entryCount = entries.count
        let hops = Self.foldedHops(of: entries)
        var hopTimes: [String: Double] = [:]
        var hopCounts: [Int: Int] = [:]
        for (index, id) in hops {
            hopTimes[id, default: 0] += max(0, entries[index].time)
            hopCounts[entries[index].response.status, default: 0] += 1
        }
        let counted = entries.enumerated().filter { hops[$0.offset] == nil }.map { offset, entry in
            var entry = entry
            if let id = entry.netTap?.id, let extra = hopTimes[id], entry.time >= 0 { entry.time += extra }
            return (offset: offset, element: entry)
        }
        transactionCount = counted.count
        redirectHopCount = hops.count
        redirectHopStatusCounts = Self.statusCounts(hopCounts)
        var groups: [String: [HAREntry]] = [:]
        for (_, entry) in counted {
            groups[Self.host(of: entry.request.url), default: []].append(entry)
        }
        hosts = groups.map { Self.statistics(host: $0.key, entries: $0.value) }
            .sorted { ($0.requests, $1.host) > ($1.requests, $0.host) }
        total = Self.statistics(host: "(all)", entries: counted.map(\.element))
        var counts: [Int: Int] = [:]
        for (_, entry) in counted { counts[entry.response.status, default: 0] += 1 }
        statusCounts = Self.statusCounts(counts)
        let secrets = redactor.secrets(of: entries)
        slowest =
            counted
            .filter { $0.element.time >= 0 }
            .sorted { ($0.element.time, $1.offset) > ($1.element.time, $0.offset) }
            .prefix(max(0, slowestLimit))
            .map { index, entry in
                SlowEntry(
                    index: index,
                    method: entry.request.method,
                    url: redactor.redactedURL(of: entry, sweeping: secrets),
                    status: entry.response.status,
                    httpVersion: entry.negotiatedHTTPVersion,
                    milliseconds: entry.time
                )
            }
        answeredBy = Self.sources(of: counted.map(\.element))
        redaction = redactor.isEnabled ? "on" : "off"
    }

    /// The redirect hop entries `HARDocument.transactions()` folds into their transaction: by position in the
    /// log, the id of the transaction (`_netTap.redirectOf`) whose final entry is in the log with that hop.
    static func foldedHops(of entries: [HAREntry]) -> [Int: String] {
        var redirectCounts: [String: Int] = [:]
        for entry in entries where !entry.isRedirectHop {
            if let id = entry.netTap?.id, let count = entry.netTap?.redirects?.count, count > 0 {
                redirectCounts[id] = count
            }
        }
        var hops: [Int: String] = [:]
        for (index, entry) in entries.enumerated() {
            guard let id = entry.netTap?.redirectOf, let hop = entry.netTap?.hop, let count = redirectCounts[id],
                (0..<count).contains(hop)
            else { continue }
            hops[index] = id
        }
        return hops
    }

    private static func statusCounts(_ counts: [Int: Int]) -> [StatusCount] {
        counts.map { StatusCount(status: $0.key, count: $0.value) }.sorted { $0.status < $1.status }
    }

    private static func sources(of entries: [HAREntry]) -> [SourceCount] {
        var counts: [String: Int] = [:]
        var stubs: [String: [String: Int]] = [:]
        for entry in entries {
            let source = entry.netTap?.answeredBy ?? "network"
            counts[source, default: 0] += 1
            if let stub = entry.netTap?.annotations?["stub"] {
                let scenario = entry.netTap?.annotations?["scenario"]
                stubs[source, default: [:]][scenario.map { "\($0)/\(stub)" } ?? stub, default: 0] += 1
            }
        }
        return counts.map { source, count in
            SourceCount(
                source: source,
                count: count,
                stubs: (stubs[source] ?? [:]).map { NamedCount(name: $0.key, count: $0.value) }
                    .sorted { ($0.count, $1.name) > ($1.count, $0.name) }
            )
        }
        .sorted { ($0.count, $1.source) > ($1.count, $0.source) }
    }

    /// The nearest-rank percentile of ascending values: the value at rank ⌈p/100 · n⌉ (at least rank 1).
    ///
    /// - Parameters:
    ///   - percent: The percentile, 0 to 100.
    ///   - sortedValues: The values in ascending order.
    /// - Returns: The percentile, or `nil` for no values.
    public static func nearestRankPercentile(_ percent: Double, of sortedValues: [Double]) -> Double? {
        guard !sortedValues.isEmpty else { return nil }
        let rank = Int((percent / 100 * Double(sortedValues.count)).rounded(.up))
        return sortedValues[min(max(rank, 1), sortedValues.count) - 1]
    }

    /// The response bytes of one entry: the size NetTap's record gives for a body whose text it redacted or cut
    /// (`_netTap.bodies`), else the larger of `content.size` and `bodySize`, 0 when both are unknown (−1 in HAR).
    ///
    /// - Parameter entry: The entry.
    /// - Returns: Bytes, never negative.
    public static func bytesIn(_ entry: HAREntry) -> Int64 {
        if let size = entry.netTap?.bodies?.responseSize { return max(0, size) }
        return max(0, Int64(entry.response.content.size), Int64(entry.response.bodySize))
    }

    /// The request body bytes of one entry: `bodySize`, else the length of `postData.text`, else 0.
    ///
    /// - Parameter entry: The entry.
    /// - Returns: Bytes, never negative.
    public static func bytesOut(_ entry: HAREntry) -> Int64 {
        if let size = entry.netTap?.bodies?.requestSize { return max(0, size) }
        let bodySize = Int64(entry.request.bodySize)
        if bodySize >= 0 { return bodySize }
        return Int64(entry.request.postData?.text?.utf8.count ?? 0)
    }

    private static func statistics(host: String, entries: [HAREntry]) -> HostStatistics {
        let times = entries.map(\.time).filter { $0 >= 0 }.sorted()
        return HostStatistics(
            host: host,
            requests: entries.count,
            bytesIn: entries.reduce(0) { $0 + bytesIn($1) },
            bytesOut: entries.reduce(0) { $0 + bytesOut($1) },
            failed: entries.filter { $0.response.status == 0 }.count,
            httpErrors: entries.filter { $0.response.status >= 400 }.count,
            p50Milliseconds: nearestRankPercentile(50, of: times),
            p95Milliseconds: nearestRankPercentile(95, of: times)
        )
    }

    private static func host(of url: String) -> String {
        FlowStatistics.host(of: url)
    }
}
