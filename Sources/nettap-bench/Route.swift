import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The four ways the small-request scenarios (latency, throughput, https) send the small GET.
enum Route: String, CaseIterable, Sendable {
    /// Plain URLSession (``Variant/direct``): the baseline every ratio divides by.
    case direct
    /// libcurl alone (``CurlFloor``): what no URLSession-based client can beat.
    case floor
    /// NetTap as shipped (``Variant/nettap``).
    case nettap
    /// The session-per-request logger recipe (``PeerProtocol``).
    case peer

    /// The name printed in tables and detail lines.
    var label: String {
        switch self {
        case .direct: "direct"
        case .floor: "floor"
        case .nettap: "NetTap"
        case .peer: "peer"
        }
    }

    /// The routes in the order a round runs them: all of them, reversed on odd rounds.
    /// - Parameter round: The round number, from 0.
    /// - Returns: ``allCases`` for even rounds, reversed for odd ones.
    static func order(forRound round: Int) -> [Route] {
        round.isMultiple(of: 2) ? allCases : allCases.reversed()
    }

    /// Creates a client of this route for a process of its own (a child).
    /// - Parameters:
    ///   - url: The URL to get.
    ///   - body: The body every answer must have.
    /// - Returns: The client; URLSession routes get a new session.
    /// - Throws: ``BenchError`` when the floor's libcurl handle cannot be made.
    func makeClient(url: URL, body: Data) throws -> SmallClient {
        switch self {
        case .direct: .session(Variant.direct.makeSession(), URLRequest(url: url), body)
        case .nettap: .session(Variant.nettap.makeSession(), URLRequest(url: url), body)
        case .peer: .session(PeerProtocol.makeSession(), URLRequest(url: url), body)
        case .floor: .floor(try CurlFloor(url: url, body: body))
        }
    }
}

/// One route's way of sending the small GET and checking every answer byte for byte.
enum SmallClient {
    /// Through a URLSession, with `data(for:)`.
    case session(URLSession, URLRequest, Data)
    /// Through libcurl alone.
    case floor(CurlFloor)

    /// Sends one request and checks the answer.
    /// - Throws: The request's error, or ``BenchError`` for a status other than 200 or a different body.
    func get() async throws {
        switch self {
        case .session(let session, let request, let body):
            try await Fetch.get(request, on: session, expectedBytes: body.count, expectedBody: body)
        case .floor(let floor):
            try floor.get()
        }
    }

    /// Sends `count` requests with `width` in flight, checking each answer.
    /// - Parameters:
    ///   - count: How many requests in total.
    ///   - width: How many in flight at once.
    /// - Returns: The wall-clock time from the first send to the last answer.
    /// - Throws: The first failure.
    func concurrently(count: Int, width: Int) async throws -> Duration {
        switch self {
        case .session(let session, let request, let body):
            try await Fetch.concurrently(
                count: count,
                width: width,
                request: request,
                on: session,
                expectedBytes: body.count,
                expectedBody: body
            )
        case .floor(let floor):
            try floor.concurrently(count: count, width: width)
        }
    }

    /// The HTTP version of the last answer where the route can tell (the floor), else `nil`.
    var httpVersion: String? {
        switch self {
        case .session: nil
        case .floor(let floor): floor.httpVersion
        }
    }
}
