import Foundation
import NetTapCore
import NetTapMocking
import NetTapReplay

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Runs `body` with NetTap installed on sessions of its own, and removes it at the end: the one call a test
/// needs.
///
/// The scope gets a private `NetTapInterceptor` (parallel tests never see each other's stubs or requests) that
/// records every request in a ``RequestJournal``, answers from ``NetTapTestScope/mocks``, then from the cassette
/// when one is given, then from the network. When `body` returns or throws, the scope's sessions are
/// invalidated and the cassette is flushed. When `body` returns, every request no stub matched and every
/// request the cassette could not answer is reported as a test failure at the `withNetTap` line (a function
/// knows where its call starts, not where its closure ends), naming the closest stub or entry and what
/// differed (unless `checkUnmatched` is `false`); call ``NetTapTestScope/expectNoUnmatchedRequests(fileID:filePath:line:column:)``
/// where the report should point instead. Opt in to failing on stubs never used (`checkUnusedStubs`) and
/// cassette entries never played (`checkUnplayedEntries`). Each scope gets a new `MockSet`: its state machines
/// start in `StubState.started` whatever an earlier test moved them to.
///
/// ```swift
/// @Test func login() async throws {
///     try await withNetTap { tap in
///         tap.stub(.method("POST") && .path("/login"), .json(["token": "t"]))
///         let token = try await AuthClient(session: tap.session).logIn(user: "ada", password: "pw")
///         #expect(token == "t")
///         let sent = try #require(tap.requests(matching: .path("/login")).first)
///         #expect(sent.httpBody.map { try? JSONValue(data: $0) }?["user"] == "ada")
///     }
/// }
/// ```
///
/// With a `ManualClock`, a request answered by a stub sleeps twice on the clock (the stub's latency and the
/// request's idle timeout): wait for two sleepers per request, then advance. The pipeline, the clean-up and a
/// clock example are in the “Testing with NetTap” article of the NetTap documentation.
///
/// - Parameters:
///   - unmatched: What happens to requests no stub matches: `.fail` by default without a cassette (the
///     request fails with `URLError(.resourceUnavailable)` and is reported), `.passThrough` by default with
///     one (the cassette answers or records it).
///   - stubs: Base stubs to start with.
///   - scenarios: Scenarios to start with (none active).
///   - cassette: A HAR file to replay and/or record (see `RecordMode`), or `nil`.
///   - recordMode: The cassette's record mode; `.once` by default.
///   - matching: How requests are matched to cassette entries; method + URL by default.
///   - allowPlaybackRepeats: Whether a cassette entry may answer again once every matching entry was played;
///     `true` by default. When `false`, each entry plays once, and a further request fails with
///     `URLError(.resourceUnavailable)` in a mode that does not record.
///   - reRecordInterval: The age (from the cassette's earliest entry's `startedDateTime`) after which the
///     cassette is recorded again in a mode that records; `nil` (never) by default.
///   - clock: The clock stubs' latency, pacing and request timeouts run on; with a `ManualClock` they take no
///     real time, but only move when the test calls `advance(by:)` (see the example in the article).
///   - checkUnmatched: Whether to report, at the end, the requests no stub matched (when the unmatched policy is
///     `.fail`) and those the cassette could not answer; `true` by default.
///   - checkUnusedStubs: Whether to report, at the end, every stub that answered no request, at the line that
///     declared it (see ``NetTapTestScope/expectNoUnusedStubs(fileID:filePath:line:column:)``); `false` by
///     default.
///   - checkUnplayedEntries: Whether to report, at the end, every cassette entry no request replayed, with the
///     cassette file and the entry's JSON path; `false` by default.
///   - fileID: The caller's file ID (leave the default).
///   - filePath: The caller's file path (leave the default).
///   - line: The caller's line (leave the default).
///   - column: The caller's column (leave the default).
///   - body: The test code; use ``NetTapTestScope/session`` (or a session from the scope) for requests.
/// - Returns: What `body` returns.
/// - Throws: What `body` throws; a `HARError` when the cassette file exists but cannot be read; an error
///   writing the cassette at the end.
public func withNetTap<Result: Sendable>(
    unmatched: MockHandler.UnmatchedPolicy? = nil,
    stubs: [Stub] = [],
    scenarios: [Scenario] = [],
    cassette: URL? = nil,
    recordMode: RecordMode = .once,
    matching: CassetteMatching = .default,
    allowPlaybackRepeats: Bool = true,
    reRecordInterval: Duration? = nil,
    clock: any Clock<Duration> = ContinuousClock(),
    checkUnmatched: Bool = true,
    checkUnusedStubs: Bool = false,
    checkUnplayedEntries: Bool = false,
    fileID: String = #fileID,
    filePath: StaticString = #filePath,
    line: Int = #line,
    column: Int = #column,
    _ body: (NetTapTestScope) async throws -> Result
) async throws -> Result {
    let location = TestSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    let interceptor = NetTapInterceptor()
    interceptor.clock = clock
    let mocks = MockSet(stubs: stubs, scenarios: scenarios)
    let journal = RequestJournal()
    let replay = try cassette.map {
        try ReplayHandler(
            cassette: $0,
            mode: recordMode,
            matching: matching,
            allowPlaybackRepeats: allowPlaybackRepeats,
            reRecordInterval: reRecordInterval
        )
    }
    let policy = unmatched ?? (replay == nil ? .fail : .passThrough)
    interceptor.handlers = [journal, MockHandler(mocks: mocks, unmatched: policy)] + (replay.map { [$0] } ?? [])
    let scope = NetTapTestScope(
        interceptor: interceptor,
        mocks: mocks,
        journal: journal,
        cassette: replay,
        origin: location,
        unmatched: policy
    )
    let result: Result
    do {
        result = try await body(scope)
    } catch {
        try? await scope.close()
        throw error
    }
    try await scope.close()
    scope.checkAtEnd(
        unmatched: checkUnmatched,
        stubMisses: policy == .fail,
        unusedStubs: checkUnusedStubs,
        unplayedEntries: checkUnplayedEntries
    )
    return result
}
