import Foundation
import NetTapCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Applies the ``NetworkShaper``'s profile to each request: conditions, latency, loss and bandwidth.
///
/// ```
///  request ─▶ condition ─▶ wait upload time (shared uplink) + latency + jitter ─▶ loss draw ─▶ next ─▶ paced body
///                                                                                                  ─▶ body fault
/// ```
///
/// - Conditions fail before `next` is called, so nothing leaves the device: offline
///   (`.notConnectedToInternet`), DNS failure (`.cannotFindHost`), server down (`.cannotConnectToHost`), each
///   worded as the platform words the real failure (see `SimulatedFailure`).
///   Timeout waits on the clock until the request is cancelled; the interceptor's own timeout (the request's
///   `timeoutInterval`) then fails it with `URLError(.timedOut)`. A failure the shaper makes is answered by
///   `shaping` in the capture (`answeredBy`), with the condition in the `shaping` annotation.
/// - Latency plus jitter (`latency + u × jitter`, `u` in `0..<1` from the injected generator) is waited on
///   `context.clock`, in the same sleep as the upload time.
/// - Upload bandwidth paces the request body before it is forwarded: the body's size (`httpBody`, which NetTap
///   fills in for streamed bodies before handlers run) is given its time on the profile's uplink, after the bodies
///   of other requests already on it (``NetworkShaper`` shares a profile's bandwidth among its requests), then
///   the body goes on whole. (Pacing it on the wire would need a body stream that says "not yet"; libcurl's
///   reader in FoundationNetworking takes "no bytes available" for the end of the body, so only a blocked
///   thread could pace there — see docs/platform-notes.md §12.)
/// - Loss: with probability ``NetworkProfile/failureRate`` the request fails with
///   `URLError(.networkConnectionLost)` after its delay, without being sent.
/// - Download bandwidth paces the response body on `context.clock` in pieces of at most 50 ms at the bandwidth,
///   taking turns with the other downloads of the same profile; cancelling the body stops at once and cancels
///   the upstream body.
/// - A body fault (``NetworkProfile/fault``) lets the head and the body's first bytes through, paced, then drops
///   the connection, cuts the body short or stalls it until the request's own timeout, as `BodyFault` describes;
///   the `shaping` annotation names it.
///
/// Every draw comes from one seeded generator, two per shaped request (jitter, then loss), so a run with the
/// same seed and the same requests in the same order repeats exactly.
///
/// ```swift
/// let shaper = NetworkShaper(profile: .threeG)
/// let handler = ShapingHandler(shaper: shaper, random: SeededRandom(seed: 7))
/// ```
///
/// Thread safety: the handler may be used from any thread; the generator is behind a lock.
public struct ShapingHandler: TransactionHandler {
    /// `shaping`: the handler's name in annotations.
    public let name = "shaping"
    /// The profiles in force, read anew for every request.
    public let shaper: NetworkShaper
    private let random: Locked<any RandomNumberGenerator & Sendable>

    /// Creates the handler.
    ///
    /// - Parameters:
    ///   - shaper: The profiles in force.
    ///   - random: The generator for jitter and loss; seeded from the system generator by default. Pass a
    ///     ``SeededRandom`` for repeatable runs.
    public init(
        shaper: NetworkShaper,
        random: any RandomNumberGenerator & Sendable = SeededRandom(seed: UInt64.random(in: .min ... .max))
    ) {
        self.shaper = shaper
        self.random = Locked(random)
    }

    /// Shapes one request with the profile the shaper gives it.
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - context: The transaction's context; its clock times every delay.
    ///   - next: The rest of the pipeline; not called for conditions and simulated loss.
    /// - Returns: The response, its body paced to the download bandwidth.
    /// - Throws: `URLError` with the condition's code, `URLError(.networkConnectionLost)` for simulated loss,
    ///   `CancellationError` when cancelled, or what the rest of the pipeline throws.
    public func handle(_ request: URLRequest, context: TransactionContext, next: Next) async throws -> HandlerResponse {
        guard let (profile, link) = shaper.shaping(for: request) else { return try await next(request) }
        if let condition = profile.condition {
            context.annotate(name, condition.rawValue)
            context.answer(by: name)
            if condition == .timeout {
                try await hang(on: context.clock)
            }
            throw SimulatedFailure.error(condition.errorCode, url: request.url)
        }
        let (jitterFraction, lossDraw) = random.withLock { generator in
            (Double.random(in: 0..<1, using: &generator), Double.random(in: 0..<1, using: &generator))
        }
        let latency = profile.latency + profile.jitter * jitterFraction
        try await wait(latency: latency, upload: request.httpBody, profile: profile, link: link, clock: context.clock)
        if lossDraw < profile.failureRate {
            context.annotate(name, "connection lost")
            context.answer(by: name)
            throw SimulatedFailure.error(.networkConnectionLost, url: request.url)
        }
        var response = try await next(request)
        if let download = profile.downloadBytesPerSecond, download > 0 {
            response.body = ThrottledBody.make(
                response.body,
                bytesPerSecond: download,
                link: link.downlink,
                clock: context.clock
            )
        }
        if let fault = profile.fault {
            context.annotate(name, fault.description)
            response.body = response.body.withFault(fault)
        }
        return response
    }

    /// Waits for the request's latency and for its body to cross the shared uplink, in one sleep: the body's
    /// time on the uplink is reserved now (after the transfers already on it), and the latency adds to its end.
    private func wait<C: Clock<Duration>>(
        latency: Duration,
        upload body: Data?,
        profile: NetworkProfile,
        link: SharedLink,
        clock: C
    ) async throws {
        var due = clock.now
        if let upload = profile.uploadBytesPerSecond, upload > 0, let body, !body.isEmpty {
            due = link.uplink.reserve(byteCount: Int64(body.count), bytesPerSecond: upload, on: clock)
        }
        due = due.advanced(by: latency)
        if clock.now < due {
            try await clock.sleep(until: due, tolerance: nil)
        }
    }

    /// Waits until the task is cancelled (a request that never gets an answer).
    private func hang(on clock: any Clock<Duration>) async throws {
        while true {
            try await clock.sleep(for: .seconds(86_400))
        }
    }
}

/// Starts on URLSession's queue: its synchronous part neither calls URLSession nor blocks.
extension ShapingHandler: StartsInline {}
