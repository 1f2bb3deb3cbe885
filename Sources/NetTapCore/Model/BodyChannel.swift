import Foundation

/// The single-producer, single-consumer queue behind a ``ResponseBody``.
///
/// The consumer either awaits chunks (`next()`) or installs a synchronous sink that the producer calls
/// inline on its own thread (the fast path the shim uses to relay forwarded bytes without a task hop).
/// The producer can watch the number of bytes sent but not yet acknowledged by the consumer and pause
/// its source above a high-water mark (back-pressure).
package final class BodyChannel: @unchecked Sendable {
    /// What the sink receives.
    package enum Event {
        case chunk(Data)
        case end((any Error)?)
    }

    private struct State {
        var buffer: [Data] = []
        var finished = false
        var error: (any Error)?
        var waiter: CheckedContinuation<Data?, any Error>?
        var sink: (@Sendable (Event) -> Void)?
        var hasHadSink = false
        /// `setSink` is still handing buffered chunks to the new sink: later chunks and the end queue behind them.
        var isDraining = false
        var outstandingBytes = 0
        var isCancelled = false
        var onCancel: (@Sendable () -> Void)?
        var pressure: Pressure?
    }

    private struct Pressure {
        var highWater: Int
        var lowWater: Int
        var isPaused = false
        var handler: @Sendable (Bool) -> Void
    }

    private let state = Locked(State())

    package init() {}

    /// Whether the consumer has cancelled the body.
    package var isCancelled: Bool { state.withLock { $0.isCancelled } }

    /// Whether the producer has ended the body: every chunk it will send is already in the channel.
    package var isFinished: Bool { state.withLock { $0.finished } }

    /// Bytes sent but not yet taken by an awaiting consumer or acknowledged by a sink consumer.
    package var outstandingBytes: Int { state.withLock { $0.outstandingBytes } }

    /// Sends one chunk to the consumer.
    package func send(_ data: Data) {
        guard !data.isEmpty else { return }
        enum Action {
            case none
            case resume(CheckedContinuation<Data?, any Error>)
            case sink(@Sendable (Event) -> Void)
        }
        var pause: (@Sendable (Bool) -> Void)?
        let action: Action = state.withLock { state in
            guard !state.finished, !state.isCancelled else { return .none }
            state.outstandingBytes += data.count
            if let sink = state.sink, !state.isDraining {
                pause = Self.pressureChange(&state)
                return .sink(sink)
            }
            if let waiter = state.waiter {
                state.waiter = nil
                state.outstandingBytes -= data.count
                return .resume(waiter)
            }
            state.buffer.append(data)
            pause = Self.pressureChange(&state)
            return .none
        }
        pause?(true)
        switch action {
        case .none: break
        case .resume(let waiter): waiter.resume(returning: data)
        case .sink(let sink): sink(.chunk(data))
        }
    }

    /// Ends the body.
    package func finish(throwing error: (any Error)? = nil) {
        enum Action {
            case none
            case resume(CheckedContinuation<Data?, any Error>)
            case sink(@Sendable (Event) -> Void)
        }
        let action: Action = state.withLock { state in
            guard !state.finished else { return .none }
            state.finished = true
            state.error = error
            // While `setSink` drains the buffer, it delivers the end after the last buffered chunk.
            if state.isDraining { return .none }
            if let sink = state.sink {
                // The end is the sink's last event: drop it so a sink that captures this channel does not
                // keep both alive in a reference cycle.
                state.sink = nil
                return .sink(sink)
            }
            if let waiter = state.waiter, state.buffer.isEmpty {
                state.waiter = nil
                return .resume(waiter)
            }
            return .none
        }
        switch action {
        case .none: break
        case .resume(let waiter):
            if let error { waiter.resume(throwing: error) } else { waiter.resume(returning: nil) }
        case .sink(let sink): sink(.end(error))
        }
    }

    /// Installs a synchronous consumer.
    ///
    /// Chunks already buffered are handed to it at once, on this thread, and chunks the producer sends meanwhile
    /// queue behind them, so the sink sees every chunk once, in order, and the end last; later chunks arrive on
    /// the producer's thread. The sink is released after the end. Returns `false` when a sink was installed
    /// before.
    @discardableResult
    package func setSink(_ sink: @escaping @Sendable (Event) -> Void) -> Bool {
        let accepted = state.withLock { state -> Bool in
            guard !state.hasHadSink, state.waiter == nil else { return false }
            state.hasHadSink = true
            state.sink = sink
            state.isDraining = true
            return true
        }
        guard accepted else { return false }
        while true {
            let (pending, end, isDrained): ([Data], (any Error)??, Bool) = state.withLock { state in
                guard state.buffer.isEmpty else {
                    defer { state.buffer = [] }
                    return (state.buffer, nil, false)
                }
                state.isDraining = false
                guard state.finished else { return ([], nil, true) }
                // The end is the sink's last event: drop it so a sink that captures this channel does not
                // keep both alive in a reference cycle.
                state.sink = nil
                return ([], .some(state.error), true)
            }
            for chunk in pending { sink(.chunk(chunk)) }
            if isDrained {
                if let end { sink(.end(end)) }
                return true
            }
        }
    }

    /// Tells the producer that a sink consumer has delivered `count` bytes onward.
    package func acknowledge(_ count: Int) {
        let resume = state.withLock { state -> (@Sendable (Bool) -> Void)? in
            state.outstandingBytes = max(0, state.outstandingBytes - count)
            return Self.pressureChange(&state)
        }
        resume?(false)
    }

    /// Asks to be told when more than `highWater` bytes are outstanding (`true`: pause the source) and when
    /// the consumer has caught up to `lowWater` bytes or fewer again (`false`: resume it).
    /// - Parameters:
    ///   - highWater: Bytes outstanding above which the source should pause.
    ///   - lowWater: Bytes outstanding at or below which a paused source should resume.
    ///   - handler: Called outside the channel's lock, on the thread that crossed the mark.
    package func setPressureHandler(highWater: Int, lowWater: Int, _ handler: @escaping @Sendable (Bool) -> Void) {
        state.withLock {
            $0.pressure = Pressure(highWater: highWater, lowWater: min(lowWater, highWater), handler: handler)
        }
    }

    /// The handler to call when the outstanding byte count crossed a mark, updating the paused flag.
    private static func pressureChange(_ state: inout State) -> (@Sendable (Bool) -> Void)? {
        guard var pressure = state.pressure else { return nil }
        if !pressure.isPaused && state.outstandingBytes > pressure.highWater {
            pressure.isPaused = true
            state.pressure = pressure
            return pressure.handler
        }
        if pressure.isPaused && (state.outstandingBytes <= pressure.lowWater || state.isCancelled || state.finished) {
            pressure.isPaused = false
            state.pressure = pressure
            return pressure.handler
        }
        return nil
    }

    /// Registers what to do when the consumer cancels (for example cancel the network task).
    package func onCancel(_ action: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state -> Bool in
            if state.isCancelled { return true }
            state.onCancel = action
            return false
        }
        if runNow { action() }
    }

    /// Cancels the body from the consumer side: buffered chunks are dropped and the producer is told.
    package func cancel() {
        let (action, waiter) = state.withLock {
            state -> ((@Sendable () -> Void)?, CheckedContinuation<Data?, any Error>?) in
            guard !state.isCancelled else { return (nil, nil) }
            state.isCancelled = true
            state.buffer = []
            let action = state.onCancel
            state.onCancel = nil
            let waiter = state.waiter
            state.waiter = nil
            return (action, waiter)
        }
        waiter?.resume(throwing: CancellationError())
        action?()
    }

    /// Awaits the next chunk; `nil` at the end.
    package func next() async throws -> Data? {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Data?, any Error>) in
                enum Outcome {
                    case chunk(Data)
                    case end((any Error)?)
                    case wait
                }
                var resume: (@Sendable (Bool) -> Void)?
                let outcome: Outcome = state.withLock { state in
                    if state.isCancelled { return .end(CancellationError()) }
                    if !state.buffer.isEmpty {
                        let chunk = state.buffer.removeFirst()
                        state.outstandingBytes -= chunk.count
                        resume = Self.pressureChange(&state)
                        return .chunk(chunk)
                    }
                    if state.finished { return .end(state.error) }
                    state.waiter = continuation
                    return .wait
                }
                resume?(false)
                switch outcome {
                case .chunk(let chunk): continuation.resume(returning: chunk)
                case .end(let error?): continuation.resume(throwing: error)
                case .end(nil): continuation.resume(returning: nil)
                case .wait: break
                }
            }
        } onCancel: {
            cancel()
        }
    }
}
