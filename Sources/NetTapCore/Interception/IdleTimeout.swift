import Foundation

/// Fails a request on the pipeline path when nothing arrives for its idle interval, as the platform's own
/// timer fails a silent network transfer (`URLError(.timedOut)`).
///
/// The interval restarts at every ``touch()`` (the response head, each body chunk). It is measured on the
/// interceptor's injected clock, so a test that drives a `ManualClock` sees the timeout without waiting; the
/// watchdog is then one more sleeper on that clock while the request is in flight.
///
/// Exactly one of "fired" and ``stop()`` wins: `onTimeout` runs only when no `stop()` came first, and `stop()`
/// reports whether it came first.
///
/// A `grace` closure, asked whenever the interval runs out, may postpone the timeout by the duration it returns
/// (the watch keeps running meanwhile, so `stop()` still wins): the interceptor uses it while the forwarding
/// transport waits for a response head, because that transport's session times the request out by itself, with
/// the platform's own rules (upload progress counts there, for one), and handlers above it (an offline cache) may
/// answer its `URLError(.timedOut)`.
///
/// Thread safety: every member may be used from any thread.
final class IdleTimeout: Sendable {
    private let watch: any IdleWatch

    private init(watch: any IdleWatch) {
        self.watch = watch
    }

    /// Starts watching.
    /// - Parameters:
    ///   - interval: The idle interval; zero fires at once, as the platform does for intervals under a second.
    ///   - clock: The clock to measure on.
    ///   - grace: Asked whenever the interval runs out: a duration postpones the timeout by that much, `nil` lets
    ///     it fire. Called under the watch's lock; it must not call back into the watch.
    ///   - onTimeout: Run once, from the watchdog's task, when the interval passes without a ``touch()``.
    /// - Returns: The running watchdog.
    static func start(
        after interval: Duration,
        on clock: any Clock<Duration>,
        grace: @escaping @Sendable () -> Duration? = { nil },
        onTimeout: @escaping @Sendable () -> Void
    ) -> IdleTimeout {
        IdleTimeout(watch: makeWatch(clock, interval: interval, grace: grace, onTimeout: onTimeout))
    }

    private static func makeWatch<C: Clock<Duration>>(
        _ clock: C,
        interval: Duration,
        grace: @escaping @Sendable () -> Duration?,
        onTimeout: @escaping @Sendable () -> Void
    ) -> any IdleWatch {
        // The real clock: an entry of the shared deadline scheduler costs a lock and a dictionary insert; a
        // Dispatch timer per request woke libdispatch's manager thread twice, a Swift task sleeping on the clock
        // costs more still, on every request through handlers.
        if clock is ContinuousClock {
            return TimerWatch(interval: interval, grace: grace, onTimeout: onTimeout)
        }
        let watch = Watch(clock: clock, interval: interval, grace: grace, onTimeout: onTimeout)
        watch.launch()
        return watch
    }

    /// Restarts the interval (something arrived).
    func touch() {
        watch.touch()
    }

    /// Stops watching and cancels the watchdog's sleep.
    /// - Returns: `true` when the watchdog had not fired yet (the caller owns the outcome).
    @discardableResult
    func stop() -> Bool {
        watch.stop()
    }
}

private protocol IdleWatch: Sendable {
    func touch()
    func stop() -> Bool
}

private final class Watch<C: Clock<Duration>>: IdleWatch {
    private struct State {
        /// `nil` once fired or stopped.
        var deadline: C.Instant?
        var task: Task<Void, Never>?
    }

    private let clock: C
    private let interval: Duration
    private let grace: @Sendable () -> Duration?
    private let onTimeout: @Sendable () -> Void
    private let state: Locked<State>

    init(
        clock: C,
        interval: Duration,
        grace: @escaping @Sendable () -> Duration?,
        onTimeout: @escaping @Sendable () -> Void
    ) {
        self.clock = clock
        self.interval = interval
        self.grace = grace
        self.onTimeout = onTimeout
        self.state = Locked(State(deadline: clock.now.advanced(by: interval)))
    }

    func launch() {
        let task = Task { await self.run() }
        let stopped = state.withLock { state -> Bool in
            guard state.deadline != nil else { return true }
            state.task = task
            return false
        }
        if stopped { task.cancel() }
    }

