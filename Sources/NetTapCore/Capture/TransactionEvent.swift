import Foundation

/// Something that happened to a transaction, delivered to observers with a snapshot of the transaction.
public enum TransactionEvent: Sendable, Hashable {
    /// The request entered NetTap.
    case started(Transaction)
    /// The final response head arrived (after any redirects).
    case responseReceived(Transaction)
    /// The transaction ended: completed, failed or cancelled. The snapshot is final.
    case finished(Transaction)

    /// The transaction snapshot the event carries.
    public var transaction: Transaction {
        switch self {
        case .started(let transaction), .responseReceived(let transaction), .finished(let transaction):
            transaction
        }
    }
}
