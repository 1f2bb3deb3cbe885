import Foundation

/// The in-memory record of recent transactions, and the live stream of transaction events.
///
/// Transactions recorded by an interceptor arrive redacted with its ``NetTapInterceptor/redactor`` (secrets replaced
/// by `[redacted]`, see ``CapturedTransaction/redactions``), in the kept snapshots, observers and event streams alike.
///
/// Keeps the newest ``capacity`` transactions (1,000 by default), dropping the oldest first. Observers and
/// event streams are fed on a private serial queue, off the request path.
///
/// ```swift
/// let log = NetTapInterceptor.shared.captureLog
/// Task {
///     for await event in log.events() {
///         if case .finished(let transaction) = event { print(transaction.request.url) }
///     }
/// }
/// ```
///
/// Thread safety: every member may be used from any thread.
public final class CaptureLog: Sendable {
    private struct State {
        var order: [UUID] = []
        var byID: [UUID: CapturedTransaction] = [:]
        var capacity: Int
        var redactor = Redactor.default
        var isCapturing = true
        var observers: [UUID: any TransactionObserver] = [:]
        var streams: [UUID: AsyncStream<TransactionEvent>.Continuation] = [:]
        var waiters:
            [(
                predicate: @Sendable (CapturedTransaction) -> Bool,
                continuation: CheckedContinuation<CapturedTransaction, Never>
            )] =
                []
    }

    private let state: Locked<State>
    private let queue = DispatchQueue(label: "NetTap.CaptureLog.observers")
    /// Where snapshots are redacted and recorded, off the request path (``record(bodyBytes:later:)``).
    private let recording = DispatchQueue(label: "NetTap.CaptureLog.recording")
    /// Events handed to ``record(bodyBytes:later:)`` and not recorded yet (``Backlog``).
    private let backlog = Locked(Backlog())
    private static let recordingKey = DispatchSpecificKey<Void>()
    private static let observersKey = DispatchSpecificKey<Void>()

    /// Creates a log.
    /// - Parameter capacity: How many transactions to keep; at least 1. Defaults to 1,000.
    public init(capacity: Int = 1_000) {
        state = Locked(State(capacity: max(1, capacity)))
        recording.setSpecific(key: Self.recordingKey, value: ())
        queue.setSpecific(key: Self.observersKey, value: ())
    }

    /// How many transactions are kept; lowering it drops the oldest at once.
    public var capacity: Int {
        get { state.withLock { $0.capacity } }
        set {
            state.withLock { state in
                state.capacity = max(1, newValue)
                Self.trim(&state)
            }
        }
    }

    /// Whether requests that start from now on are recorded; `true` by default.
    ///
    /// While `false`, requests still run through every handler (mocks, shaping, the cache) and reach the app as
    /// always, but they are left out of this log, its observers and streams (so of a store, an inspector and every
    /// export) from their start to their end. Requests already under way when it changes are recorded, or not, to
    /// their end, so no transaction is ever kept in part.
    public var isCapturing: Bool {
        get { state.withLock { $0.isCapturing } }
        set { state.withLock { $0.isCapturing = newValue } }
    }

    /// What the interceptor's recorders redact before a transaction reaches this log (``NetTapInterceptor/redactor``).
    ///
    /// Read once per transaction, when its recording starts. Setting it forgets ``secrets``.
    package var redactor: Redactor {
        get { state.withLock { $0.redactor } }
        set {
            state.withLock { $0.redactor = newValue }
            secrets.removeAll()
        }
    }

    /// The values redacted in this log's transactions so far, swept from every later one.
    package let secrets = CaptureSecrets()

    /// The kept transactions, oldest first.
    /// - Complexity: O(n) in the number kept.
    public var transactions: [CapturedTransaction] {
        settle()
        return state.withLock { state in state.order.compactMap { state.byID[$0] } }
    }

    /// The kept transaction with this identifier.
    /// - Parameter id: The transaction identifier.
    /// - Returns: The newest snapshot, or `nil` when unknown or dropped.
    public func transaction(id: UUID) -> CapturedTransaction? {
        settle()
        return state.withLock { $0.byID[id] }
    }

    /// Removes every kept transaction (observers and streams stay) and forgets the values redacted in them.
    public func removeAll() {
        settle()
        state.withLock { state in
            state.order = []
            state.byID = [:]
        }
        secrets.removeAll()
    }

