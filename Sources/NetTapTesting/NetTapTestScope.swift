import Foundation
import NetTapCore
import NetTapMocking
import NetTapReplay

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// NetTap for one test: a private interceptor with its own stubs, request journal and capture, and the
/// sessions that go through it.
///
/// Made by ``withNetTap(unmatched:stubs:scenarios:cassette:recordMode:matching:allowPlaybackRepeats:reRecordInterval:clock:checkUnmatched:checkUnusedStubs:checkUnplayedEntries:fileID:filePath:line:column:_:)``,
/// which removes it at the end. Nothing here is global: tests that run in parallel (Swift Testing runs tests
/// in parallel by default) each see only their own stubs, requests and transactions, as long as the code
/// under test uses ``session`` or a session from ``makeSession(configuration:delegate:delegateQueue:)``.
///
/// ```swift
/// @Test func showsTheCart() async throws {
///     try await withNetTap { tap in
///         tap.stub(.method("GET") && .path("/cart"), .json(["items": []]))
///         let cart = try await CartClient(session: tap.session).load()
///         #expect(cart.items.isEmpty)
///         tap.expect(.path("/cart"), count: 1)
///     }
/// }
/// ```
///
/// Thread safety: every member may be used from any thread.
public final class NetTapTestScope: Sendable {
    /// The scope's own interceptor (never `NetTapInterceptor/shared`).
    public let interceptor: NetTapInterceptor
    /// The stubs and scenarios answering this scope's requests; change them at any time, effective for the
    /// next request.
    public let mocks: MockSet
    /// Every request the scope's sessions sent, in arrival order, before any stub or the network answered.
    public let journal: RequestJournal
    /// The cassette handler when the scope replays or records a cassette, else `nil`.
    public let cassette: ReplayHandler?
    /// A session through this scope, from an ephemeral configuration (no shared cookies or cache).
    public let session: URLSession
    private let sessions = Locked([URLSession]())
    /// Where the scope's stubs were declared, and what its checks reported.
    let ledger: ScopeLedger

    init(
        interceptor: NetTapInterceptor,
        mocks: MockSet,
        journal: RequestJournal,
        cassette: ReplayHandler?,
        origin: TestSourceLocation,
        unmatched: MockHandler.UnmatchedPolicy
    ) {
        self.interceptor = interceptor
        self.mocks = mocks
        self.journal = journal
        self.cassette = cassette
        ledger = ScopeLedger(origin: origin, recordsStubs: unmatched == .record)
        for (stub, scenario, _) in mocks.stubHits {
            let how = scenario == nil ? "the stubs: argument of withNetTap" : "the scenarios: argument of withNetTap"
            ledger.declare(.init(name: stub.name, scenario: scenario), at: origin, how: how)
        }
        let session = interceptor.makeSession(configuration: .ephemeral)
        self.session = session
        sessions.withLock { $0.append(session) }
    }

    /// Creates another session whose requests go through this scope (for code that needs its own
    /// configuration or a delegate).
    ///
    /// The session is invalidated when the scope ends.
    /// - Parameters:
    ///   - configuration: The configuration to copy; `.ephemeral` by default. NetTap is installed into the copy.
    ///   - delegate: The session delegate.
    ///   - delegateQueue: The delegate queue.
    /// - Returns: The session.
    public func makeSession(
        configuration: URLSessionConfiguration = .ephemeral,
        delegate: (any URLSessionDelegate)? = nil,
        delegateQueue: OperationQueue? = nil
    ) -> URLSession {
        let session = interceptor.makeSession(
            configuration: configuration,
            delegate: delegate,
            delegateQueue: delegateQueue
        )
        sessions.withLock { $0.append(session) }
        return session
    }

