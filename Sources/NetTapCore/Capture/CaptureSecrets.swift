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

    /// Redacts a transaction of the capture: its own secrets, and the values earlier transactions redacted
    /// wherever they reappear; this one's secrets join the kept values.
    ///
    /// - Parameters:
    ///   - transaction: The transaction, unredacted.
    ///   - redactor: The capture's redactor.
    ///   - request: `redactor.redaction(of: transaction.request)` when already made.
    /// - Returns: The redacted transaction.
    package func redact(
        _ transaction: CapturedTransaction,
        with redactor: Redactor,
        request: Redactor.RequestRedaction? = nil
    ) -> CapturedTransaction {
        guard redactor.isEnabled else { return transaction }
        let result = redactor.redact(
            transaction: transaction,
            request: request ?? redactor.redaction(of: transaction.request),
            sweeping: current
        )
        add(result.secrets)
        return result.redacted.value
    }

    /// Forgets every value (the log's redactor changed, or the log was cleared).
    package func removeAll() {
        state.withLock { $0 = State() }
    }
}
