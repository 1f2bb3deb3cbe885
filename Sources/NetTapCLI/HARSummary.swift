import Foundation
import NetTapCore
import NetTapHAR
import NetTapReport

/// Traffic statistics of a HAR 1.2 log: per host, overall, by status code, and the slowest transactions.
///
/// The per-host and overall figures are NetTap's one statistics engine, `FlowStatistics` (NetTapReport), over the
/// transactions the log describes (`HARDocument.transactions()`), so `nettap report`, `nettap stats` and the HTML
/// report give the same numbers for every file; docs/statistics.md defines each one. The statistics count
/// *transactions*: a request and its fate. A NetTap export writes a transaction that followed N redirects as
/// N + 1 entries (a redirect hop entry per hop, `_netTap.redirectOf`, then the final entry;
/// `HAREntry.entries(for:)`); those hop entries are not counted as requests: ``redirectHopCount`` counts them and
/// ``redirectHopStatusCounts`` has their statuses, and the transaction counts once with its final status and a
/// duration that includes the hops. Entries of other tools are one transaction each (a browser's redirect
/// entries included).
///
/// URLs in the summary are redacted (secret query items and user-info passwords become `[redacted]`, with
/// `Redactor.default`, and values redacted anywhere in the log wherever they reappear), whatever the file holds:
/// a browser's HAR export keeps every token.
///
/// ```swift
/// let summary = HARSummary(entries: try HARDocument.load(contentsOf: url).log.entries)
/// summary.transactionCount      // 52
/// summary.total.requests        // 52
/// summary.hosts.first?.host     // "example.com"
/// ```
package struct HARSummary: Sendable, Hashable, Codable {
    /// How many entries had one status code.
    package struct StatusCount: Sendable, Hashable, Codable {
        /// The HTTP status code (0 for no response).
        package var status: Int
        /// The number of transactions (or redirect hops) with it.
        package var count: Int
    }

    /// One entry of the slowest list.
    package struct SlowEntry: Sendable, Hashable, Codable {
        /// The entry's position in the log, from 0.
        package var index: Int
        /// The request method.
        package var method: String
        /// The request URL, redacted unless the summary was made with `Redactor.disabled`.
        package var url: String
        /// The response status.
        package var status: Int
        /// The protocol of the final exchange (`HTTP/1.1`, `HTTP/2`, …), when the entry says
        /// (`HAREntry.negotiatedHTTPVersion`).
        package var httpVersion: String?
        /// The transaction's duration, in milliseconds (`Timings.duration`: the entry's `time`, plus its
        /// redirect hops').
        package var milliseconds: Double
        /// The GraphQL operation, such as `mutation AddItem`, for a GraphQL request.
        package var graphQLOperation: String?
    }

    /// How many entries one source answered (NetTap's `answeredBy`), and which stubs or cassette entries.
    package struct SourceCount: Sendable, Hashable, Codable {
        /// Who answered: `network`, `mock`, `cassette`, or another handler's name, from the entry's `_netTap`
        /// record; entries of other tools count as `network`.
        package var source: String
        /// The number of entries.
        package var count: Int
        /// For stub answers, how often each stub answered, by name (`scenario/stub` for scenario stubs),
        /// most frequent first then by name; empty for other sources.
        package var stubs: [NamedCount]

        /// Creates a count.
        ///
        /// - Parameters:
        ///   - source: Who answered.
        ///   - count: The number of entries.
        ///   - stubs: Per-stub counts.
        package init(source: String, count: Int, stubs: [NamedCount]) {
            self.source = source
            self.count = count
            self.stubs = stubs
        }
    }

    /// A name and how often it occurred.
    package struct NamedCount: Sendable, Hashable, Codable {
        /// The name.
        package var name: String
        /// The count.
        package var count: Int

        /// Creates a named count.
        ///
        /// - Parameters:
        ///   - name: The name.
        ///   - count: The count.
        package init(name: String, count: Int) {
            self.name = name
            self.count = count
        }
    }

    /// The number of HAR entries read from the log, redirect hop entries included.
    package var entryCount: Int
    /// The number of entries of the file left out because they could not be read (each named by a warning).
    package var entriesLeftOut = 0
    /// The number of transactions: the entries, less the redirect hop entries NetTap folds into their
    /// transaction.
    package var transactionCount: Int
    /// The number of redirect hop entries counted with their transaction rather than as requests.
    package var redirectHopCount: Int
    /// The statuses of the redirect hops, ascending; they are not in ``statusCounts``.
    package var redirectHopStatusCounts: [StatusCount]
    /// Per-host statistics, most requests first, then by host name (`FlowStatistics.hosts`).
    package var hosts: [FlowStatistics.Totals]
    /// The statistics of every transaction; its host is `(all)` (`FlowStatistics.total`, the same object
    /// `nettap stats --json` prints).
    package var total: FlowStatistics.Totals
    /// The status code histogram of the transactions (their final statuses), ascending by status.
    package var statusCounts: [StatusCount]
    /// The slowest transactions, slowest first (ties in log order), at most the limit given at creation.
    package var slowest: [SlowEntry]
    /// Who answered the entries, most entries first then by name: the network, a stub, a cassette, … Only HAR
    /// files written by NetTap know; entries from other tools all count as `network`.
    package var answeredBy: [SourceCount]
    /// The GraphQL operations, most requests first: every GraphQL request counts with its operation (from NetTap's
    /// `graphql.operation` label, or read from the request for other tools' entries); empty when there are none.
    package var graphQLOperations: [GraphQLOperationTotals] = []
    /// The findings: those NetTap recorded in the entries (integrity mismatches, audit findings), and with
    /// `nettap report --audit` those the audit rules find now; most severe first.
    package var findings: [FindingEntry] = []
    /// The transactions NetTap's rewrite rules changed (map remote, header edits, body replacements), in log order.
    package var rewrites: [RewrittenEntry] = []
    /// Whether the URLs were redacted: `on`, or `off` for a summary made with `Redactor.disabled`.
    package var redaction: String

    /// Computes the summary of HAR entries.
    ///
    /// - Parameters:
    ///   - entries: The HAR 1.2 `log.entries`, in log order.
    ///   - slowestLimit: How many of the slowest entries to list; 10 by default.
    ///   - redactor: What is redacted in the URLs listed; `Redactor.default` by default.
    /// - Complexity: O(n log n) in the number of entries.
    package init(entries: [HAREntry], slowestLimit: Int = 10, redactor: Redactor = .default) {
        entryCount = entries.count
        let indexed = HARDocument.indexedTransactions(of: entries)
        let transactions = indexed.map(\.transaction)
        // The entries no transaction was read from are the redirect hops folded into their transactions.
        let hops = Set(entries.indices).subtracting(indexed.map(\.entryIndex))
        var hopCounts: [Int: Int] = [:]
        for index in hops { hopCounts[entries[index].response.status, default: 0] += 1 }
        transactionCount = indexed.count
        redirectHopCount = hops.count
        redirectHopStatusCounts = Self.statusCounts(hopCounts)
        let statistics = FlowStatistics(transactions: transactions, includesEmptyBuckets: false)
        hosts = statistics.hosts
        total = statistics.total
        var counts: [Int: Int] = [:]
        for transaction in transactions { counts[transaction.response?.statusCode ?? 0, default: 0] += 1 }
        statusCounts = Self.statusCounts(counts)
        // One pass over every entry finds the secrets both redacted lists sweep for.
        let secrets = redactor.secrets(of: entries)
        slowest = Self.slowest(indexed, of: entries, limit: slowestLimit, redactor: redactor, secrets: secrets)
        graphQLOperations = Self.graphQLOperations(of: transactions)
        answeredBy = Self.sources(of: transactions)
        rewrites = Self.rewrites(indexed, of: entries, redactor: redactor, secrets: secrets)
        redaction = redactor.isEnabled ? "on" : "off"
    }

    /// The `limit` longest transactions that ended, longest first (ties in log order), their URLs redacted.
    private static func slowest(
        _ indexed: [(entryIndex: Int, transaction: CapturedTransaction)],
        of entries: [HAREntry],
        limit: Int,
        redactor: Redactor,
        secrets: Set<String>
    ) -> [SlowEntry] {
        indexed
            .compactMap { item in item.transaction.timings.duration.map { (item.entryIndex, $0) } }
            .filter { $0.1 >= 0 }
            .sorted { ($0.1, $1.0) > ($1.1, $0.0) }
            .prefix(max(0, limit))
            .map { index, milliseconds in
                let entry = entries[index]
                let graphQL = indexed.first { $0.entryIndex == index }.flatMap {
                    GraphQLRequest.label(of: $0.transaction)
                }
                return SlowEntry(
                    index: index,
                    method: entry.request.method,
                    url: redactor.redactedURL(of: entry, sweeping: secrets),
                    status: entry.response.status,
                    httpVersion: entry.negotiatedHTTPVersion,
                    milliseconds: milliseconds,
                    graphQLOperation: graphQL.map(GraphQLRequest.text(of:))
                )
            }
    }

    private static func statusCounts(_ counts: [Int: Int]) -> [StatusCount] {
        counts.map { StatusCount(status: $0.key, count: $0.value) }.sorted { $0.status < $1.status }
    }

    private static func sources(of transactions: [CapturedTransaction]) -> [SourceCount] {
        var counts: [String: Int] = [:]
        var stubs: [String: [String: Int]] = [:]
        for transaction in transactions {
            let source = transaction.answeredBy
            counts[source, default: 0] += 1
            if let stub = transaction.annotations["stub"] {
                let scenario = transaction.annotations["scenario"]
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
}
