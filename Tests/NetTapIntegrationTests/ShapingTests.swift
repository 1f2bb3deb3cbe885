import Foundation
import NetTapCore
import NetTapMocking
import NetTapReplay
import NetTapShaping
import NetTapTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Shaping through real URLSession: conditions, loss, latency, bandwidth and rules")
struct ShapingTests {
    /// An interceptor whose only handler is a shaper with `shaper`.
    private static func interceptor(_ shaper: NetworkShaper) -> NetTapInterceptor {
        let interceptor = NetTapInterceptor()
        interceptor.handlers = [ShapingHandler(shaper: shaper, random: SeededRandom(seed: 1))]
        return interceptor
    }

    /// A request to httpbin tagged with a fresh `X-Test-ID`.
    private static func tagged(_ url: URL, _ label: String) -> (request: URLRequest, testID: String) {
        let testID = "shaping-\(label)-\(UUID().uuidString)"
        var request = URLRequest(url: url)
        request.setValue(testID, forHTTPHeaderField: HTTPBin.testIDHeader)
        return (request, testID)
    }

    /// Sends a direct, tagged request and waits until httpbin logged it, so that anything sent before it had
    /// its chance to reach the log; then returns what the server saw of `testID`.
    private static func requestsSeen(withTestID testID: String, server: HTTPBin) async throws -> [HTTPBin.LogLine] {
        let (barrier, barrierID) = tagged(server.url("/get?barrier=1"), "barrier")
        let outcome = await CallRecorder(interceptor: nil).send(barrier, style: .async)
        #expect(outcome.response?.statusCode == 200)
        let barrierLines = await server.waitForRequests(withTestID: barrierID, count: 1)
        try #require(barrierLines.count == 1, "the barrier request reached httpbin")
        return server.requests(withTestID: testID)
    }

    // MARK: - Conditions and loss

    @Test(
        "a condition fails with its URLError code, NSURLErrorDomain and the failing-URL keys; httpbin sees nothing",
        arguments: [
            (NetworkProfile.offline, -1009),  // notConnectedToInternet
            (NetworkProfile.dnsFailure, -1003),  // cannotFindHost
            (NetworkProfile.serverDown, -1004),  // cannotConnectToHost
            (NetworkProfile.totalLoss, -1005),  // networkConnectionLost
        ]
    )
    func conditionFails(profile: NetworkProfile, code: Int) async throws {
        let server = try await HTTPBin.shared()
        let caller = CallRecorder(interceptor: Self.interceptor(NetworkShaper(profile: profile)))
        let (request, testID) = Self.tagged(server.url("/get?shaped=1"), "condition-\(code)")
        let url = try #require(request.url)
        for style in CallerStyle.allCases {
            let outcome = await caller.send(request, style: style)
            let error = try #require(outcome.nsError, "\(style)")
            #expect(outcome.error is URLError, "\(style)")
            #expect(outcome.response == nil, "\(style)")
            #expect(error.domain == NSURLErrorDomain, "\(style)")
            #expect(error.code == code, "\(style)")
            #expect(error.userInfo[NSURLErrorFailingURLErrorKey] as? URL == url, "\(style)")
            #expect(error.userInfo["NSErrorFailingURLStringKey"] as? String == url.absoluteString, "\(style)")
        }
        #expect(try await Self.requestsSeen(withTestID: testID, server: server).isEmpty, "httpbin saw no request")
    }