    func touch() {
        let next = clock.now.advanced(by: interval)
        state.withLock { state in
            if state.deadline != nil { state.deadline = next }
        }
    }

    func stop() -> Bool {
        let (wasRunning, task) = state.withLock { state -> (Bool, Task<Void, Never>?) in
            defer {
                state.deadline = nil
                state.task = nil
            }
            return (state.deadline != nil, state.task)
        }
        task?.cancel()
        return wasRunning
    }

    private func run() async {
        while let target = state.withLock({ $0.deadline }) {
            do {
                try await clock.sleep(until: target, tolerance: nil)
            } catch {
                return
            }
            let now = clock.now
            let fired = state.withLock { state -> Bool in
                // Stopped, or touched meanwhile (then sleep again until the new deadline).
                guard let current = state.deadline, current <= target else { return false }
                if let extra = grace() {
                    state.deadline = now.advanced(by: extra)
                    return false
                }
                state.deadline = nil
                state.task = nil
                return true
            }
            if fired {
                onTimeout()
                return
            }
        }
    }
}

/// The watchdog on the real clock: an entry of the shared ``DeadlineScheduler``, moved lazily (a touch only moves
/// the deadline; when the entry comes up early it is scheduled again for the remaining time).
///
/// `@unchecked Sendable`: the mutable state is behind the lock.
private final class TimerWatch: IdleWatch, @unchecked Sendable {
    private struct State {
        /// `nil` once fired or stopped.
        var deadline: DispatchTime?
        var token: DeadlineScheduler.Token?
    }

    private let interval: Duration
    private let grace: @Sendable () -> Duration?
    private let onTimeout: @Sendable () -> Void
    private let state: Locked<State>

    init(interval: Duration, grace: @escaping @Sendable () -> Duration?, onTimeout: @escaping @Sendable () -> Void) {
        self.interval = interval
        self.grace = grace
        self.onTimeout = onTimeout
        let deadline = DispatchTime.now() + Self.dispatchInterval(interval)
        self.state = Locked(State(deadline: deadline))
        let token = DeadlineScheduler.shared.schedule(at: deadline) { [weak self] in self?.fire() }
        let isOver = state.withLock { state -> Bool in
            state.token = token
            return state.deadline == nil
        }
        if isOver { DeadlineScheduler.shared.cancel(token) }
    }

    func touch() {
        let next = DispatchTime.now() + Self.dispatchInterval(interval)
        state.withLock { state in
            if state.deadline != nil { state.deadline = next }
        }
    }

    func stop() -> Bool {
        let (wasRunning, token) = state.withLock { state -> (Bool, DeadlineScheduler.Token?) in
            defer {
                state.deadline = nil
                state.token = nil
            }
            return (state.deadline != nil, state.token)
        }
        if let token { DeadlineScheduler.shared.cancel(token) }
        return wasRunning
    }

    /// The scheduler's call at the deadline: the next deadline when touched or postponed meanwhile, else `nil`
    /// (after reporting the timeout when it was still running).
    private func fire() -> DispatchTime? {
        enum Outcome {
            case none
            case fire
            case again(DispatchTime)
        }
        let outcome = state.withLock { state -> Outcome in
            guard let deadline = state.deadline else { return .none }
            let now = DispatchTime.now()
            if deadline > now { return .again(deadline) }
            if let extra = grace() {
                let postponed = now + Self.dispatchInterval(extra)
                state.deadline = postponed
                return .again(postponed)
            }
            state.deadline = nil
            state.token = nil
            return .fire
        }
        switch outcome {
        case .none: return nil
        case .again(let deadline): return deadline
        case .fire:
            onTimeout()
            return nil
        }
    }

    deinit {
        if let token = state.withLock({ $0.token }) { DeadlineScheduler.shared.cancel(token) }
    }

    /// The interval in nanoseconds, saturating at `Int.max` (a timeout of years never fires in practice).
    private static func dispatchInterval(_ interval: Duration) -> DispatchTimeInterval {
        let (seconds, attoseconds) = interval.components
        let (nanoseconds, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow, seconds >= 0 else { return seconds < 0 ? .nanoseconds(0) : .never }
        let total = nanoseconds.addingReportingOverflow(attoseconds / 1_000_000_000)
        return total.overflow ? .never : .nanoseconds(Int(total.partialValue))
    }
}
