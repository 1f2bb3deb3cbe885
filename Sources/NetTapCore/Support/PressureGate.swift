import Foundation

/// A gate a body producer waits at while the app is behind on reading (back-pressure), opened again when the
/// app catches up or the body is cancelled.
///
/// Close it from a `BodyChannel` pressure handler (`setPressureHandler`) and cancel it when the reader goes
/// away, so a waiting producer is never left waiting.
///
/// Thread safety: every member may be used from any thread.
package final class PressureGate: Sendable {
    private struct State {
        var isClosed = false
        var isCancelled = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Locked(State())

    /// Creates an open gate.
    package init() {}

    /// Closes (`true`) or opens (`false`) the gate; a cancelled gate stays open.
    package func setClosed(_ closed: Bool) {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.isClosed = closed && !state.isCancelled
            guard !state.isClosed else { return [] }
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Opens the gate for good.
    package func cancel() {
        state.withLock { $0.isCancelled = true }
        setClosed(false)
    }

    /// Returns when the gate is open.
    package func waitUntilOpen() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let isOpen = state.withLock { state -> Bool in
                guard state.isClosed else { return true }
                state.waiters.append(continuation)
                return false
            }
            if isOpen { continuation.resume() }
        }
    }
}
