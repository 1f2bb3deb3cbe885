import Foundation
import NetTapCore

/// Traffic statistics of captured transactions: per host and overall counts, bytes, errors, duration
/// percentiles and who answered, plus a time series of bytes and requests per second.
///
/// The one statistics engine of NetTap: `nettap report`, `nettap stats` and the HTML report all print these
/// figures (`report` reads a HAR file's transactions as `HARDocument.transactions()` gives them), so they agree
/// for every file. Every figure is defined in docs/statistics.md; in short:
/// - **requests**: the transactions whose `Timings.startDate` lies in the range (all of them without a range). A
///   transaction is a request and its fate: its redirect hops count with it.
/// - **bytesIn** / **bytesOut**: the response and request *body* sizes as the app received and sent them
///   (decoded), `CapturedBody.totalByteCount`: the full size, also when NetTap kept only part of a body or
///   redacted it. Header bytes are not counted. A HAR file's sizes come from `_netTap.bodies` (NetTap's record of
///   the real sizes), else `content.size` and `bodySize` as `HARResponse.receivedBodySize` and
///   `HARRequest.sentBodySize` define.
/// - **failed**: transactions in state `CapturedTransaction.State.failed` or `CapturedTransaction.State.cancelled` (a HAR entry of
///   status 0). **httpErrors** counts responses with status ≥ 400; **clientErrors** (400–499) and **serverErrors**
///   (≥ 500) split them. HTTP errors and redirects are not failures.
/// - **p50 / p95 / p99**: nearest-rank percentiles of `Timings.duration` in milliseconds (a HAR entry's `time`,
///   plus its redirect hops'): the value at rank ⌈p/100 · n⌉ of the n ascending durations of transactions that
///   ended; `nil` when none ended.
/// - **answeredBy**: how many transactions each `CapturedTransaction.answeredBy` source answered, with its share.
/// - **series**: buckets of ``bucketDuration``, starting at the range's start (the earliest start without a
///   range) or, with ``BucketAlignment/wallClock``, at whole multiples of the bucket since 1970-01-01T00:00:00Z.
///   A transaction counts as one request in the bucket of its start; its request body in the bucket where the
///   request was sent (`Timings.requestSent`, else the start); its response body in the bucket where it ended
///   (`Timings.end`, else the first byte, else the start). Moments outside the range are left out. With
///   `includesEmptyBuckets` (the default) the series holds every bucket of the range, at most
///   ``maximumBucketCount`` of them: a range needing more gets wider buckets, which ``isBucketWidened`` tells;
///   without it the series holds only the buckets with traffic, and the bucket is never widened.
///
/// ```swift
/// let statistics = FlowStatistics(transactions: log.transactions, bucketDuration: .seconds(1))
/// statistics.total.p95Milliseconds       // 183.0
/// statistics.hosts.first?.host           // "api.example.com"
/// statistics.series.map(\.bytesInPerSecond)
/// ```
public struct FlowStatistics: Sendable, Hashable, Codable {
    /// The counts of one host, or of every transaction in ``FlowStatistics/total``.
    public struct Totals: Sendable, Hashable, Codable {
        /// The host, with `:port` when the URL names one; `(all)` in the total.
        public var host: String
        /// The number of transactions.
        public var requests: Int
        /// Request body bytes (full sizes).
        public var bytesOut: Int64
        /// Response body bytes (full sizes).
        public var bytesIn: Int64
        /// Transactions that failed or were cancelled (no response).
        public var failed: Int
        /// Responses with status 400 or more (``clientErrors`` and ``serverErrors`` together).
        public var httpErrors: Int
        /// Responses with status 400–499.
        public var clientErrors: Int
        /// Responses with status 500 or more.
        public var serverErrors: Int
        /// The nearest-rank median duration, in milliseconds; `nil` when no transaction ended.
        public var p50Milliseconds: Double?
        /// The nearest-rank 95th percentile duration, in milliseconds; `nil` when no transaction ended.
        public var p95Milliseconds: Double?
        /// The nearest-rank 99th percentile duration, in milliseconds; `nil` when no transaction ended.
        public var p99Milliseconds: Double?
        /// Who answered, most transactions first, then by name.
        public var answeredBy: [SourceShare]
    }