    @Test(
        "server down fails like a refused connection to a closed 127.0.0.1 port: code, domain and error keys",
        arguments: CallerStyle.allCases
    )
    func serverDownLikeRefusedConnection(style: CallerStyle) async throws {
        let port = try HTTPBin.unusedPort()
        let url = try #require(URL(string: "http://127.0.0.1:\(port)/shaped/refused"))
        let real = await CallRecorder(interceptor: nil).send(URLRequest(url: url), style: style)
        let shaped = await CallRecorder(interceptor: Self.interceptor(NetworkShaper(profile: .serverDown)))
            .send(URLRequest(url: url), style: style)
        let realError = try #require(real.nsError)
        let shapedError = try #require(shaped.nsError)
        #expect(realError.code == URLError.Code.cannotConnectToHost.rawValue, "the platform's refusal is -1004")
        #expect(shapedError.domain == realError.domain)
        #expect(shapedError.code == realError.code)
        #expect(shaped.errorKeys == real.errorKeys)
        // libcurl's message names the milliseconds the refusal took; that number is the only part that may differ.
        let elapsedFree = { (text: String) in
            text.replacingOccurrences(of: "after [0-9]+ ms", with: "after _ ms", options: .regularExpression)
        }
        #expect(elapsedFree(shapedError.localizedDescription) == elapsedFree(realError.localizedDescription))
        let realUnderlying = realError.userInfo[NSUnderlyingErrorKey] as? NSError
        let shapedUnderlying = shapedError.userInfo[NSUnderlyingErrorKey] as? NSError
        #expect(shapedUnderlying?.domain == realUnderlying?.domain)
        #expect(shapedUnderlying?.code == realUnderlying?.code)
        for key in [NSURLErrorFailingURLErrorKey, "NSErrorFailingURLStringKey"] {
            #expect(realError.userInfo[key] != nil, "the platform sets \(key)")
            #expect("\(shapedError.userInfo[key] ?? "-")" == "\(realError.userInfo[key] ?? "+")", "\(key)")
        }
    }

    @Test(
        "the timeout condition with a 1 s request timeout fails with the platform's own -1001, in real time",
        arguments: CallerStyle.allCases
    )
    func timeoutCondition(style: CallerStyle) async throws {
        let server = try await HTTPBin.shared()
        let caller = CallRecorder(interceptor: Self.interceptor(NetworkShaper(profile: .timeout)))
        var (request, testID) = Self.tagged(server.url("/get?shaped=timeout"), "timeout")
        request.timeoutInterval = 1
        let start = ContinuousClock.now
        let outcome = await caller.send(request, style: style)
        let elapsed = ContinuousClock.now - start
        let real = try #require(try await platformTimeouts.value[style])
        #expect(real.nsError?.code == URLError.Code.timedOut.rawValue)
        #expect(outcome.error is URLError)
        #expect(outcome.nsError?.domain == real.nsError?.domain)
        #expect(outcome.nsError?.code == URLError.Code.timedOut.rawValue)
        #expect(outcome.errorKeys == real.errorKeys)
        // The request's own timeout fired (a generous upper bound: the machine may be loaded).
        #expect(elapsed >= .milliseconds(900) && elapsed < .seconds(120), "took \(elapsed)")
        #expect(try await Self.requestsSeen(withTestID: testID, server: server).isEmpty, "httpbin saw no request")
    }

    // MARK: - Latency and bandwidth

    @Test(
        "300 ms latency and 64 KiB/s download bring 64 KiB from httpbin in about 1.3 s, whole and in order",
        arguments: CallerStyle.allCases
    )
    func latencyAndBandwidth(style: CallerStyle) async throws {
        let server = try await HTTPBin.shared()
        let profile = NetworkProfile(latency: .milliseconds(300), downloadBytesPerSecond: 65_536)
        let caller = CallRecorder(interceptor: Self.interceptor(NetworkShaper(profile: profile)))
        let (request, testID) = Self.tagged(server.url("/stream-bytes/65536?seed=5&chunk_size=65536"), "pace")
        let direct = await CallRecorder(interceptor: nil).send(request, style: style)
        let start = ContinuousClock.now
        let outcome = await caller.send(request, style: style)
        let elapsed = ContinuousClock.now - start
        #expect(outcome.error == nil, "\(outcome)")
        #expect(outcome.response?.statusCode == 200)
        #expect(outcome.body.count == 65_536)
        #expect(outcome.body == direct.body, "the same seeded bytes as without shaping")
        // 300 ms latency + 65,536 bytes at 65,536 B/s = 1.3 s; the upper bound only catches a hang: speed is for nettap-bench.
        #expect(elapsed >= .milliseconds(1_250) && elapsed < .seconds(120), "took \(elapsed)")
        if style == .delegate {
            #expect(outcome.chunkCount >= 10, "paced in steps of at most 50 ms, not one burst: \(outcome.chunkCount)")
        }
        let lines = await server.waitForRequests(withTestID: testID, count: 2)
        #expect(lines.count == 2, "httpbin saw the direct and the shaped request")
    }

