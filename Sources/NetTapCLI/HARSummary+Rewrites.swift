import Foundation
import NetTapCore
import NetTapHAR

extension HARSummary {
    /// A transaction the rewrite rules changed (NetTap's `rewrite.*` annotations in its `_netTap` record).
    package struct RewrittenEntry: Sendable, Hashable, Codable {
        /// The entry's position in the log, from 0 (as `mock save --entry` takes it).
        package var index: Int
        /// The request method.
        package var method: String
        /// The URL the app asked for: the original URL of a map remote, else the request URL (redacted).
        package var url: String
        /// Where the request went instead, when a map remote sent it elsewhere (redacted).
        package var sentTo: String?
        /// What changed, one item per part: `request headers: set X-Debug`, `response body: …`.
        package var changes: [String]
    }

    /// The rewritten transactions, in log order, their URLs and notes redacted as the summary's other URLs.
    ///
    /// - Parameters:
    ///   - indexed: The transactions with the index of the entry each was read from.
    ///   - entries: The log's entries.
    ///   - redactor: What redacts the URLs and notes.
    /// - Returns: One item per transaction with a `rewrite.` annotation.
    static func rewrites(
        _ indexed: [(entryIndex: Int, transaction: CapturedTransaction)],
        of entries: [HAREntry],
        redactor: Redactor
    ) -> [RewrittenEntry] {
        let rewritten = indexed.filter { item in item.transaction.annotations.keys.contains { $0.hasPrefix("rewrite.") }
        }
        guard !rewritten.isEmpty else { return [] }
        let secrets = redactor.secrets(of: entries)
        return rewritten.map { item in
            var transaction = item.transaction
            if redactor.isEnabled {
                transaction =
                    redactor.redact(
                        transaction: transaction,
                        request: redactor.redaction(of: transaction.request),
                        sweeping: secrets
                    )
                    .redacted.value
            }
            let notes = transaction.annotations
            let original = notes["rewrite.original-url"]
            let parts: [(String, String)] = [
                ("request headers", "rewrite.request-headers"), ("response headers", "rewrite.response-headers"),
                ("response body", "rewrite.response-body"),
            ]
            return RewrittenEntry(
                index: item.entryIndex,
                method: transaction.request.method,
                url: original ?? transaction.request.url.absoluteString,
                sentTo: original.map { _ in transaction.request.url.absoluteString },
                changes: parts.compactMap { name, key in notes[key].map { "\(name): \($0)" } }
            )
        }
    }
}
