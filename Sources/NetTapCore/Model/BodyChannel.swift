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
        /// `setSink` is still handing buffered chunks to the new sink: later chunks and the end queue behind them.
        var isDraining = false
        var outstandingBytes = 0
        var isCancelled = false
        var onCancel: (@Sendable () -> Void)?
    }

    private let state = Locked(State())

    package init() {}

    /// Whether the consumer has cancelled the body.
    package var isCancelled: Bool { state.withLock { $0.isCancelled } }

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
        let action: Action = state.withLock { state in
            guard !state.finished, !state.isCancelled else { return .none }
            state.outstandingBytes += data.count
            if let sink = state.sink, !state.isDraining { return .sink(sink) }
            if state.sink != nil {
                state.buffer.append(data)
                return .none
            }
            if let waiter = state.waiter {
                state.waiter = nil
                state.outstandingBytes -= data.count
                return .resume(waiter)
            }
            state.buffer.append(data)
            return .none
        }
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
            if let sink = state.sink { return .sink(sink) }
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
    /// queue behind them, so the sink sees every chunk once, in order, and the end last; later chunks arrive on the
    /// producer's thread. Returns `false` when a sink is already installed.
    @discardableResult
    package func setSink(_ sink: @escaping @Sendable (Event) -> Void) -> Bool {
        let accepted = state.withLock { state -> Bool in
            guard state.sink == nil, state.waiter == nil else { return false }
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
                return ([], state.finished ? .some(state.error) : nil, true)
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
        state.withLock { $0.outstandingBytes = max(0, $0.outstandingBytes - count) }
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
                let outcome: Outcome = state.withLock { state in
                    if state.isCancelled { return .end(CancellationError()) }
                    if !state.buffer.isEmpty {
                        let chunk = state.buffer.removeFirst()
                        state.outstandingBytes -= chunk.count
                        return .chunk(chunk)
                    }
                    if state.finished { return .end(state.error) }
                    state.waiter = continuation
                    return .wait
                }
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
