import Foundation
import NetTapCore

/// The traffic an inspector shows.
///
/// What has happened so far, a transaction by id for its bodies, and what happens next: a running app's
/// `CaptureLog` is live; a HAR file or a store opened by `nettap inspect` is a fixed list.
///
/// Transactions are shown as they are held: a capture log's are already redacted with its redactor.
package protocol InspectedTraffic: Sendable {
    /// Every transaction held now, in start order.
    var transactions: [CapturedTransaction] { get }
    /// The transaction with `id`, for its bodies; `nil` when it is not held (any more).
    func transaction(id: UUID) -> CapturedTransaction?
    /// Calls `observe` with each later event, on one serial queue, until ``stopObserving(_:)``; `nil` when the
    /// traffic never changes.
    func observe(_ observe: @escaping @Sendable (TransactionEvent) -> Void) -> UUID?
    /// Stops the calls ``observe(_:)`` started.
    func stopObserving(_ token: UUID)
}

extension CaptureLog: InspectedTraffic {
    package func observe(_ observe: @escaping @Sendable (TransactionEvent) -> Void) -> UUID? {
        addObserver(ClosureObserver(observe))
    }

    package func stopObserving(_ token: UUID) {
        removeObserver(token)
    }
}

/// A transaction observer made of a closure.
private struct ClosureObserver: TransactionObserver {
    let body: @Sendable (TransactionEvent) -> Void
    init(_ body: @escaping @Sendable (TransactionEvent) -> Void) { self.body = body }
    func observe(_ event: TransactionEvent) { body(event) }
}

/// Transactions read from a file: shown once, never changing.
package struct RecordedTraffic: InspectedTraffic {
    package let transactions: [CapturedTransaction]
    private let byID: [UUID: CapturedTransaction]

    /// Holds `transactions` in the order given.
    package init(_ transactions: [CapturedTransaction]) {
        self.transactions = transactions
        self.byID = Dictionary(transactions.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    package func transaction(id: UUID) -> CapturedTransaction? { byID[id] }
    package func observe(_ observe: @escaping @Sendable (TransactionEvent) -> Void) -> UUID? { nil }
    package func stopObserving(_ token: UUID) {}
}