    /// How many transactions one source answered.
    public struct SourceShare: Sendable, Hashable, Codable {
        /// The source: `network`, `passthrough`, or a handler's name (`mock`, `cassette`, …).
        public var source: String
        /// The number of transactions it answered.
        public var count: Int
        /// `count` divided by the number of transactions, from 0 to 1.
        public var share: Double
    }

    /// One time bucket of the series.
    public struct Bucket: Sendable, Hashable, Codable {
        /// The bucket's start.
        public var start: Date
        /// Transactions that started in the bucket.
        public var requests: Int
        /// Request body bytes sent in the bucket.
        public var bytesOut: Int64
        /// Response body bytes received in the bucket.
        public var bytesIn: Int64
        /// `requests` divided by the bucket duration in seconds.
        public var requestsPerSecond: Double
        /// `bytesOut` divided by the bucket duration in seconds (bytes per second).
        public var bytesOutPerSecond: Double
        /// `bytesIn` divided by the bucket duration in seconds (bytes per second).
        public var bytesInPerSecond: Double
    }

    /// Where the buckets of a series start.
    public enum BucketAlignment: String, Sendable, Hashable, Codable {
        /// The first bucket starts at the range's start (the earliest transaction's start without a range).
        case rangeStart
        /// Buckets start at whole multiples of the bucket since 1970-01-01T00:00:00Z (UTC): 1-second buckets on
        /// whole seconds, 60-second buckets on whole minutes, 3600-second buckets on whole hours.
        case wallClock
    }

    /// The time range the statistics cover; `nil` when there were no transactions and no range was given.
    public var range: DateInterval?
    /// The length of one series bucket, in seconds: the one asked for, unless ``isBucketWidened``.
    public var bucketSeconds: Double
    /// The bucket length asked for, in seconds (at least 0.001).
    public var requestedBucketSeconds: Double
    /// Where the buckets start.
    public var alignment: BucketAlignment
    /// How many buckets the range spans, the empty ones included; 0 without a range.
    public var bucketCount: Int
    /// The statistics of every transaction in the range; its host is `(all)`.
    public var total: Totals
    /// Per-host statistics, most requests first, then by host name.
    public var hosts: [Totals]
    /// The series, oldest first: one bucket per ``bucketSeconds`` over the range, or only the buckets with
    /// traffic when the statistics were made without `includesEmptyBuckets`.
    public var series: [Bucket]

    /// Whether the range needed more than ``maximumBucketCount`` buckets of the length asked for, so the series
    /// has wider buckets (``bucketSeconds`` > ``requestedBucketSeconds``).
    public var isBucketWidened: Bool { bucketSeconds > requestedBucketSeconds }

    /// The most buckets a series holds; a range needing more gets buckets of `range / maximumBucketCount`.
    public static let maximumBucketCount = 100_000

    /// The bucket duration as a `Duration`.
    public var bucketDuration: Duration { .milliseconds(Int64((min(bucketSeconds, 9e12) * 1000).rounded())) }