    @Test("two downloads at once share the profile's bandwidth, as on one link: 2 × 32 KiB at 64 KiB/s take about 1 s")
    func concurrentDownloadsShareBandwidth() async throws {
        let server = try await HTTPBin.shared()
        let profile = NetworkProfile(downloadBytesPerSecond: 65_536)
        let caller = CallRecorder(interceptor: Self.interceptor(NetworkShaper(profile: profile)))
        let start = ContinuousClock.now
        let calls = [
            caller.start(URLRequest(url: server.url("/stream-bytes/32768?seed=1&chunk_size=32768")), style: .async),
            caller.start(URLRequest(url: server.url("/stream-bytes/32768?seed=2&chunk_size=32768")), style: .delegate),
        ]
        var outcomes: [Observed] = []
        for call in calls { outcomes.append(await call.value) }
        let elapsed = ContinuousClock.now - start
        #expect(outcomes.map(\.body.count) == [32_768, 32_768])
        // Alone each would take 0.5 s; sharing 64 KiB/s, the pair needs 1 s (the upper bound only catches a hang).
        #expect(elapsed >= .milliseconds(950) && elapsed < .seconds(120), "took \(elapsed)")
    }

    @Test("cancelling a paced download from httpbin ends it at once with one -999, long before the pacing would")
    func cancelPacedDownload() async throws {
        let server = try await HTTPBin.shared()
        let profile = NetworkProfile(downloadBytesPerSecond: 16_384)  // 262,144 bytes would take 16 s
        let caller = CallRecorder(interceptor: Self.interceptor(NetworkShaper(profile: profile)))
        let (request, _) = Self.tagged(server.url("/stream-bytes/262144?seed=3&chunk_size=65536"), "cancel")
        let call = caller.start(request, style: .delegate)
        let task = try #require(call.task)
        await caller.delegate.firstChunk(of: task)
        let cancelledAt = ContinuousClock.now
        call.cancel()
        let outcome = await call.value
        let afterCancel = ContinuousClock.now - cancelledAt
        #expect(outcome.nsError?.code == URLError.Code.cancelled.rawValue)
        #expect(outcome.body.count < 262_144, "only the pieces paced before the cancel arrived")
        #expect(call.completionCount == 1)
        // At once: well under one second on an idle machine (5.5 s once with the whole suite running on 2 cores);
        // the bound only tells a cancel apart from the ~15 s the rest of the pacing would take.
        #expect(afterCancel < .seconds(12), "the cancel took \(afterCancel)")

        let (next, _) = Self.tagged(server.url("/get?after=cancel"), "after-cancel")
        let unshaped = await CallRecorder(interceptor: Self.interceptor(NetworkShaper())).send(next, style: .async)
        #expect(unshaped.response?.statusCode == 200, "the forwarding session still works")
    }

    // MARK: - Rules

