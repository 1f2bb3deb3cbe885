import NetTapCore

extension ReportPayload {
    /// The rewrite annotations a transaction's detail shows, in the order rules apply, with readable labels.
    private static let rewriteLabels: [(key: String, label: String)] = [
        ("rewrite.original-url", "App's URL"), ("rewrite.rules", "Rules"),
        ("rewrite.request-headers", "Request headers"), ("rewrite.response-headers", "Response headers"),
        ("rewrite.response-body", "Response body"),
    ]

    /// `[label, value]` pairs of what rewrite rules changed, with `Sent to` (the request URL) after the app's URL of
    /// a map remote; `nil` when no rule changed the transaction.
    static func rewriteFacts(of transaction: CapturedTransaction) -> [[String]]? {
        var facts: [[String]] = []
        for (key, label) in rewriteLabels {
            guard let value = transaction.annotations[key] else { continue }
            facts.append([label, value])
            if key == "rewrite.original-url" { facts.append(["Sent to", transaction.request.url.absoluteString]) }
        }
        return facts.isEmpty ? nil : facts
    }
}
