import Foundation
import NetTapCore

/// Paces a response body to a bandwidth on a clock: a token bucket over the body's chunks.
///
/// Chunks are cut into pieces of at most ``maximumStep`` worth of bytes; each piece reserves its time on the
/// link's downlink (``SharedLink``, shared with the other transfers of the same profile) and is released when
/// it is due, so the app sees bytes every 50 ms or sooner (when the link is not shared) and a test clock can be
/// advanced step by step. Idle time (the upstream body being slower than the bandwidth) earns no credit beyond
/// one step. Cancelling the paced body stops the pacing at once and cancels the upstream body.
enum ThrottledBody {
    /// The longest wait between two pieces: 50 ms.
    static let maximumStep: Duration = .milliseconds(50)

    /// Wraps `body` so that it arrives at `bytesPerSecond`.
    ///
    /// - Parameters:
    ///   - body: The upstream body.
    ///   - bytesPerSecond: The bandwidth in bytes per second; must be positive.
    ///   - link: The downlink the body shares with other transfers of its profile.
    ///   - clock: The clock to wait on (the transaction's).
    /// - Returns: The paced body, with the upstream body's expected length.
    static func make(
        _ body: ResponseBody,
        bytesPerSecond: Int,
        link: SharedLink.Direction,
        clock: any Clock<Duration>
    ) -> ResponseBody {
        ResponseBody.stream(expectedLength: body.expectedLength) { writer in
            let producer = Task {
                do {
                    try await pump(body, into: writer, bytesPerSecond: bytesPerSecond, link: link, clock: clock)
                    writer.finish()
                } catch {
                    writer.finish(throwing: error)
                }
            }
            writer.onCancel {
                producer.cancel()
                body.channel.cancel()
            }
        }
    }

    /// The bytes sent per piece: one ``maximumStep`` at the bandwidth, at least 1.
    static func pieceSize(bytesPerSecond: Int) -> Int {
        max(1, bytesPerSecond / 20)
    }

    /// How long `byteCount` bytes take at `bytesPerSecond`, exact to the nanosecond (rounded down).
    static func duration(ofByteCount byteCount: Int64, bytesPerSecond: Int) -> Duration {
        guard bytesPerSecond > 0, byteCount > 0 else { return .zero }
        let rate = Int64(bytesPerSecond)
        let seconds = byteCount / rate
        let remainder = byteCount % rate
        // `remainder < rate`, so `remainder × 10⁹` fits an `Int64` for bandwidths below about 9 GB per second;
        // above that, floating point.
        let (scaled, overflow) = remainder.multipliedReportingOverflow(by: 1_000_000_000)
        let fraction: Duration =
            overflow ? .seconds(Double(remainder) / Double(rate)) : .nanoseconds(scaled / rate)
        return .seconds(seconds) + fraction
    }

    private static func pump<C: Clock<Duration>>(
        _ body: ResponseBody,
        into writer: BodyWriter,
        bytesPerSecond: Int,
        link: SharedLink.Direction,
        clock: C
    ) async throws {
        let piece = pieceSize(bytesPerSecond: bytesPerSecond)
        for try await chunk in body {
            var offset = chunk.startIndex
            while offset < chunk.endIndex {
                try Task.checkCancellation()
                let end = chunk.index(offset, offsetBy: piece, limitedBy: chunk.endIndex) ?? chunk.endIndex
                let due = link.reserve(byteCount: Int64(end - offset), bytesPerSecond: bytesPerSecond, on: clock)
                try await clock.sleep(until: due, tolerance: nil)
                guard !writer.isCancelled else { throw CancellationError() }
                writer.write(Data(chunk[offset..<end]))
                offset = end
            }
        }
    }
}
