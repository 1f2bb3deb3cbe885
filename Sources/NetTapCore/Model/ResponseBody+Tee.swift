import Foundation

extension ResponseBody {
    /// The same body passed on chunk by chunk while a side consumer (a recording, a cache file) sees every chunk
    /// first; the app's pace is passed back, so this body's producer feels the app's back-pressure.
    ///
    /// This body is consumed at once through a synchronous sink; bytes count as delivered upstream only once the
    /// app has taken them from the returned body.
    ///
    /// - Parameters:
    ///   - onChunk: Called with each chunk before the app can read it, on the producer's thread.
    ///   - onCancel: Called when the app's reader goes away, before this body is cancelled.
    ///   - onEnd: Called once when this body ends, before the app sees the end: with the error that ended it
    ///     (`nil` for a complete body) and whether the app's reader had gone away by then.
    /// - Returns: The body for the app, with this body's ``expectedLength``.
    package func teed(
        onChunk: @escaping @Sendable (Data) -> Void,
        onCancel: @escaping @Sendable () -> Void = {},
        onEnd: @escaping @Sendable (_ error: (any Error)?, _ isCancelled: Bool) -> Void
    ) -> ResponseBody {
        let upstream = channel
        let downstream = BodyChannel()
        let passed = PassedBytes()
        // The consumer's pace goes back upstream: bytes count as delivered once the consumer took them.
        downstream.setPressureHandler(highWater: 0, lowWater: 0) { [weak downstream] isPaused in
            guard !isPaused, let downstream else { return }
            let count = passed.takeUnacknowledged(outstanding: downstream.outstandingBytes)
            if count > 0 { upstream.acknowledge(count) }
        }
        downstream.onCancel {
            onCancel()
            upstream.cancel()
        }
        upstream.setSink { event in
            switch event {
            case .chunk(let data):
                passed.add(data.count)
                onChunk(data)
                downstream.send(data)
            case .end(let error):
                onEnd(error, downstream.isCancelled)
                downstream.finish(throwing: error)
            }
        }
        return ResponseBody(channel: downstream, expectedLength: expectedLength)
    }
}

/// The bytes a tee passed on, and how many of them were acknowledged upstream.
///
/// Thread safety: every member may be used from any thread.
private final class PassedBytes: Sendable {
    private struct State {
        var sent = 0
        var acknowledged = 0
    }

    private let state = Locked(State())

    /// Counts `count` bytes passed on.
    func add(_ count: Int) {
        state.withLock { $0.sent += count }
    }

    /// The bytes passed on and since consumed (all but `outstanding`) that were not acknowledged upstream yet.
    func takeUnacknowledged(outstanding: Int) -> Int {
        state.withLock { state in
            let consumed = max(0, state.sent - outstanding)
            let count = max(0, consumed - state.acknowledged)
            state.acknowledged += count
            return count
        }
    }
}
