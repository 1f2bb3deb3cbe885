import Foundation
import NetTapCore
import NetTapMocking
import NetTapReplay

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The six ways the `mock` scenario gets the small file: from the server, or answered in the process.
enum MockVariant: String, CaseIterable, Sendable {
    /// `URLSessionConfiguration.default` to the server: the baseline every row compares with.
    case direct
    /// ``BareProtocol``: a minimal `URLProtocol` answering the same bytes from memory; the floor any
    /// interception pays in FoundationNetworking, used to find NetTap's own part.
    case bare
    /// NetTap with a `MockHandler` whose one stub answers the same bytes (`unmatched: .fail`, so a request that
    /// would reach the network fails instead); capture on, 1,000 transactions.
    case mocked
    /// NetTap with a `ReplayHandler` in mode `.none` on a cassette recorded from the server at the start of the
    /// run (replay only: an unmatched request fails); capture on, 1,000 transactions.
    case replayed
    /// libcurl alone to the server (``CurlFloor``): the fastest way over the network, for comparison.
    case floor
    /// The session-per-request logger recipe to the server (``PeerProtocol``), for comparison.
    case peer

    /// The name printed in detail lines.
    var label: String { rawValue }

    /// The `answeredBy` every captured transaction of this variant must have, for the NetTap variants.
    var expectedAnsweredBy: String? {
        switch self {
        case .direct, .bare, .floor, .peer: nil
        case .mocked: "mock"
        case .replayed: ReplayHandler.defaultName
        }
    }

    /// The variants in the order a round runs them: all of them, reversed on odd rounds, so no variant always
    /// runs first or last.
    /// - Parameter round: The round number, from 0.
    /// - Returns: ``allCases`` for even rounds, reversed for odd ones.
    static func order(forRound round: Int) -> [MockVariant] {
        round.isMultiple(of: 2) ? allCases : allCases.reversed()
    }
}

/// One client per ``MockVariant`` (a session, or libcurl for the floor), the private interceptors behind the NetTap
/// ones, and the cassette file.
///
/// The NetTap variants each use their own ``NetTapInterceptor`` (not ``NetTapInterceptor/shared``), so their handlers and
/// capture logs do not touch the other scenarios'.
struct MockSessions {
    /// The clients, one per variant, each checking every body against the server's bytes.
    let clients: [MockVariant: SmallClient]
    /// The sessions this value created (all but direct's), invalidated by ``close()``.
    let ownSessions: [URLSession]
    /// The interceptors of the NetTap variants.
    let interceptors: [MockVariant: NetTapInterceptor]
    /// The temporary directory holding the cassette; removed by ``close()``.
    let directory: URL

    /// Records the cassette and creates the sessions.
    /// - Parameters:
    ///   - url: The small file's URL on the server.
    ///   - body: The small file's bytes, as the server answers them.
    ///   - direct: The run's direct session (reused, so its connection is already warm).
    /// - Throws: ``BenchError`` or the recording's error when the cassette cannot be made.
    init(url: URL, body: Data, direct: URLSession) async throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("nettap-bench-mock-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.removeItem(at: directory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let cassette = directory.appendingPathComponent("small.har")
        try await BenchCassette.record(url, into: cassette, expectedBody: body)

        BareProtocol.body.withLock { $0 = body }
        let stub = Stub(
            "small",
            matching: .method("GET") && .path(url.path),
            response: .data(body, headers: ["Content-Type": "text/plain"])
        )
        let mocked = NetTapInterceptor()
        mocked.handlers = [MockHandler(mocks: MockSet(stubs: [stub]), unmatched: .fail)]
        let replayed = NetTapInterceptor()
        replayed.handlers = [try ReplayHandler(cassette: cassette, mode: .none)]

        let request = URLRequest(url: url)
        let own: [MockVariant: URLSession] = [
            .bare: BareProtocol.makeSession(),
            .mocked: mocked.makeSession(),
            .replayed: replayed.makeSession(),
            .peer: PeerProtocol.makeSession(),
        ]
        var clients = own.mapValues { SmallClient.session($0, request, body) }
        clients[.direct] = .session(direct, request, body)
        clients[.floor] = .floor(try CurlFloor(url: url, body: body))
        self.clients = clients
        ownSessions = Array(own.values)
        interceptors = [.mocked: mocked, .replayed: replayed]
    }

    /// The client of `variant`.
    /// - Parameter variant: The variant.
    /// - Returns: The client.
    /// - Throws: ``BenchError`` when it is missing (it never is).
    func client(_ variant: MockVariant) throws -> SmallClient {
        guard let client = clients[variant] else { throw BenchError("mock: no client for \(variant.label)") }
        return client
    }

    /// Checks that the NetTap variants answered every captured request themselves, never through the network.
    /// - Returns: The number of captured transactions checked per NetTap variant.
    /// - Throws: ``BenchError`` naming the variant and the `answeredBy` found.
    func checkAnsweredInProcess() throws -> [MockVariant: Int] {
        var checked: [MockVariant: Int] = [:]
        for (variant, interceptor) in interceptors {
            guard let expected = variant.expectedAnsweredBy else { continue }
            let transactions = interceptor.captureLog.transactions
            if let other = transactions.first(where: { $0.answeredBy != expected }) {
                throw BenchError("mock: a \(variant.label) request was answered by \(other.answeredBy)")
            }
            guard !transactions.isEmpty else { throw BenchError("mock: \(variant.label) captured nothing") }
            checked[variant] = transactions.count
        }
        return checked
    }

    /// Invalidates the sessions this value created (not the shared direct one) and removes the cassette.
    func close() {
        for session in ownSessions { session.finishTasksAndInvalidate() }
        try? FileManager.default.removeItem(at: directory)
    }
}
