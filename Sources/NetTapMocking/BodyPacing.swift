import Foundation

/// How fast a stub's body arrives after its head: over a fixed duration, or at a bandwidth.
///
/// The body is delivered in steps on the transaction's clock (`TransactionContext.clock`), never in one
/// sleep: each step lasts at most 50 ms and delivers its share of the bytes, so a progress bar moves, a
/// cancelled request stops within one step's bytes, and a test clock can be advanced step by step.
///
/// ```swift
/// StubResponse.file(videoURL).withPacing(.bandwidth(bytesPerSecond: 250_000))   // about 2 Mbit/s
/// StubResponse.status(204).withPacing(.duration(.milliseconds(300)))           // 300 ms before the head, no bytes
/// ```
public enum BodyPacing: Sendable, Hashable {
    /// The whole body (even an empty one) takes this long after the head.
    case duration(Duration)
    /// The body arrives at this many bytes per second; an empty body takes no time.
    case bandwidth(bytesPerSecond: Int)

    /// The longest step between two deliveries: 50 ms.
    public static let maximumStep: Duration = .milliseconds(50)

    /// How long a body of `byteCount` bytes takes.
    ///
    /// - Parameter byteCount: The body size in bytes.
    /// - Returns: The duration; zero for a non-positive bandwidth.
    public func totalDuration(forByteCount byteCount: Int64) -> Duration {
        switch self {
        case .duration(let duration):
            return max(.zero, duration)
        case .bandwidth(let bytesPerSecond):
            guard bytesPerSecond > 0, byteCount > 0 else { return .zero }
            let seconds = byteCount / Int64(bytesPerSecond)
            let remainder = byteCount % Int64(bytesPerSecond)
            // The fraction of a second in floating point: `remainder * 10⁹` overflows for bandwidths above
            // about 9 GB per second.
            return .seconds(seconds) + .seconds(Double(remainder) / Double(bytesPerSecond))
        }
    }

    /// The number of steps a body of `byteCount` bytes is delivered in, so that each step lasts at most
    /// ``maximumStep``.
    ///
    /// - Parameter byteCount: The body size in bytes.
    /// - Returns: At least 1 when the total duration is positive, else 0.
    public func stepCount(forByteCount byteCount: Int64) -> Int {
        let total = totalDuration(forByteCount: byteCount)
        guard total > .zero else { return 0 }
        let steps = (total / Self.maximumStep).rounded(.up)
        // Durations of centuries would not fit an `Int` count of steps.
        guard steps < Double(Int.max / 2) else { return Int.max / 2 }
        return max(1, Int(steps))
    }

    /// When step `step` of `steps` ends, measured from the head: `total × step / steps`, computed without
    /// overflowing for long durations.
    ///
    /// - Parameters:
    ///   - step: The step, 1 through `steps`.
    ///   - steps: The number of steps, from ``stepCount(forByteCount:)``.
    ///   - total: The whole duration, from ``totalDuration(forByteCount:)``.
    /// - Returns: The offset; exactly `total` for the last step.
    static func offset(ofStep step: Int, of steps: Int, total: Duration) -> Duration {
        step >= steps ? total : total / steps * step
    }
}
