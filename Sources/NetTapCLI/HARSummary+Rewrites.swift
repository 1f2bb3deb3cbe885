import Foundation
import NetTapCore
import NetTapHAR
import NetTapRewrite

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
    ///   - secrets: The secrets `redactor` finds in the whole log (`Redactor.secrets(of:)`).
    /// - Returns: One item per transaction with a `rewrite.` annotation.
    static func rewrites(
        _ indexed: [(entryIndex: Int, transaction: CapturedTransaction)],
        of entries: [HAREntry],
        redactor: Redactor,
        secrets: Set<String>
    ) -> [RewrittenEntry] {
        let rewritten = indexed.filter { item in item.transaction.annotations.keys.contains { $0.hasPrefix("rewrite.") }
        }
        guard !rewritten.isEmpty else { return [] }
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
            let original = notes[RewriteHandler.originalURLAnnotation]
            let parts: [(String, String)] = [
                ("request headers", RewriteHandler.requestHeadersAnnotation),
                ("response headers", RewriteHandler.responseHeadersAnnotation),
                ("response body", RewriteHandler.responseBodyAnnotation),
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
