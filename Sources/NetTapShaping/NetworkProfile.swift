import Foundation
import NetTapCore

/// A network profile: the delay, bandwidth, loss and failure a shaped request experiences.
///
/// ```
///  request ─▶ condition? ─▶ upload time + latency + jitter ─▶ loss? ─▶ next ─▶ paced body ─▶ fault? ─▶ app
/// ```
///
/// Each value is a plain number with its unit in the name or type:
///
/// ```swift
/// let flaky = NetworkProfile(
///     latency: .milliseconds(300),
///     jitter: .milliseconds(100),
///     downloadBytesPerSecond: 50_000,     // 400 kbit/s
///     uploadBytesPerSecond: 25_000,       // 200 kbit/s
///     failureRate: 0.05
/// )
/// ```
///
/// Presets reproduce Apple's Network Link Conditioner and Chrome DevTools (see ``threeG``, ``slow3G``, …).
public struct NetworkProfile: Sendable, Hashable {
    /// A failure that replaces the whole exchange, each with the `URLError` code the platform gives.
    public enum Condition: String, Sendable, Hashable, CaseIterable {
        /// No network: `URLError(.notConnectedToInternet)` before anything leaves the device.
        case offline
        /// The host name does not resolve: `URLError(.cannotFindHost)`, nothing leaves the device.
        case dnsFailure
        /// The request hangs until its own timeout, when the interceptor fails it with `URLError(.timedOut)`.
        case timeout
        /// Nothing listens at the server: `URLError(.cannotConnectToHost)`, nothing reaches a server.
        case serverDown

        /// The `URLError` code the condition fails with.
        public var errorCode: URLError.Code {
            switch self {
            case .offline: .notConnectedToInternet
            case .dnsFailure: .cannotFindHost
            case .timeout: .timedOut
            case .serverDown: .cannotConnectToHost
            }
        }
    }

    /// The added round-trip delay before the request is passed on, as a `Duration`.
    ///
    /// One delay per request (not per packet): it stands for the extra round trip of a slow link.
    public var latency: Duration
    /// The most extra delay added on top of ``latency``: each request waits `latency + u × jitter`, `u` drawn
    /// uniformly from `0..<1` with the handler's seeded random number generator.
    public var jitter: Duration
    /// The download bandwidth in bytes per second; `nil` (or a value ≤ 0) is unlimited.
    ///
    /// Shared by the requests a ``NetworkShaper`` gives this profile, as one link's bandwidth is.
    public var downloadBytesPerSecond: Int?
    /// The upload bandwidth in bytes per second; `nil` (or a value ≤ 0) is unlimited; shared like the download's.
    public var uploadBytesPerSecond: Int?
    /// The probability, `0...1`, that a request fails with `URLError(.networkConnectionLost)` after its latency.
    ///
    /// A request-level stand-in for packet loss: one draw per request, not per packet.
    public var failureRate: Double
    /// A failure that replaces the exchange, or `nil` for a working (if slow) network.
    public var condition: Condition?
    /// A fault inside every response body the profile covers (the connection dropped, the body cut short, a
    /// stall) after some of its bytes, or `nil` for whole bodies.
    ///
    /// The head arrives, then the body's first `afterBytes` bytes (paced by the download bandwidth), then the
    /// failure the real fault gives (see `BodyFault`); a stall ends with the request's own timeout.
    public var fault: BodyFault?

    /// Creates a profile.
    ///
    /// - Parameters:
    ///   - latency: The added round-trip delay; zero by default.
    ///   - jitter: The most extra delay, drawn per request; zero by default.
    ///   - downloadBytesPerSecond: The download bandwidth in bytes per second, `nil` (default) for unlimited.
    ///   - uploadBytesPerSecond: The upload bandwidth in bytes per second, `nil` (default) for unlimited.
    ///   - failureRate: The probability `0...1` of `URLError(.networkConnectionLost)`; clamped to `0...1`.
    ///   - condition: A failure that replaces the exchange, or `nil`.
    ///   - fault: A fault inside every response body, or `nil`.
    public init(
        latency: Duration = .zero,
        jitter: Duration = .zero,
        downloadBytesPerSecond: Int? = nil,
        uploadBytesPerSecond: Int? = nil,
        failureRate: Double = 0,
        condition: Condition? = nil,
        fault: BodyFault? = nil
    ) {
        self.latency = max(.zero, latency)
        self.jitter = max(.zero, jitter)
        self.downloadBytesPerSecond = downloadBytesPerSecond
        self.uploadBytesPerSecond = uploadBytesPerSecond
        self.failureRate = failureRate.isNaN ? 0 : min(1, max(0, failureRate))
        self.condition = condition
        self.fault = fault
    }

    /// Converts a bandwidth in kilobits per second (1 kbit = 1,000 bits) to bytes per second.
    ///
    /// - Parameter kilobitsPerSecond: The bandwidth in kbit/s.
    /// - Returns: Bytes per second, rounded to the nearest byte.
    public static func bytesPerSecond(kilobitsPerSecond: Double) -> Int {
        Int((kilobitsPerSecond * 1000 / 8).rounded())
    }

    /// Converts a bandwidth in megabits per second (1 Mbit = 1,000,000 bits) to bytes per second.
    ///
    /// - Parameter megabitsPerSecond: The bandwidth in Mbit/s.
    /// - Returns: Bytes per second, rounded to the nearest byte.
    public static func bytesPerSecond(megabitsPerSecond: Double) -> Int {
        Int((megabitsPerSecond * 1_000_000 / 8).rounded())
    }
}
