import Foundation
import NetTapCore

/// The bandwidth that the requests shaped by one profile share, as the requests of a device share its link.
///
/// Each direction keeps a schedule: the instant until which the link is busy. A transfer reserves the time its
/// next piece takes at the bandwidth, from the later of now and the end of the last reservation, then waits until
/// the piece is due. Concurrent transfers therefore take turns piece by piece (at most 50 ms each) and together
/// get the profile's bandwidth, not each of them.
///
/// A link idle for longer than ``ThrottledBody/maximumStep`` earns no credit: the next reservation starts now.
/// Up to one step of lateness (a sleeper woken a little late) is forgiven, so that pieces follow each other
/// without drift.
///
/// Thread safety: every member may be used from any thread.
final class SharedLink: Sendable {
    /// One direction of the link.
    final class Direction: Sendable {
        /// The end of the last reservation, on the clock of the transaction that made it (type-erased; a
        /// reservation on a clock of another type starts a new schedule).
        private let busyUntil = Locked<(any Sendable)?>(nil)

        /// Reserves the time `byteCount` bytes take at `bytesPerSecond` and returns when they are due.
        ///
        /// - Parameters:
        ///   - byteCount: The bytes to send or deliver.
        ///   - bytesPerSecond: The direction's bandwidth in bytes per second; positive.
        ///   - clock: The transaction's clock.
        /// - Returns: The instant on `clock` at which the bytes have crossed the link.
        func reserve<C: Clock<Duration>>(byteCount: Int64, bytesPerSecond: Int, on clock: C) -> C.Instant {
            let now = clock.now
            return busyUntil.withLock { stored in
                var start = now
                if let previous = stored as? C.Instant, now < previous.advanced(by: ThrottledBody.maximumStep) {
                    start = previous
                }
                let due = start.advanced(
                    by: ThrottledBody.duration(ofByteCount: byteCount, bytesPerSecond: bytesPerSecond)
                )
                stored = due
                return due
            }
        }
    }

    /// The response direction.
    let downlink = Direction()
    /// The request direction.
    let uplink = Direction()
}
