import Foundation
import NetTapCore

/// One finding together with the transaction it was made on, as listed by `findings(minimumSeverity:rule:)`.
public struct TransactionFinding: Sendable, Hashable {
    /// The transaction the finding belongs to.
    public var transaction: CapturedTransaction
    /// The finding.
    public var finding: Finding

    /// Pairs a finding with its transaction.
    ///
    /// - Parameters:
    ///   - transaction: The transaction.
    ///   - finding: One of its findings.
    public init(transaction: CapturedTransaction, finding: Finding) {
        self.transaction = transaction
        self.finding = finding
    }

    /// One line: `GET https://api.example.com/login [high] plaintext.credentials at header Authorization: …`.
    ///
    /// The URL is shown without its query, fragment and user info, which may hold the very secrets found.
    public var summary: String {
        "\(transaction.request.method) \(FindingList.shown(transaction.request.url)) \(finding.summary)"
    }
}

extension Sequence where Element == CapturedTransaction {
    /// The findings of these transactions, filtered by severity and rule, in transaction order and, within a
    /// transaction, in the order they were added.
    ///
    /// ```swift
    /// let serious = interceptor.captureLog.transactions.findings(minimumSeverity: .medium)
    /// let plaintext = interceptor.captureLog.transactions.findings(rule: "plaintext")   // both plaintext rules
    /// ```
    ///
    /// - Parameters:
    ///   - minimumSeverity: The least severity listed; `info` (everything) by default.
    ///   - rule: A rule identifier (`cookie.insecure`), or a prefix ending before a dot (`pii` lists `pii.email`
    ///     and `pii.card`); `nil` lists every rule, also those of other handlers (`integrity.mismatch`).
    /// - Returns: The matching findings with their transactions.
    /// - Complexity: O(number of transactions + number of findings).
    public func findings(minimumSeverity: Finding.Severity = .info, rule: String? = nil) -> [TransactionFinding] {
        flatMap { transaction in
            transaction.findings.filter { finding in
                guard finding.severity >= minimumSeverity else { return false }
                guard let rule else { return true }
                return finding.rule == rule || finding.rule.hasPrefix(rule + ".")
            }
            .map { TransactionFinding(transaction: transaction, finding: $0) }
        }
    }

    /// The findings of these transactions made by one audit rule, at or above a severity.
    ///
    /// - Parameters:
    ///   - rule: The rule.
    ///   - minimumSeverity: The least severity listed; `info` by default.
    /// - Returns: The matching findings with their transactions.
    /// - Complexity: O(number of transactions + number of findings).
    public func findings(of rule: AuditRule, minimumSeverity: Finding.Severity = .info) -> [TransactionFinding] {
        findings(minimumSeverity: minimumSeverity, rule: rule.id)
    }
}
