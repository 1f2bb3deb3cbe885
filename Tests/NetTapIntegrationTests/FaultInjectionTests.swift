import Foundation
import NetTapCore
import NetTapCrypto
import NetTapHAR
import NetTapTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A misbehaving upstream (``FaultServer``): each fault sent direct and through NetTap in every caller style.
///
/// For each fault: the app sees the same outcome both ways (``expectEquivalent(_:_:allowing:sourceLocation:)``:
/// the same error domain and code, or the same status, headers and bytes — partial ones included); the server
/// saw exactly one request from each side (NetTap retries nothing); NetTap's capture holds the transaction,
/// failed with the app's error code or completed with the app's status and byte count; and no call outlives
/// its request timeout by more than a generous deadline (a hang fails the test instead of stalling the run).
/// Speed is not checked here (that is `nettap-bench`'s job): the deadlines are loose on purpose.
///
/// The outcomes each fault gives on FoundationNetworking 6.3.1 (libcurl 7.88) are asserted for the direct side
/// too, so a platform change shows up as a failure that names the platform, not NetTap (`docs/testing.md`).
@Suite("Fault-injecting upstream: the same outcome direct and through NetTap", .serialized)
struct FaultInjectionTests {
    /// The NetTap side: sessions of a private interceptor, so its capture log holds only this suite's requests.
    private static let interceptor = NetTapInterceptor()
    private static let nettap = Client(name: "nettap", interceptor: interceptor)

    /// What one fault gave on both sides.
    private struct FaultPair {
        var direct: Outcome
        var nettap: Outcome
        /// NetTap's finished capture of the NetTap send; `nil` when none finished within 30 seconds.
        var capture: CapturedTransaction?
    }