    /// Computes the statistics of transactions.
    ///
    /// - Parameters:
    ///   - transactions: The transactions, in any order.
    ///   - range: The time range to cover; transactions starting outside it are left out. `nil` (the default)
    ///     covers everything: from the earliest start to the latest end.
    ///   - bucketDuration: The length of one series bucket; 1 second by default. Durations under 1 ms count as
    ///     1 ms; see ``maximumBucketCount``.
    ///   - alignment: Where the buckets start; at the range's start by default.
    ///   - includesEmptyBuckets: Whether the series holds every bucket of the range (the default), or only those
    ///     with a request or bytes (then the bucket is never widened).
    /// - Complexity: O(n log n) in the number of transactions, plus O(b) in the number of buckets in the series.
    public init(
        transactions: [CapturedTransaction],
        range: DateInterval? = nil,
        bucketDuration: Duration = .seconds(1),
        alignment: BucketAlignment = .rangeStart,
        includesEmptyBuckets: Bool = true
    ) {
        let (seconds, attoseconds) = bucketDuration.components
        let requested = max(0.001, Double(seconds) + Double(attoseconds) / 1e18)
        let selected =
            range.map { range in
                transactions.filter { $0.timings.startDate >= range.start && $0.timings.startDate < range.end }
            } ?? transactions
        let covered = range ?? Self.extent(of: selected)
        var bucketSeconds = requested
        if includesEmptyBuckets, let covered,
            Self.layout(of: covered, bucketSeconds: requested, alignment: alignment).count > Self.maximumBucketCount
        {
            bucketSeconds = covered.duration / Double(Self.maximumBucketCount)
            // Aligned buckets may straddle one more boundary: widen until the range fits.
            while Self.layout(of: covered, bucketSeconds: bucketSeconds, alignment: alignment).count
                > Self.maximumBucketCount
            {
                bucketSeconds *= 1.001
            }
        }
        self.bucketSeconds = bucketSeconds
        requestedBucketSeconds = requested
        self.alignment = alignment
        self.range = covered
        total = Self.totals(host: "(all)", transactions: selected)
        var groups: [String: [CapturedTransaction]] = [:]
        for transaction in selected {
            groups[Self.host(of: transaction.request.url), default: []].append(transaction)
        }
        hosts = groups.map { Self.totals(host: $0.key, transactions: $0.value) }
            .sorted { ($0.requests, $1.host) > ($1.requests, $0.host) }
        if let covered {
            let layout = Self.layout(of: covered, bucketSeconds: bucketSeconds, alignment: alignment)
            bucketCount = layout.count
            series = Self.series(
                of: selected,
                range: covered,
                layout: layout,
                bucketSeconds: bucketSeconds,
                includesEmptyBuckets: includesEmptyBuckets
            )
        } else {
            bucketCount = 0
            series = []
        }
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

    /// The host a transaction is grouped under: the URL's host with `:port` when it names one.
    ///
    /// - Parameter url: The request URL.
    /// - Returns: For example `api.example.com` or `127.0.0.1:8080`; ``noHost`` for URLs without one.
    public static func host(of url: URL) -> String {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return noHost }
        return host(of: components)
    }

    /// ``host(of:)-(URL)`` for a URL as a HAR file writes it; ``noHost`` for text that is not a URL.
    ///
    /// - Parameter text: The URL text, for example `https://api.example.com/v1` or `/relative`.
    /// - Returns: The host, with `:port` when the URL names one.
    public static func host(of text: String) -> String {
        guard let components = URLComponents(string: text) else { return noHost }
        return host(of: components)
    }

    /// The label of transactions whose URL has no host (a relative URL in another tool's HAR) or is not a URL,
    /// the same in `nettap report`, `nettap stats` and the HTML report.
    public static let noHost = "(no host)"

    private static func host(of components: URLComponents) -> String {
        // Host names are case-insensitive (RFC 3986 §3.2.2) and a trailing dot names the same host: `API.example.com.`
        // and `api.example.com` are one. A host that needed escaping (`exa%20mple.com`) names no server: the URL is
        // not one (as HAR import reads it). Internationalised names stay as written (`xn--bcher-kva.example`).
        guard let encoded = components.encodedHost, !encoded.isEmpty, !encoded.contains("%") else { return noHost }
        var host = encoded.lowercased()
        if host.count > 1, host.hasSuffix(".") { host.removeLast() }
        if let port = components.port { return "\(host):\(port)" }
        return host
    }

    /// The earliest start to the latest end (or start) of the transactions.
    static func extent(of transactions: [CapturedTransaction]) -> DateInterval? {
        guard let first = transactions.map(\.timings.startDate).min() else { return nil }
        let last = transactions.map { Self.moment(of: $0, milliseconds: $0.timings.end) }.max() ?? first
        return DateInterval(start: first, end: max(first, last))
    }

    private static func moment(of transaction: CapturedTransaction, milliseconds: Double?) -> Date {
        transaction.timings.startDate.addingTimeInterval(max(0, milliseconds ?? 0) / 1000)
    }

