import Foundation
import NetTapCore
import NetTapMocking
import NetTapReplay

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The four ways the `mock` scenario gets the small file: from the server, or answered in the process.
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

    /// The name printed in detail lines.
    var label: String { rawValue }

    /// The `answeredBy` every captured transaction of this variant must have, for the NetTap variants.
    var expectedAnsweredBy: String? {
        switch self {
        case .direct, .bare: nil
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

/// One session per ``MockVariant``, the private interceptors behind the NetTap ones, and the cassette file.
///
/// The NetTap variants each use their own ``Interceptor`` (not ``Interceptor/shared``), so their handlers and
/// capture logs do not touch the other scenarios'.
struct MockSessions {
    /// The sessions, one per variant.
    let sessions: [MockVariant: URLSession]
    /// The interceptors of the NetTap variants.
    let interceptors: [MockVariant: Interceptor]
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
        let mocked = Interceptor()
        mocked.handlers = [MockHandler(mocks: MockSet(stubs: [stub]), unmatched: .fail)]
        let replayed = Interceptor()
        replayed.handlers = [try ReplayHandler(cassette: cassette, mode: .none)]

        sessions = [
            .direct: direct,
            .bare: BareProtocol.makeSession(),
            .mocked: mocked.makeSession(),
            .replayed: replayed.makeSession(),
        ]
        interceptors = [.mocked: mocked, .replayed: replayed]
    }

    /// The session of `variant`.
    /// - Parameter variant: The variant.
    /// - Returns: The session.
    /// - Throws: ``BenchError`` when it is missing (it never is).
    func session(_ variant: MockVariant) throws -> URLSession {
        guard let session = sessions[variant] else { throw BenchError("mock: no session for \(variant.label)") }
        return session
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
        for (variant, session) in sessions where variant != .direct { session.finishTasksAndInvalidate() }
        try? FileManager.default.removeItem(at: directory)
    }
}