    @Test("a rule scoped to one path shapes only that path; other paths reach httpbin unshaped")
    func ruleScopedToPath() async throws {
        let server = try await HTTPBin.shared()
        let shaper = NetworkShaper(rules: [ShapingRule(.path("/status/204"), profile: .offline)])
        let caller = CallRecorder(interceptor: Self.interceptor(shaper))
        for style in CallerStyle.allCases {
            let (scoped, scopedID) = Self.tagged(server.url("/status/204"), "rule-scoped-\(style)")
            let (other, otherID) = Self.tagged(server.url("/get?rule=other"), "rule-other-\(style)")
            let shaped = await caller.send(scoped, style: style)
            let unshaped = await caller.send(other, style: style)
            #expect(shaped.nsError?.code == URLError.Code.notConnectedToInternet.rawValue, "\(style)")
            #expect(unshaped.error == nil, "\(style): \(unshaped)")
            #expect(unshaped.response?.statusCode == 200, "\(style)")
            let otherLines = await server.waitForRequests(withTestID: otherID, count: 1)
            #expect(otherLines.map(\.path) == ["/get"], "\(style)")
            #expect(try await Self.requestsSeen(withTestID: scopedID, server: server).isEmpty, "\(style)")
        }
    }

    // MARK: - Answers from handlers after the shaper

    /// Sends `request` through `handlers` with the async caller and returns the outcome and the elapsed time.
    private static func timed(
        _ request: URLRequest,
        handlers: [any TransactionHandler]
    ) async -> (outcome: Observed, elapsed: Duration) {
        let interceptor = NetTapInterceptor()
        interceptor.handlers = handlers
        let start = ContinuousClock.now
        let outcome = await CallRecorder(interceptor: interceptor).send(request, style: .async)
        return (outcome, ContinuousClock.now - start)
    }

    @Test("a stub behind the shaper is delayed and paced like the network, and offline never reaches the stub")
    func shapesStubs() async throws {
        let body = Data((0..<65_536).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 1) })
        let url = try #require(URL(string: "https://api.example.com/photo"))
        let mocks = MockSet(stubs: [Stub("photo", matching: try .url(url.absoluteString), response: .data(body))])
        let mock = MockHandler(mocks: mocks, unmatched: .fail)
        let paced = NetworkProfile(latency: .milliseconds(300), downloadBytesPerSecond: 65_536)
        let shaped = await Self.timed(
            URLRequest(url: url),
            handlers: [ShapingHandler(shaper: NetworkShaper(profile: paced)), mock]
        )
        #expect(shaped.outcome.error == nil, "\(shaped.outcome)")
        #expect(shaped.outcome.body == body)
        // 300 ms latency + 65,536 bytes at 65,536 B/s = 1.3 s; the upper bound only catches a hang: speed is for nettap-bench.
        #expect(shaped.elapsed >= .milliseconds(1_250) && shaped.elapsed < .seconds(120), "took \(shaped.elapsed)")
        #expect(mocks.hitCount(for: "photo") == 1)

        let offline = await Self.timed(
            URLRequest(url: url),
            handlers: [ShapingHandler(shaper: NetworkShaper(profile: .offline)), mock]
        )
        #expect(offline.outcome.nsError?.code == URLError.Code.notConnectedToInternet.rawValue)
        #expect(mocks.hitCount(for: "photo") == 1, "the stub was not asked")
    }

    @Test("a cassette replay behind the shaper is delayed and paced like the network, byte for byte")
    func shapesCassetteReplays() async throws {
        let server = try await HTTPBin.shared()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nettap-shaped-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("cassette.har")
        let request = URLRequest(url: server.url("/stream-bytes/65536?seed=9&chunk_size=65536"))

        let recorder = try ReplayHandler(cassette: file, mode: .all)
        let recorded = await Self.timed(request, handlers: [recorder])
        try await recorder.flush()
        #expect(recorded.outcome.body.count == 65_536)

        let replayer = try ReplayHandler(cassette: file, mode: .none)
        let paced = NetworkProfile(latency: .milliseconds(300), downloadBytesPerSecond: 65_536)
        let shaped = await Self.timed(
            request,
            handlers: [ShapingHandler(shaper: NetworkShaper(profile: paced)), replayer]
        )
        #expect(shaped.outcome.error == nil, "\(shaped.outcome)")
        #expect(shaped.outcome.body == recorded.outcome.body)
        #expect(shaped.elapsed >= .milliseconds(1_250) && shaped.elapsed < .seconds(120), "took \(shaped.elapsed)")
    }
}
