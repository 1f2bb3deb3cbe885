extension TransactionContext: CustomStringConvertible {
    /// One line: the transaction's id, who answered, and how many annotations, findings and redirect hops it has.
    public var description: String {
        "TransactionContext(\(id.uuidString.prefix(8)), answered by \(answeredBy), \(annotations.count) annotations, "
            + "\(findings.count) findings, \(redirects.count) redirects)"
    }
}
