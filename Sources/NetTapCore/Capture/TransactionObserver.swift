import Foundation

/// Sees every transaction event after the fact; can never change or stall traffic.
///
/// Observers are called one event at a time, in order, on NetTap's observer queue, off the request path:
/// a slow observer delays other observers, never a request.
///
/// ## Implementation requirements
/// - Return promptly; hand heavy work (disk, network) to your own queue or actor.
/// - Do not assume any particular thread.
public protocol TransactionObserver: Sendable {
    /// Receives one event.
    /// - Parameter event: The event, with a snapshot of the transaction.
    func observe(_ event: TransactionEvent)
}
