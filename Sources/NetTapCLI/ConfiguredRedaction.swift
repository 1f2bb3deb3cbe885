import Foundation
import NetTapCore
import NetTapHAR
import NetTapStore

extension HARSummary {
    /// Replaces secrets in the URLs of ``slowest`` (query items such as `token`, a URL's password), for output
    /// made under `--config` (see ``CommandEnvironment/configuredRedactor``).
    ///
    /// - Parameter redactor: What counts as secret.
    mutating func redactURLs(with redactor: Redactor) {
        for index in slowest.indices {
            guard let url = URL(string: slowest[index].url) else { continue }
            slowest[index].url = redactor.redact(url: url).value.absoluteString
        }
    }
}

extension QueryCommand {
    /// The HAR document of the transactions matching `query`, oldest first, each redacted with `redactor` when one
    /// is given (`--config`); `TransactionStore.exportHAR(matching:)` otherwise.
    static func exportHAR(
        _ store: TransactionStore,
        matching query: StoreQuery,
        redactor: Redactor?
    ) async throws(StoreError) -> HARDocument {
        guard let redactor else { return try await store.exportHAR(matching: query) }
        let transactions = try await store.transactions(matching: query, includingBodies: true)
        return HARDocument(transactions: transactions.reversed().map { redactor.redact(transaction: $0).value })
    }
}
