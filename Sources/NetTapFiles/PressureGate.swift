import Foundation
import NetTapCore

/// A gate a body producer waits at while the app is behind on reading (back-pressure), opened again when the
/// app catches up or the body is cancelled.
///
/// Thread safety: every member may be used from any thread.
final class PressureGate: Sendable {
    private struct State {
        var isClosed = false
        var isCancelled = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Locked(State())

    /// Closes (`true`) or opens (`false`) the gate.
    func setClosed(_ closed: Bool) {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.isClosed = closed && !state.isCancelled
            guard !state.isClosed else { return [] }
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Opens the gate for good.
    func cancel() {
        state.withLock { $0.isCancelled = true }
        setClosed(false)
    }

    /// Returns when the gate is open.
    func waitUntilOpen() async {
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
