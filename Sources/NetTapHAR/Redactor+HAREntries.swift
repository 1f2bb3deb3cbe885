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
    /// replaced, and `secrets` (``secrets(of:)`` of its document) swept; text that is not a URL is shown as written,
    /// its query redacted.
    package func redactedURL(of entry: HAREntry, sweeping secrets: Set<String>) -> String {
        guard isEnabled else { return entry.request.url }
        let transaction = entry.transaction()
        let redacted = redact(transaction: transaction, request: redaction(of: transaction.request), sweeping: secrets)
        let url = redacted.redacted.value.request.url
        guard URL(string: entry.request.url) == nil, url.scheme == nil,
            let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        else { return url.absoluteString }
        // Text that is no URL became a relative URL of its escaped text (`HARURL`): show it as the file wrote it,
        // with the query as redacted.
        return components.path + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
    }
}
