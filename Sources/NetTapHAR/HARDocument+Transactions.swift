import Foundation
import NetTapCore

extension HARDocument {
    /// Creates a HAR 1.2 document with the entries of each transaction, in the given order, secrets redacted.
    ///
    /// A transaction gives one entry, or N + 1 when it followed N redirects: one per hop, then the final
    /// request's, as Chrome and Firefox write them (see ``HAREntry/entries(for:)``). HAR viewers then show each
    /// URL with its own status; ``transactions()`` folds the hops back.
    ///
    /// Every transaction goes through `redactor` first (`Redactor.redact(transaction:)`): a capture log's
    /// transactions, already redacted when captured, come out unchanged, and others (built by hand, captured
    /// with `Redactor.disabled`) lose their secrets here. `creator.comment` records the choice:
    /// `{"redaction": "on"}`, or `{"redaction": "off"}` for `Redactor.disabled`, the explicit way to export
    /// secrets (``HARCreator/recordingRedaction(_:)``).
    ///
    /// - Parameters:
    ///   - transactions: The transactions, for example a capture log's.
    ///   - creator: The `creator` to record; NetTap by default.
    ///   - redactor: What is redacted; `Redactor.default` by default, `Redactor.disabled` to keep everything.
    /// - Complexity: O(total size of the transactions' bodies and hops).
    public init(transactions: [CapturedTransaction], creator: HARCreator = .netTap, redactor: Redactor = .default) {
        let redacted = redactor.redact(transactions: transactions).map(\.value)
        self.init(
            log: HARLog(
                creator: creator.recordingRedaction(redactor.isEnabled),
                pages: [],
                entries: redacted.flatMap { HAREntry.entries(for: $0) }
            )
        )
    }

    /// The transactions the entries describe, in order (see ``HAREntry/transaction()``).
    ///
    /// Entries from other tools give one transaction each. The redirect hop entries NetTap wrote
    /// (``HAREntry/isRedirectHop``) are folded into the transaction of their final entry, which keeps the hops
    /// in its `_netTap` record; the first hop entry gives back the request headers and body as first sent.
    /// A hop entry whose final entry is missing from the document becomes a transaction of its own.
    ///
    /// - Returns: One transaction per entry, hop entries excepted.
    /// - Complexity: O(number of entries plus the size of their bodies).
    public func transactions() -> [CapturedTransaction] {
        Self.indexedTransactions(of: log.entries).map(\.transaction)
    }

    /// ``transactions()`` of `entries`, each with the index in `entries` of the entry it was read from (the
    /// final entry of a transaction with redirect hops).
    package static func indexedTransactions(
        of entries: [HAREntry]
    ) -> [(entryIndex: Int, transaction: CapturedTransaction)] {
        var hopCounts: [UUID: Int] = [:]
        for entry in entries where !entry.isRedirectHop {
            if let id = entry.netTap?.id, let count = entry.netTap?.redirects?.count, count > 0 {
                hopCounts[id] = count
            }
        }
        func foldedHop(_ entry: HAREntry) -> (id: UUID, hop: Int)? {
            guard let id = entry.netTap?.redirectOf, let hop = entry.netTap?.hop, let count = hopCounts[id],
                (0..<count).contains(hop)
            else { return nil }
            return (id, hop)
        }
        var firstRequests: [UUID: CapturedRequest] = [:]
        for entry in entries {
            if let (id, hop) = foldedHop(entry), hop == 0, firstRequests[id] == nil {
                firstRequests[id] = entry.request.capturedRequest()
            }
        }
        // An entry without a usable start (warned about when read) starts with the file's earliest, not in 1970.
        let starts = entries.map { HARDate.date(from: $0.startedDateTime) }
        let earliest = starts.lazy.compactMap { $0 }.min()
        return entries.enumerated().compactMap { index, entry in
            guard foldedHop(entry) == nil else { return nil }
            var transaction = entry.transaction(parsedStart: starts[index])
            if let earliest, starts[index] == nil, entry.netTap?.startSecondsSince2001 == nil {
                transaction.timings.startDate = earliest
            }
            if let id = entry.netTap?.id, hopCounts[id] != nil, let first = firstRequests[id] {
                transaction.request.headers = first.headers
                transaction.request.body = first.body
            }
            return (index, transaction)
        }
    }
}