    /// Adds a named stub to the base stubs (active whatever the scenario).
    ///
    /// - Parameters:
    ///   - name: The stub's name, shown in explanations and the `stub` annotation.
    ///   - matcher: Which requests it answers.
    ///   - response: The answer.
    ///   - fileID: The caller's file ID (leave the default): where an unused-stub report points.
    ///   - filePath: The caller's file path (leave the default).
    ///   - line: The caller's line (leave the default).
    ///   - column: The caller's column (leave the default).
    /// - Returns: The stub as added.
    @discardableResult
    public func stub(
        _ name: String,
        _ matcher: RequestMatcher,
        _ response: StubResponse,
        fileID: String = #fileID,
        filePath: StaticString = #filePath,
        line: Int = #line,
        column: Int = #column
    ) -> Stub {
        let stub = Stub(name, matching: matcher, response: response)
        let location = TestSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        ledger.declare(.init(name: name, scenario: nil), at: location, how: "tap.stub")
        mocks.add(stub)
        return stub
    }

    /// Adds a stub named after its matcher's description to the base stubs.
    ///
    /// - Parameters:
    ///   - matcher: Which requests it answers.
    ///   - response: The answer.
    ///   - fileID: The caller's file ID (leave the default): where an unused-stub report points.
    ///   - filePath: The caller's file path (leave the default).
    ///   - line: The caller's line (leave the default).
    ///   - column: The caller's column (leave the default).
    /// - Returns: The stub as added.
    @discardableResult
    public func stub(
        _ matcher: RequestMatcher,
        _ response: StubResponse,
        fileID: String = #fileID,
        filePath: StaticString = #filePath,
        line: Int = #line,
        column: Int = #column
    ) -> Stub {
        stub(matcher.description, matcher, response, fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// Every request sent so far, in arrival order; bodies are in `httpBody`.
    ///
    /// These are the requests as the app sent them, secrets included (not redacted), so a test can assert the
    /// `Authorization` header it expects; ``transactions`` are redacted like every capture.
    public var requests: [URLRequest] { journal.requests }

    /// The requests a matcher selects, in arrival order.
    ///
    /// - Parameter matcher: Which requests to return.
    /// - Returns: The requests, bodies in `httpBody`.
    public func requests(matching matcher: RequestMatcher) -> [URLRequest] {
        journal.requests(matching: matcher)
    }

    /// The finished and in-flight transactions captured so far, oldest first.
    ///
    /// Redacted with the interceptor's `redactor` (`Redactor.default`): secrets read `[redacted]`. Use
    /// ``requests`` for what the app really sent, or set `interceptor.redactor = .disabled` to capture raw.
    public var transactions: [CapturedTransaction] { interceptor.captureLog.transactions }

    /// The requests no stub matched (whatever the unmatched policy did with them), in arrival order.
    public var unmatchedRequests: [URLRequest] { mocks.unmatchedRequests }

    /// Checks that a matcher selects exactly `count` of the requests sent so far; reports a test failure
    /// otherwise.
    ///
    /// - Parameters:
    ///   - matcher: Which requests to count.
    ///   - count: How many there must be.
    ///   - fileID: The caller's file ID (leave the default).
    ///   - filePath: The caller's file path (leave the default).
    ///   - line: The caller's line (leave the default).
    ///   - column: The caller's column (leave the default).
    /// - Returns: Whether the check passed.
    @discardableResult
    public func expect(
        _ matcher: RequestMatcher,
        count: Int,
        fileID: String = #fileID,
        filePath: StaticString = #filePath,
        line: Int = #line,
        column: Int = #column
    ) -> Bool {
        expect(
            matcher,
            count: count...count,
            at: TestSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        )
    }

    /// Checks that the number of requests a matcher selects lies in a range; reports a test failure otherwise.
    ///
    /// - Parameters:
    ///   - matcher: Which requests to count.
    ///   - count: The allowed counts, for example `1...` for "at least once".
    ///   - fileID: The caller's file ID (leave the default).
    ///   - filePath: The caller's file path (leave the default).
    ///   - line: The caller's line (leave the default).
    ///   - column: The caller's column (leave the default).
    /// - Returns: Whether the check passed.
    @discardableResult
    public func expect(
        _ matcher: RequestMatcher,
        count: some RangeExpression<Int> & Sendable,
        fileID: String = #fileID,
        filePath: StaticString = #filePath,
        line: Int = #line,
        column: Int = #column
    ) -> Bool {
        expect(
            matcher,
            count: count,
            at: TestSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        )
    }

    /// Checks that no request went unmatched; reports each unmatched request with the closest stub and why
    /// it missed, and each request the cassette could not answer with the closest entry and what differed.
    ///
    /// With a cassette, a request no stub matched is the cassette's to answer, so only the requests the cassette
    /// could not answer count. Call it where the report should point, for example on the scope's last line: the
    /// check `withNetTap` makes when the scope ends then leaves out what this call reported.
    /// - Parameters:
    ///   - fileID: The caller's file ID (leave the default).
    ///   - filePath: The caller's file path (leave the default).
    ///   - line: The caller's line (leave the default).
    ///   - column: The caller's column (leave the default).
    /// - Returns: Whether there were none.
    @discardableResult
    public func expectNoUnmatchedRequests(
        fileID: String = #fileID,
        filePath: StaticString = #filePath,
        line: Int = #line,
        column: Int = #column
    ) -> Bool {
        checkUnmatched(
            at: TestSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column),
            stubMisses: cassette == nil,
            onlyUnreported: false
        )
    }

    private func expect(
        _ matcher: RequestMatcher,
        count: some RangeExpression<Int>,
        at location: TestSourceLocation
    ) -> Bool {
        let all = journal.requests
        let matching = all.filter(matcher.matches)
        guard !count.contains(matching.count) else { return true }
        var message =
            "expected \(Self.describe(count)) request(s) matching \(matcher.description), got \(matching.count)"
        if all.isEmpty {
            message += "; no requests were sent"
        } else {
            message += "; requests sent:"
            for request in all.suffix(20) {
                let mark = matcher.matches(request) ? "✓" : "✗ \(matcher.explain(request))"
                message += "\n  \(Self.describe(request)) \(mark)"
            }
        }
        TestFailure.record(message, at: location)
        return false
    }

    /// Reports the requests no stub matched (when `stubMisses`) and those the cassette refused, each with its
    /// near miss; with `onlyUnreported`, only those no earlier check reported.
    ///
    /// - Returns: Whether there were none.
    func checkUnmatched(at location: TestSourceLocation, stubMisses: Bool, onlyUnreported: Bool) -> Bool {
        let reported = ledger.reportedCounts
        var passed = true
        if stubMisses {
            let all = mocks.unmatchedRequests
            let unmatched = onlyUnreported ? ScopeLedger.unreported(all, reported: reported.unmatched) : all[...]
            ledger.markReported(unmatched: all.count)
            if !unmatched.isEmpty {
                let lines = unmatched.map { "  " + mocks.explainUnmatched($0) }
                TestFailure.record(
                    "\(unmatched.count) request(s) matched no stub:\n" + lines.joined(separator: "\n"),
                    at: location
                )
                passed = false
            }
        }
        if let cassette {
            let all = cassette.refusals
            let refused = onlyUnreported ? ScopeLedger.unreported(all, reported: reported.refusals) : all[...]
            ledger.markReported(refusals: all.count)
            if !refused.isEmpty {
                TestFailure.record(
                    "\(refused.count) request(s) the cassette \(cassette.fileURL.lastPathComponent) could not answer:\n"
                        + refused.map { "  " + $0 }.joined(separator: "\n"),
                    at: location
                )
                passed = false
            }
        }
        return passed
    }

    /// Ends the scope: cancels what is still in flight, flushes the cassette, turns the interceptor off.
    func close() async throws {
        for session in sessions.withLock({ $0 }) { session.invalidateAndCancel() }
        interceptor.uninstall()  // off, and its protocol class free for the next scope
        try await cassette?.flush()
    }

    private static func describe(_ request: URLRequest) -> String {
        "\((request.httpMethod ?? "GET").uppercased()) \(request.url?.absoluteString ?? "<no URL>")"
    }

    private static func describe(_ range: some RangeExpression<Int>) -> String {
        switch range {
        case let range as ClosedRange<Int> where range.lowerBound == range.upperBound: "exactly \(range.lowerBound)"
        case let range as ClosedRange<Int>: "\(range.lowerBound) to \(range.upperBound)"
        case let range as PartialRangeFrom<Int>: "at least \(range.lowerBound)"
        case let range as PartialRangeThrough<Int>: "at most \(range.upperBound)"
        case let range as Range<Int>: "\(range.lowerBound) to \(range.upperBound - 1)"
        default: "\(range)"
        }
    }
}
