import Foundation
import NetTapCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The two ways a request is sent: straight through URLSession, or through NetTap with capture on.
enum Variant: String, CaseIterable, Sendable {
    /// `URLSessionConfiguration.default`, no interception.
    case direct
    /// `NetTapInterceptor.shared.makeConfiguration()`: intercepted, run through the (empty) pipeline, forwarded and
    /// captured into a log of the default capacity (1,000 transactions).
    case nettap

    /// The name printed in tables.
    var label: String {
        switch self {
        case .direct: "direct"
        case .nettap: "NetTap"
        }
    }

    /// Creates this variant's session; each process creates one per variant and keeps it.
    /// - Parameter delegate: The session delegate, or `nil` for completion-handler and async callers.
    /// - Returns: The session.
    func makeSession(delegate: (any URLSessionDelegate)? = nil) -> URLSession {
        let configuration: URLSessionConfiguration
        switch self {
        case .direct:
            configuration = URLSessionConfiguration.default
        case .nettap:
            NetTapInterceptor.shared.captureLog.capacity = 1_000
            configuration = NetTapInterceptor.shared.makeConfiguration()
        }
        return URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    /// The two variants in the order a round runs them: alternating which goes first, so neither side always
    /// enjoys a warmer cache or a quieter machine.
    /// - Parameter round: The round number, from 0.
    /// - Returns: `[.direct, .nettap]` for even rounds, `[.nettap, .direct]` for odd ones.
    static func order(forRound round: Int) -> [Variant] {
        round.isMultiple(of: 2) ? [.direct, .nettap] : [.nettap, .direct]
    }
}

/// A failure that makes the benchmark itself invalid (as opposed to a slow figure).
struct BenchError: Error, CustomStringConvertible {
    /// What went wrong, for the terminal.
    let description: String

    /// Creates an error.
    /// - Parameter description: What went wrong.
    init(_ description: String) {
        self.description = description
    }
}

/// Sends small GET requests and checks their answers.
enum Fetch {
    /// Sends one request with the async API and checks the status and the body size.
    /// - Parameters:
    ///   - request: The request.
    ///   - session: The session to send it with.
    ///   - expectedBytes: The body size the answer must have, or `nil` to accept any size.
    ///   - expectedBody: The exact body the answer must have, or `nil` to check only the size.
    /// - Returns: The body size in bytes.
    /// - Throws: The session's error, or ``BenchError`` for a status other than 200, a wrong body size or
    ///   different body bytes.
    @discardableResult
    static func get(
        _ request: URLRequest,
        on session: URLSession,
        expectedBytes: Int?,
        expectedBody: Data? = nil
    ) async throws -> Int {
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse, http.statusCode == 200 else {
            let status = (response as? HTTPURLResponse)?.statusCode ?? -1
            throw BenchError("\(request.url?.absoluteString ?? "?"): status \(status), expected 200")
        }
        if let expectedBytes, data.count != expectedBytes {
            throw BenchError("\(request.url?.absoluteString ?? "?"): \(data.count) bytes, expected \(expectedBytes)")
        }
        if let expectedBody, data != expectedBody {
            throw BenchError("\(request.url?.absoluteString ?? "?"): the body differs from the expected bytes")
        }
        return data.count
    }

    /// Sends `count` requests with at most `width` in flight at once.
    /// - Parameters:
    ///   - count: How many requests in total.
    ///   - width: How many in flight at once.
    ///   - request: The request, sent `count` times.
    ///   - session: The session.
    ///   - expectedBytes: The body size every answer must have.
    ///   - expectedBody: The exact body every answer must have, or `nil` to check only the size.
    /// - Returns: The wall-clock time from the first send to the last answer.
    /// - Throws: The first failure (the remaining requests are cancelled).
    static func concurrently(
        count: Int,
        width: Int,
        request: URLRequest,
        on session: URLSession,
        expectedBytes: Int?,
        expectedBody: Data? = nil
    ) async throws -> Duration {
        let clock = ContinuousClock()
        let start = clock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            var started = 0
            while started < min(width, count) {
                group.addTask {
                    try await get(request, on: session, expectedBytes: expectedBytes, expectedBody: expectedBody)
                }
                started += 1
            }
            while try await group.next() != nil {
                if started < count {
                    group.addTask {
                        try await get(request, on: session, expectedBytes: expectedBytes, expectedBody: expectedBody)
                    }
                    started += 1
                }
            }
        }
        return clock.now - start
    }
}

extension Duration {
    /// The duration in seconds, as a floating-point number.
    var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
