import Foundation

/// A clock that moves only when a test says so, for testing delays without sleeping.
///
/// Handlers sleep on `NetTapCore/TransactionContext/clock`; give the interceptor or harness a `ManualClock`
/// and call ``advance(by:)`` to wake them deterministically.
///
/// ```swift
/// let clock = ManualClock()
/// async let response = harness.send(request)       // a handler sleeps 300 ms
/// await clock.waitForSleepers(count: 1)
/// clock.advance(by: .milliseconds(300))
/// ```
///
/// Thread safety: every member may be used from any thread.
public final class ManualClock: Clock, @unchecked Sendable {
    /// A point on the test clock: the duration since the clock was created.
    public struct Instant: InstantProtocol, Sendable, Hashable, Comparable {
        /// The time since the clock's origin.
        public var offset: Duration

        /// Creates an instant at `offset` from the origin.
        /// - Parameter offset: The time since the clock's origin.
        public init(offset: Duration) {
            self.offset = offset
        }

        /// The instant `duration` later.
        /// - Parameter duration: The amount to move.
        /// - Returns: The later (or earlier, for negative durations) instant.
        public func advanced(by duration: Duration) -> Instant {
            Instant(offset: offset + duration)
        }

        /// The duration from this instant to `other`.
        /// - Parameter other: The other instant.
        /// - Returns: `other - self`.
        public func duration(to other: Instant) -> Duration {
            other.offset - offset
        }

        /// Orders instants by offset.
        /// - Parameters:
        ///   - lhs: One instant.
        ///   - rhs: Another instant.
        /// - Returns: Whether `lhs` is earlier.
        public static func < (lhs: Instant, rhs: Instant) -> Bool {
            lhs.offset < rhs.offset
        }
    }

    private struct Sleeper {
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var jumpsToDeadlines = false
        var sleepers: [UUID: Sleeper] = [:]
        /// Tests waiting in ``waitForSleepers(count:)`` or ``waitForSleeper(until:)``: each is resumed once its
        /// condition holds for the sleepers' deadlines.
        var sleeperWaiters: [(isMet: ([Instant]) -> Bool, continuation: CheckedContinuation<Void, Never>)] = []

        /// Removes and returns the waiters whose condition now holds.
        mutating func readyWaiters() -> [CheckedContinuation<Void, Never>] {
            let deadlines = sleepers.values.map(\.deadline)
            var ready: [CheckedContinuation<Void, Never>] = []
            sleeperWaiters.removeAll { waiter in
                guard waiter.isMet(deadlines) else { return false }
                ready.append(waiter.continuation)
                return true
            }
            return ready
        }
    }

    private let lock = NSLock()
    private var state = State()

    /// Creates a clock at offset zero.
    public init() {}

    /// The current instant; changes only through ``advance(by:)``.
    public var now: Instant {
        lock.lock()
        defer { lock.unlock() }
        return state.now
    }

    /// The smallest step the clock distinguishes: one nanosecond.
    public var minimumResolution: Duration { .nanoseconds(1) }

    /// Whether every sleep comes due at once, moving ``now`` to its deadline (for checks that must not wait on
    /// a handler's delays, such as `HandlerContract`); `false` by default.
    package var jumpsToDeadlines: Bool {
        get { lock.withLock { state.jumpsToDeadlines } }
        set { lock.withLock { state.jumpsToDeadlines = newValue } }
    }

    /// How many tasks are sleeping on the clock right now.
    public var sleeperCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return state.sleepers.count
    }

    /// Suspends until the clock reaches `deadline` (through ``advance(by:)``) or the task is cancelled.
    /// - Parameters:
    ///   - deadline: The instant to wait for.
    ///   - tolerance: Ignored.
    /// - Throws: `CancellationError` when the task is cancelled first.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = UUID()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                lock.lock()
                if state.jumpsToDeadlines, !Task.isCancelled { state.now = max(state.now, deadline) }
                if deadline <= state.now {
                    lock.unlock()
                    continuation.resume()
                    return
                }
                if Task.isCancelled {
                    lock.unlock()
                    continuation.resume(throwing: CancellationError())
                    return
                }
                state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                let ready = state.readyWaiters()
                lock.unlock()
                for waiter in ready { waiter.resume() }
            }
        } onCancel: {
            lock.lock()
            let sleeper = state.sleepers.removeValue(forKey: id)
            lock.unlock()
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves the clock forward and wakes every sleeper whose deadline has come, earliest first.
    /// - Parameter duration: How far to move; must not be negative.
    public func advance(by duration: Duration) {
        lock.lock()
        state.now = state.now.advanced(by: max(.zero, duration))
        let now = state.now
        let due = state.sleepers.filter { $0.value.deadline <= now }.sorted { $0.value.deadline < $1.value.deadline }
        for (id, _) in due { state.sleepers[id] = nil }
        lock.unlock()
        for (_, sleeper) in due { sleeper.continuation.resume() }
    }

    /// Waits until at least `count` tasks sleep on the clock, so a test can advance it at the right moment.
    /// - Parameter count: The number of sleepers to wait for; 1 by default.
    public func waitForSleepers(count: Int = 1) async {
        await waitUntil { deadlines in deadlines.count >= count }
    }

    /// Waits until a task sleeps on the clock until exactly `deadline`.
    ///
    /// More precise than ``waitForSleepers(count:)`` when several tasks sleep (a handler's delay and the
    /// request's idle timeout, say): the test advances the clock only once the sleeper it means to wake is there,
    /// whichever registers first.
    ///
    /// ```swift
    /// await clock.waitForSleeper(until: clock.now.advanced(by: .seconds(2)))   // the handler's 2 s delay
    /// clock.advance(by: .seconds(2))
    /// ```
    /// - Parameter deadline: The instant the sleeper waits for.
    public func waitForSleeper(until deadline: Instant) async {
        await waitUntil { deadlines in deadlines.contains(deadline) }
    }

    private func waitUntil(_ isMet: @escaping ([Instant]) -> Bool) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            lock.lock()
            if isMet(state.sleepers.values.map(\.deadline)) {
                lock.unlock()
                continuation.resume()
                return
            }
            state.sleeperWaiters.append((isMet, continuation))
            lock.unlock()
        }
    }
}
