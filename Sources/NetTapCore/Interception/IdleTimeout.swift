import Foundation

/// Fails a request on the pipeline path when nothing arrives for its idle interval, as the platform's own
/// timer fails a silent network transfer (`URLError(.timedOut)`).
///
/// The interval restarts at every ``touch()`` (the response head, each body chunk). It is measured on the
/// interceptor's injected clock, so a test that drives a `TestClock` sees the timeout without waiting; the
/// watchdog is then one more sleeper on that clock while the request is in flight.
///
/// Exactly one of "fired" and ``stop()`` wins: `onTimeout` runs only when no `stop()` came first, and `stop()`
/// reports whether it came first.
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
    ///   - onTimeout: Run once, from the watchdog's task, when the interval passes without a ``touch()``.
    /// - Returns: The running watchdog.
    static func start(
        after interval: Duration,
        on clock: any Clock<Duration>,
        onTimeout: @escaping @Sendable () -> Void
    ) -> IdleTimeout {
        IdleTimeout(watch: makeWatch(clock, interval: interval, onTimeout: onTimeout))
    }

    private static func makeWatch<C: Clock<Duration>>(
        _ clock: C,
        interval: Duration,
        onTimeout: @escaping @Sendable () -> Void
    ) -> any IdleWatch {
        let watch = Watch(clock: clock, interval: interval, onTimeout: onTimeout)
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
    private let onTimeout: @Sendable () -> Void
    private let state: Locked<State>

    init(clock: C, interval: Duration, onTimeout: @escaping @Sendable () -> Void) {
        self.clock = clock
        self.interval = interval
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
            let fired = state.withLock { state -> Bool in
                // Stopped, or touched meanwhile (then sleep again until the new deadline).
                guard let current = state.deadline, current <= target else { return false }
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
