/// The values a capture log's recorders have redacted so far, so that a later transaction is swept of them
/// wherever they reappear (a session cookie one response set, copied into a later request's URL or header).
///
/// Holds at most ``limit`` values (the oldest go first); only values redaction would look for as echoes
/// (``Redactor/minimumEchoLength`` characters or more) are kept. Kept in memory only, never exported.
/// Thread safety: every member may be used from any thread.
package final class CaptureSecrets: Sendable {
    /// How many values are kept.
    package static let limit = 1_024

    private struct State {
        var order: [String] = []
        var values: Set<String> = []
    }

    private let state = Locked(State())

    package init() {}

    /// The values kept, for sweeping a transaction.
    package var current: Set<String> { state.withLock { $0.values } }

    /// Remembers `secrets` (values already kept stay where they are in the order).
    package func add(_ secrets: Set<String>) {
        let fresh = secrets.filter { $0.count >= Redactor.minimumEchoLength }
        guard !fresh.isEmpty else { return }
        state.withLock { state in
            for value in fresh where state.values.insert(value).inserted { state.order.append(value) }
            let excess = state.order.count - Self.limit
            if excess > 0 {
                for value in state.order.prefix(excess) { state.values.remove(value) }
                state.order.removeFirst(excess)
            }
        }
    }

    /// Forgets every value (the log's redactor changed, or the log was cleared).
    package func removeAll() {
        state.withLock { $0 = State() }
    }
}
