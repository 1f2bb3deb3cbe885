import Foundation

/// Suspends a task until it is cancelled, with no timer: what a body that stalls waits on.
///
/// A stalled body ends the way a silent server's does, by the request's own idle timeout or the app cancelling,
/// both of which cancel the waiting task; nothing here decides when.
package enum CancellationWait {
    /// Returns only by throwing, once the current task is cancelled (at once when it already is).
    ///
    /// - Throws: `CancellationError`.
    package static func untilCancelled() async throws {
        let waiter = Locked<(continuation: CheckedContinuation<Void, Never>?, isCancelled: Bool)>((nil, false))
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let alreadyCancelled = waiter.withLock { state -> Bool in
                    if state.isCancelled { return true }
                    state.continuation = continuation
                    return false
                }
                if alreadyCancelled { continuation.resume() }
            }
        } onCancel: {
            let continuation = waiter.withLock { state -> CheckedContinuation<Void, Never>? in
                state.isCancelled = true
                defer { state.continuation = nil }
                return state.continuation
            }
            continuation?.resume()
        }
        throw CancellationError()
    }
}