    private static func totals(host: String, transactions: [CapturedTransaction]) -> Totals {
        let durations = transactions.compactMap(\.timings.duration).filter { $0 >= 0 }.sorted()
        var sources: [String: Int] = [:]
        for transaction in transactions { sources[transaction.answeredBy, default: 0] += 1 }
        let count = transactions.count
        return Totals(
            host: host,
            requests: count,
            bytesOut: transactions.reduce(0) { $0 + ($1.request.body?.totalByteCount ?? 0) },
            bytesIn: transactions.reduce(0) { $0 + ($1.response?.body?.totalByteCount ?? 0) },
            failed: transactions.filter { $0.state == .failed || $0.state == .cancelled }.count,
            httpErrors: transactions.filter { ($0.response?.statusCode ?? 0) >= 400 }.count,
            clientErrors: transactions.filter { (400..<500).contains($0.response?.statusCode ?? 0) }.count,
            serverErrors: transactions.filter { ($0.response?.statusCode ?? 0) >= 500 }.count,
            p50Milliseconds: nearestRankPercentile(50, of: durations),
            p95Milliseconds: nearestRankPercentile(95, of: durations),
            p99Milliseconds: nearestRankPercentile(99, of: durations),
            answeredBy: sources.map {
                SourceShare(source: $0.key, count: $0.value, share: Double($0.value) / Double(count))
            }
            .sorted { ($0.count, $1.source) > ($1.count, $0.source) }
        )
    }

    /// Where the first bucket starts and how many buckets the range spans.
    private static func layout(
        of range: DateInterval,
        bucketSeconds: Double,
        alignment: BucketAlignment
    ) -> (start: Date, count: Int) {
        switch alignment {
        case .rangeStart:
            return (range.start, max(1, Int(min(9e15, (range.duration / bucketSeconds).rounded(.up)))))
        case .wallClock:
            let first = (range.start.timeIntervalSince1970 / bucketSeconds).rounded(.down)
            let last = (range.end.timeIntervalSince1970 / bucketSeconds).rounded(.down)
            return (Date(timeIntervalSince1970: first * bucketSeconds), Int(min(9e15, last - first)) + 1)
        }
    }

    private static func series(
        of transactions: [CapturedTransaction],
        range: DateInterval,
        layout: (start: Date, count: Int),
        bucketSeconds: Double,
        includesEmptyBuckets: Bool
    ) -> [Bucket] {
        let count = layout.count
        let origin = layout.start
        func index(_ date: Date) -> Int? {
            guard date >= range.start, date <= range.end else { return nil }
            let offset = date.timeIntervalSince(origin)
            // The range's end belongs to the last bucket.
            return min(count - 1, max(0, Int((offset / bucketSeconds).rounded(.down))))
        }
        var requests: [Int: Int] = [:]
        var up: [Int: Int64] = [:]
        var down: [Int: Int64] = [:]
        for transaction in transactions {
            let timings = transaction.timings
            if let bucket = index(timings.startDate) { requests[bucket, default: 0] += 1 }
            if let body = transaction.request.body,
                let bucket = index(moment(of: transaction, milliseconds: timings.requestSent))
            {
                up[bucket, default: 0] += body.totalByteCount
            }
            if let body = transaction.response?.body,
                let bucket = index(moment(of: transaction, milliseconds: timings.end ?? timings.firstByte))
            {
                down[bucket, default: 0] += body.totalByteCount
            }
        }
        let indices =
            includesEmptyBuckets
            ? Array(0..<count) : Set(requests.keys).union(up.keys).union(down.keys).sorted()
        return indices.map { bucket in
            let requestCount = requests[bucket] ?? 0
            let bytesOut = up[bucket] ?? 0
            let bytesIn = down[bucket] ?? 0
            return Bucket(
                start: origin.addingTimeInterval(Double(bucket) * bucketSeconds),
                requests: requestCount,
                bytesOut: bytesOut,
                bytesIn: bytesIn,
                requestsPerSecond: Double(requestCount) / bucketSeconds,
                bytesOutPerSecond: Double(bytesOut) / bucketSeconds,
                bytesInPerSecond: Double(bytesIn) / bucketSeconds
            )
        }
    }
}
