import Foundation
import NetTapCore

extension HARDocument {
    /// Creates a HAR 1.2 document with one entry per transaction, in the given order.
    ///
    /// - Parameters:
    ///   - transactions: The transactions, for example a capture log's.
    ///   - creator: The `creator` to record; NetTap by default.
    /// - Complexity: O(total size of the transactions' bodies).
    public init(transactions: [Transaction], creator: HARCreator = .netTap) {
        self.init(log: HARLog(creator: creator, pages: [], entries: transactions.map { HAREntry(transaction: $0) }))
    }

    /// The transactions the entries describe, in order (see ``HAREntry/transaction()``).
    ///
    /// - Returns: One transaction per entry.
    public func transactions() -> [Transaction] {
        log.entries.map { $0.transaction() }
    }
}
