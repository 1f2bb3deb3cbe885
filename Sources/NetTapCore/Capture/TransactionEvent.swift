import Foundation

/// Something that happened to a transaction, delivered to observers with a snapshot of the transaction.
public enum TransactionEvent: Sendable, Hashable {
    /// The request entered NetTap.
    case started(CapturedTransaction)
    /// The final response head arrived (after any redirects).
    case responseReceived(CapturedTransaction)
    /// The transaction ended: completed, failed or cancelled. The snapshot is final.
    case finished(CapturedTransaction)

    /// The transaction snapshot the event carries.
    public var transaction: CapturedTransaction {
        switch self {
        case .started(let transaction), .responseReceived(let transaction), .finished(let transaction):
            transaction
        }
    }
}
