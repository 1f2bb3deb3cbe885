import Foundation

/// Something a handler noticed about a transaction that a reviewer should see: an integrity mismatch, a secret
/// sent in clear, an oversized image.
///
/// Findings are added by handlers through ``TransactionContext/addFinding(_:)``, kept on the
/// ``CapturedTransaction/findings`` of the captured transaction, written to a HAR entry's `comment` (one line each) and
/// to its `_netTap` record, and listed by `nettap report`.
///
/// ```swift
/// context.addFinding(Finding(
///     rule: "integrity.mismatch", severity: .high, location: "body",
///     message: "SHA-256 of /app.js does not match its file name",
///     details: ["expected": "sha256-…", "actual": "sha256-…", "action": "fallback"]))
/// ```
public struct Finding: Sendable, Hashable, Codable {
    /// How much a finding matters, from least to most.
    public enum Severity: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
        /// Worth knowing; nothing is wrong.
        case info
        /// A weakness with little exposure.
        case low
        /// A weakness a reviewer should fix.
        case medium
        /// Data exposed, or content that is not what was expected.
        case high

        /// Orders severities from ``info`` to ``high``.
        ///
        /// - Parameters:
        ///   - lhs: A severity.
        ///   - rhs: Another severity.
        /// - Returns: `true` when `lhs` matters less than `rhs`.
        public static func < (lhs: Severity, rhs: Severity) -> Bool {
            let order = Severity.allCases
            return (order.firstIndex(of: lhs) ?? 0) < (order.firstIndex(of: rhs) ?? 0)
        }
    }

    /// The rule that produced the finding, a dotted identifier such as `integrity.mismatch`.
    public var rule: String
    /// How much it matters.
    public var severity: Severity
    /// Where in the transaction: `body`, `header Authorization`, `query password`, a JSON path such as
    /// `$.user.token`; `nil` for the transaction as a whole.
    public var location: String?
    /// One sentence a person reads: what was found and why it matters.
    public var message: String
    /// Machine-readable facts, such as `expected` and `actual` digests or the `action` taken.
    public var details: [String: String]

    /// Creates a finding.
    ///
    /// - Parameters:
    ///   - rule: The rule identifier, such as `integrity.mismatch`.
    ///   - severity: How much it matters.
    ///   - location: Where in the transaction, or `nil` for the whole transaction.
    ///   - message: One readable sentence.
    ///   - details: Machine-readable facts; empty by default.
    public init(
        rule: String,
        severity: Severity,
        location: String? = nil,
        message: String,
        details: [String: String] = [:]
    ) {
        self.rule = rule
        self.severity = severity
        self.location = location
        self.message = message
        self.details = details
    }

    /// The finding as one line of text, for HAR `comment` and the CLI.
    ///
    /// The shape is `[high] integrity.mismatch at body: message (action=fallback, …)`, details sorted by key.
    public var summary: String {
        var text = "[\(severity.rawValue)] \(rule)"
        if let location { text += " at \(location)" }
        text += ": \(message)"
        if !details.isEmpty {
            let facts = details.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            text += " (" + facts.joined(separator: ", ") + ")"
        }
        return text
    }
}