    /// Sends the same request direct and through NetTap (one after the other), each tagged with its own
    /// `X-Test-ID`; checks the pair, the server's request count and the capture's presence.
    ///
    /// - Parameters:
    ///   - fault: The fault to ask for.
    ///   - parameters: The fault's query parameters.
    ///   - style: The caller style.
    ///   - timeout: The request's `timeoutInterval`, in seconds.
    ///   - digestingBody: Hash and count the body instead of keeping it (delegate style only).
    ///   - sourceLocation: Where failed expectations are reported.
    /// - Returns: Both outcomes and the capture.
    /// - Throws: When the fault server does not start, or a call hangs past 120 seconds.
    private func run(
        _ fault: FaultServer.Fault,
        _ parameters: [String: String] = [:],
        style: CallerStyle,
        timeout: TimeInterval = 3,
        digestingBody: Bool = false,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> FaultPair {
        let server = try await FaultServer.shared()
        var request = URLRequest(url: server.url(fault, parameters))
        request.timeoutInterval = timeout
        var outcomes: [Outcome] = []
        var testIDs: [String] = []
        for client in [Client.direct, Self.nettap] {
            let testID = Differential.makeTestID(client.name)
            var tagging = request
            tagging.setValue(testID, forHTTPHeaderField: HTTPBin.testIDHeader)
            let tagged = tagging
            // Well past the request timeout: only a hang gets here (the machine may be loaded, so no tight bound).
            let outcome = await withDeadline(.seconds(120)) {
                await client.send(tagged, style: style, digestingBody: digestingBody)
            }
            let finished = try #require(
                outcome,
                "\(client.name) \(fault) \(style): no answer within 120 s (timeout \(timeout) s)",
                sourceLocation: sourceLocation
            )
            let seen = await server.waitForRequests(withTestID: testID, count: 1)
            #expect(seen.count == 1, "\(client.name): the server saw \(seen)", sourceLocation: sourceLocation)
            outcomes.append(finished)
            testIDs.append(testID)
        }
        expectEquivalent(outcomes[0], outcomes[1], sourceLocation: sourceLocation)
        #expect(outcomes[1].bodyDigest == outcomes[0].bodyDigest, "body digest", sourceLocation: sourceLocation)
        #expect(
            outcomes[1].digestedByteCount == outcomes[0].digestedByteCount,
            "digested bytes",
            sourceLocation: sourceLocation
        )
        let nettapID = testIDs[1]
        let capture = await withDeadline(.seconds(30)) {
            await Self.interceptor.captureLog.waitForFinished { $0.request.headers[HTTPBin.testIDHeader] == nettapID }
        }
        #expect(capture != nil, "no finished capture of \(fault) \(style)", sourceLocation: sourceLocation)
        return FaultPair(direct: outcomes[0], nettap: outcomes[1], capture: capture)
    }

    /// Checks a failure: the direct side's error is `code` in `NSURLErrorDomain`, and the capture failed with it.
    private func expectFailure(
        _ pair: FaultPair,
        code: URLError.Code,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(pair.direct.error == "\(NSURLErrorDomain) \(code.rawValue)", "direct", sourceLocation: sourceLocation)
        #expect(pair.capture?.state == .failed, "captured state", sourceLocation: sourceLocation)
        #expect(pair.capture?.error?.domain == NSURLErrorDomain, "captured domain", sourceLocation: sourceLocation)
        // The message (libcurl's words) says which failure it was when the codes differ.
        #expect(
            pair.capture?.error?.code == code.rawValue,
            "captured code: \(pair.capture?.error?.message ?? "no error")",
            sourceLocation: sourceLocation
        )
    }

    /// Checks a success: the direct side got `status` and `bytes`, and the capture completed with both.
    private func expectSuccess(
        _ pair: FaultPair,
        status: Int = 200,
        bytes: Data,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(pair.direct.error == nil, "direct: \(pair.direct)", sourceLocation: sourceLocation)
        #expect(pair.direct.statusCode == status, "direct status", sourceLocation: sourceLocation)
        #expect(
            pair.direct.body == bytes,
            "direct body (\(pair.direct.body.count) bytes)",
            sourceLocation: sourceLocation
        )
        #expect(pair.capture?.state == .completed, "captured state", sourceLocation: sourceLocation)
        #expect(pair.capture?.response?.statusCode == status, "captured status", sourceLocation: sourceLocation)
        #expect(
            pair.capture?.response?.body?.totalByteCount == Int64(bytes.count),
            "captured body bytes",
            sourceLocation: sourceLocation
        )
    }

    /// A fault that fails the request, and what the platform makes of it.
    struct FailureCase: Sendable, CustomTestStringConvertible {
        var fault: FaultServer.Fault
        var parameters: [String: String] = [:]
        /// The request's `timeoutInterval`, in seconds.
        var timeout: TimeInterval = 3
        /// The `URLError` code both sides get.
        var code: URLError.Code
        /// What a delegate receives before the error: a 200 head and these bytes, or no head at all (`nil`).
        ///
        /// Async and completion-handler callers get the error alone (no response, no data) either way.
        var delegateReceives: Data?

        var testDescription: String { "\(fault)\(parameters.isEmpty ? "" : " \(parameters)") → \(code.rawValue)" }
    }

    /// Every failing fault, with the outcome FoundationNetworking 6.3.1 (libcurl 7.88) gives it direct.
    static let failures: [FailureCase] = [
        // libcurl: "Recv failure: Connection reset by peer" (CURLE_RECV_ERROR).
        FailureCase(fault: .resetBeforeHeaders, code: .networkConnectionLost),
        FailureCase(fault: .resetMidHeaders, code: .networkConnectionLost),
        FailureCase(
            fault: .resetMidBody,
            code: .networkConnectionLost,
            delegateReceives: FaultServer.pattern(count: 400)
        ),
        // "transfer closed with 600 bytes remaining to read" (CURLE_PARTIAL_FILE), which FoundationNetworking
        // maps to no URLError code in particular: -1 (NSURLErrorUnknown).
        FailureCase(fault: .shortBody, code: .unknown, delegateReceives: FaultServer.pattern(count: 400)),
        // "Illegal or missing hexadecimal sequence in chunked-encoding", after the good 5-byte chunk: -1 too.
        FailureCase(fault: .badChunked, code: .unknown, delegateReceives: Data("hello".utf8)),
        // "Received HTTP/0.9 when not allowed" (CURLE_UNSUPPORTED_PROTOCOL): -1002.
        FailureCase(fault: .garbageStatus, code: .unsupportedURL),
        FailureCase(fault: .never, timeout: 2, code: .timedOut),
        // The head arrives, then no byte for longer than the timeout: NetTap's own idle timer covers the body.
        FailureCase(
            fault: .slow,
            parameters: ["count": "2", "interval": "6"],
            timeout: 2,
            code: .timedOut,
            delegateReceives: Data()
        ),
    ]

    @Test(
        "a failing fault fails alike both ways, after the same partial data",
        arguments: failures,
        CallerStyle.allCases
    )
    func failure(_ failure: FailureCase, style: CallerStyle) async throws {
        let pair = try await run(failure.fault, failure.parameters, style: style, timeout: failure.timeout)
        expectFailure(pair, code: failure.code)
        let head = style == .delegate ? failure.delegateReceives : nil
        #expect(pair.direct.statusCode == head.map { _ in 200 }, "direct status")
        #expect(pair.direct.body == head ?? Data(), "direct partial body")
    }

    @Test("control: a well-formed answer is the same both ways", arguments: CallerStyle.allCases)
    func control(style: CallerStyle) async throws {
        let pair = try await run(.ok, style: style)
        expectSuccess(pair, bytes: FaultServer.pattern(count: 16))
    }

    @Test("a body longer than Content-Length is cut to Content-Length both ways", arguments: CallerStyle.allCases)
    func longBody(style: CallerStyle) async throws {
        let pair = try await run(.longBody, style: style)
        expectSuccess(pair, bytes: FaultServer.pattern(count: 10))
        #expect(pair.direct.expectedContentLength == 10)
    }

    @Test("one byte per second, within the timeout, arrives whole both ways", arguments: CallerStyle.allCases)
    func slow(style: CallerStyle) async throws {
        let pair = try await run(.slow, ["count": "3", "interval": "1"], style: style, timeout: 4)
        expectSuccess(pair, bytes: FaultServer.pattern(count: 3))
    }

    @Test("10,000 response headers arrive alike both ways, and all are captured", arguments: CallerStyle.allCases)
    func manyHeaders(style: CallerStyle) async throws {
        // Parsing 10,000 header lines keeps URLSession's process-wide queue busy for seconds (SharedQueueTurns).
        let pair = try await SharedQueueTurns.shared.run { try await run(.manyHeaders, style: style, timeout: 10) }
        expectSuccess(pair, bytes: Data("ok".utf8))
        #expect(pair.direct.headers.count >= 10_000)
        #expect(pair.direct.headers["x-fault-9999"] == "value-9999")
        #expect(pair.capture?.response?.headers["X-Fault-9999"] == "value-9999")
        #expect(pair.capture?.response?.headers.count ?? 0 >= 10_000)
    }

    /// The SHA-256 of the first `size` pattern bytes, fed in 1 MiB pieces.
    private static func patternDigest(size: Int) throws -> Data {
        let digest = try StreamingDigest(.sha256)
        let block = FaultServer.pattern(count: FaultServer.patternPeriod * 4096)
        var remaining = size
        while remaining > 0 {
            let count = min(block.count, remaining)
            digest.update(count == block.count ? block : block.prefix(count))
            remaining -= count
        }
        return try digest.finalize()
    }

    /// A huge body reaches a delegate whole and unchanged both ways: same byte count, same SHA-256.
    ///
    /// Always 1 GiB: on loopback it takes about 3 seconds each way on the shared 2-core machine, well inside the
    /// default suite's budget, so no soak switch is needed. The delegate hashes and counts chunks without keeping
    /// them; async and completion-handler callers would hold the whole body in memory (memory is measured by
    /// `nettap-bench`, not here).
    @Test("a 1 GiB body reaches a delegate with the same byte count and SHA-256 both ways")
    func huge() async throws {
        let size = 1 << 30
        let pair = try await SharedQueueTurns.shared.run {
            try await run(.huge, ["size": String(size)], style: .delegate, timeout: 30, digestingBody: true)
        }
        #expect(pair.direct.error == nil, "direct: \(pair.direct)")
        #expect(pair.direct.statusCode == 200)
        #expect(pair.direct.digestedByteCount == Int64(size))
        #expect(pair.direct.bodyDigest == (try Self.patternDigest(size: size)))
        #expect(pair.capture?.state == .completed)
        #expect(pair.capture?.response?.body?.totalByteCount == Int64(size))
    }

    /// Sends `count` requests to ``FaultServer/Fault/never`` on `session` and waits until the server saw them all.
    ///
    /// - Returns: The requests' tasks, to cancel at the end.
    private func hold(_ count: Int, connectionsOf session: URLSession, tag: String) async throws -> [Task<Void, Never>]
    {
        let server = try await FaultServer.shared()
        var holders: [Task<Void, Never>] = []
        for index in 0..<count {
            var request = URLRequest(url: server.url(.never))
            request.timeoutInterval = 60
            request.setValue("\(tag)-\(index)", forHTTPHeaderField: HTTPBin.testIDHeader)
            let held = request
            holders.append(Task { _ = try? await session.data(for: held) })
        }
        for index in 0..<count {
            let seen = await server.waitForRequests(withTestID: "\(tag)-\(index)", count: 1, timeout: .seconds(30))
            #expect(seen.count == 1, "\(tag)-\(index) never reached the server")
        }
        return holders
    }

    /// A hung host does not starve other app sessions, through NetTap as direct.
    ///
    /// Direct, each app session has its own 6 connections per host (libcurl's `CURLMOPT_MAX_HOST_CONNECTIONS`,
    /// from `httpMaximumConnectionsPerHost`). Through NetTap each app session has its own forwarding session
    /// (platform-notes §15), so a server that holds 6 requests of one session without answering leaves the
    /// other session's request to that host alone; with one forwarding session for both, it would queue in
    /// libcurl and time out.
    @Test("a server that never answers one session's 6 requests does not hold up another session's request")
    func hungHostDoesNotStarveOtherSessions() async throws {
        let server = try await FaultServer.shared()
        var ok = URLRequest(url: server.url(.ok))
        ok.timeoutInterval = 3
        let request = ok
        for side in ["direct", "nettap"] {
            let makeSession = {
                side == "direct" ? URLSession(configuration: .default) : Self.interceptor.makeSession()
            }
            let holding = makeSession()
            let other = makeSession()
            let holders = try await hold(6, connectionsOf: holding, tag: "hold-\(side)-\(UUID().uuidString)")
            // The byte count, or the error's code.
            let answer = await withDeadline(.seconds(120)) { () -> String in
                do {
                    return "\(try await other.data(for: request).0.count) bytes"
                } catch {
                    return "error \((error as NSError).code)"
                }
            }
            for holder in holders { holder.cancel() }
            for holder in holders { await holder.value }
            let outcome = try #require(answer, "\(side): no answer within 120 s")
            #expect(outcome == "16 bytes", "\(side)")
        }
    }

    /// A `Set-Cookie` name that swift-corelibs-foundation's `HTTPCookie` traps on (platform-notes §17).
    ///
    /// A plain URLSession that stores cookies ends the app on it, so only the NetTap side is sent. NetTap relays the
    /// answer, stores the cookie under the name the server sent, and its HAR export reads the same name. Only on
    /// the libcurl transport: the URLSession transport's forwarding session stores cookies with the same
    /// `HTTPCookie` and ends the app alike (platform-notes §17).
    @Test(
        "a Set-Cookie name of emoji or combining marks is relayed, stored and captured through NetTap",
        .enabled(if: Self.interceptor.transport is CurlTransport, "the URLSession transport traps like the platform"),
        arguments: [
            "\u{1F600}\u{1F600}=1; Path=/", "e\u{301}=v\u{1F600}; Path=/; HttpOnly", "a=1; \u{1F600}=x; Path=/",
        ]
    )
    func setCookieNames(value: String) async throws {
        let server = try await FaultServer.shared()
        let configuration = URLSessionConfiguration.ephemeral
        let storage = HTTPCookieStorage.shared
        configuration.httpCookieStorage = storage
        let session = Self.interceptor.makeSession(configuration: configuration)
        let url = server.url(.setCookie, ["value": value])
        var request = URLRequest(url: url)
        let testID = Differential.makeTestID("cookie")
        request.setValue(testID, forHTTPHeaderField: HTTPBin.testIDHeader)
        let (body, response) = try await session.data(for: request)
        let expected = value.split(separator: ";")[0].split(separator: "=", maxSplits: 1).map(String.init)
        #expect(String(decoding: body, as: UTF8.self) == "ok")
        #expect((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Set-Cookie") == value)
        let stored = storage.cookies(for: url) ?? []
        #expect(stored.contains { $0.name == expected[0] && $0.value == expected[1] }, "stored: \(stored)")
        for cookie in stored where cookie.name == expected[0] { storage.deleteCookie(cookie) }
        let capture = await withDeadline(.seconds(30)) {
            await Self.interceptor.captureLog.waitForFinished { $0.request.headers[HTTPBin.testIDHeader] == testID }
        }
        let headers = try #require(capture?.response?.headers)
        let exported = HARCookie.responseCookies(in: headers, url: url)
        // Capture redacts cookie values by default; the name is the one the server sent.
        #expect(exported.map(\.name) == [expected[0]])
        session.invalidateAndCancel()
    }
}
