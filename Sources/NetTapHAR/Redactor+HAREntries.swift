import Foundation
import NetTapCore

extension Redactor {
    /// The values this redactor redacts anywhere in `entries`, none with redaction off.
    ///
    /// A cookie one response set, a token one request carried: what every other entry of the same document is
    /// swept of.
    ///
    /// - Complexity: one redaction pass per entry.
    package func secrets(of entries: [HAREntry]) -> Set<String> {
        guard isEnabled else { return [] }
        return entries.reduce(into: Set<String>()) { secrets, entry in
            secrets.formUnion(redactionPass(of: entry.transaction()).secrets)
        }
    }

    /// An entry's request URL as a redacted export shows it: secret query items and a user-info password
    /// replaced, and `secrets` (``secrets(of:)`` of its document) swept; text that is not a URL is kept.
    package func redactedURL(of entry: HAREntry, sweeping secrets: Set<String>) -> String {
        guard isEnabled, URL(string: entry.request.url) != nil else { return entry.request.url }
        let transaction = entry.transaction()
        let redacted = redact(transaction: transaction, request: redaction(of: transaction.request), sweeping: secrets)
        return redacted.redacted.value.request.url.absoluteString
    }
}