    /// Adds an observer; it receives every later event.
    /// - Parameter observer: The observer.
    /// - Returns: A token for ``removeObserver(_:)``.
    @discardableResult
    public func addObserver(_ observer: any TransactionObserver) -> UUID {
        let token = UUID()
        state.withLock { $0.observers[token] = observer }
        return token
    }

    /// Removes an observer added with ``addObserver(_:)``.
    ///
    /// Every event recorded before the call (a request the app has seen finish included) has reached the observer
    /// when this returns, unless it is called from an observer's `observe(_:)`.
    /// - Parameter token: The token returned when it was added.
    public func removeObserver(_ token: UUID) {
        settle()
        _ = state.withLock { $0.observers.removeValue(forKey: token) }
        guard DispatchQueue.getSpecific(key: Self.observersKey) == nil else { return }
        queue.sync {}
    }

    /// A live stream of every later event; it ends when the consumer stops iterating.
    /// - Parameter bufferLimit: How many undelivered events to hold for a slow consumer before dropping
    ///   the oldest; 10,000 by default.
    /// - Returns: The stream.
    public func events(bufferLimit: Int = 10_000) -> AsyncStream<TransactionEvent> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: TransactionEvent.self,
            bufferingPolicy: .bufferingNewest(bufferLimit)
        )
        let token = UUID()
        state.withLock { $0.streams[token] = continuation }
        continuation.onTermination = { [weak self] _ in
            self?.removeStream(token)
        }
        return stream
    }

    private func removeStream(_ token: UUID) {
        _ = state.withLock { $0.streams.removeValue(forKey: token) }
    }

    /// Waits until a finished transaction matching `predicate` is in the log (already there, or later).
    /// - Parameter predicate: Which transaction to wait for.
    /// - Returns: The finished transaction.
    public func waitForFinished(
        where predicate: @escaping @Sendable (CapturedTransaction) -> Bool
    ) async -> CapturedTransaction {
        settle()
        return await withCheckedContinuation { continuation in
            let existing = state.withLock { state -> CapturedTransaction? in
                var found: CapturedTransaction?
                for id in state.order {
                    if let transaction = state.byID[id], Self.isFinal(transaction), predicate(transaction) {
                        found = transaction
                        break
                    }
                }
                if found == nil { state.waiters.append((predicate, continuation)) }
                return found
            }
            if let existing { continuation.resume(returning: existing) }
        }
    }

    /// Waits until every event recorded so far has reached every observer and event stream.
    ///
    /// Observers are called asynchronously, so a transaction the app has seen finish may not have reached a
    /// store yet; call this before flushing one (`AppliedConfiguration.flush()` does).
    public func waitForObservers() async {
        settle()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async { continuation.resume() }
        }
    }

    /// Records the event `make` builds on the log's recording queue, so the redaction and bookkeeping of a
    /// snapshot do not delay the request it describes; events of one transaction keep their order.
    ///
    /// Every read of the log (``transactions``, ``transaction(id:)``, ``waitForFinished(where:)``, ``removeAll()``)
    /// first waits for the events recorded so far, so a request the app has seen finish is in the log.
    ///
    /// The backlog is bounded (``backlogEventLimit`` events, ``backlogByteLimit`` body bytes): past either, the
    /// caller waits until the queue has caught up. Without the bound, traffic faster than redaction queued
    /// snapshots without end (the soak held 550 MiB of them at 973 requests per second).
    /// - Parameters:
    ///   - bodyBytes: The body bytes this snapshot adds to what is held (the request body when a transaction
    ///     starts, the kept response body when it ends).
    ///   - make: Builds the event (redacts the snapshot); `nil` records nothing.
    package func record(bodyBytes: Int = 0, later make: @escaping @Sendable () -> TransactionEvent?) {
        let (startsDrain, isOverLimit) = backlog.withLock { backlog -> (Bool, Bool) in
            backlog.waiting.append((make, bodyBytes))
            backlog.events += 1
            backlog.bytes += bodyBytes
            let startsDrain = !backlog.isDraining
            backlog.isDraining = true
            return (startsDrain, backlog.events > Self.backlogEventLimit || backlog.bytes > Self.backlogByteLimit)
        }
        if startsDrain { recording.async { [self] in drainBacklog() } }
        if isOverLimit { settle() }
    }

    /// Records waiting events, in order, until none is left (on the recording queue): one dispatch serves every
    /// event handed over while the queue was busy.
    private func drainBacklog() {
        while true {
            let batch = backlog.withLock { backlog -> [Backlog.Item] in
                if backlog.waiting.isEmpty { backlog.isDraining = false }
                defer { backlog.waiting.removeAll(keepingCapacity: true) }
                return backlog.waiting
            }
            guard !batch.isEmpty else { return }
            for (make, bytes) in batch {
                if let event = make() { record(event) }
                backlog.withLock { backlog in
                    backlog.events -= 1
                    backlog.bytes -= bytes
                }
            }
        }
    }

    /// The most events waiting on the recording queue before a caller of ``record(bodyBytes:later:)`` waits.
    static let backlogEventLimit = 2_000
    /// The most body bytes held by waiting events before a caller of ``record(bodyBytes:later:)`` waits: 32 MiB.
    static let backlogByteLimit = 32 * 1_048_576

    /// Whether anything listens to events as they happen (observers or event streams); without listeners a
    /// snapshot that a later one of the same transaction already replaces need not be recorded.
    package var hasListeners: Bool {
        state.withLock { !$0.observers.isEmpty || !$0.streams.isEmpty }
    }

    /// Waits until every event handed to ``record(bodyBytes:later:)`` so far is recorded (not when called from the
    /// recording queue itself).
    private func settle() {
        guard DispatchQueue.getSpecific(key: Self.recordingKey) == nil else { return }
        recording.sync {}
    }

    /// Records an event: updates the kept snapshot and notifies observers and streams asynchronously.
    /// - Parameter event: The event.
    public func record(_ event: TransactionEvent) {
        let transaction = event.transaction
        let (observers, streams, ready) = state.withLock {
            state -> (
                [any TransactionObserver], [AsyncStream<TransactionEvent>.Continuation],
                [CheckedContinuation<CapturedTransaction, Never>]
            ) in
            if state.byID[transaction.id] == nil { Self.insertInStartOrder(transaction, into: &state) }
            state.byID[transaction.id] = transaction
            Self.trim(&state)
            var ready: [CheckedContinuation<CapturedTransaction, Never>] = []
            if case .finished = event {
                state.waiters.removeAll { waiter in
                    guard waiter.predicate(transaction) else { return false }
                    ready.append(waiter.continuation)
                    return true
                }
            }
            return (Array(state.observers.values), Array(state.streams.values), ready)
        }
        for continuation in ready { continuation.resume(returning: transaction) }
        guard !observers.isEmpty || !streams.isEmpty else { return }
        queue.async {
            for stream in streams { stream.yield(event) }
            for observer in observers { observer.observe(event) }
        }
    }

    /// Adds a transaction's identifier where its start puts it (a transaction first recorded when it finished
    /// goes before those that started after it), searching from the newest end.
    private static func insertInStartOrder(_ transaction: CapturedTransaction, into state: inout State) {
        let start = transaction.timings.startDate
        var index = state.order.endIndex
        while index > state.order.startIndex,
            let previous = state.byID[state.order[index - 1]], previous.timings.startDate > start
        {
            index -= 1
        }
        state.order.insert(transaction.id, at: index)
    }

    /// The events handed to ``record(bodyBytes:later:)``: those not taken by the recording queue yet, and the
    /// count and body bytes of all not recorded yet.
    private struct Backlog {
        typealias Item = (make: @Sendable () -> TransactionEvent?, bodyBytes: Int)
        var waiting: [Item] = []
        var events = 0
        var bytes = 0
        /// Whether a drain is queued or running on the recording queue (it takes what arrives meanwhile).
        var isDraining = false
    }

    private static func isFinal(_ transaction: CapturedTransaction) -> Bool {
        transaction.state == .completed || transaction.state == .failed || transaction.state == .cancelled
    }

    private static func trim(_ state: inout State) {
        let excess = state.order.count - state.capacity
        guard excess > 0 else { return }
        for id in state.order.prefix(excess) { state.byID[id] = nil }
        state.order.removeFirst(excess)
    }
}
