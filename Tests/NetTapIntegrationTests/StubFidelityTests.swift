import Foundation
import NetTapCore
import NetTapHAR
import NetTapMocking
import NetTapReplay
import NetTapShaping
import NetTapTestSupport
import NetTapTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How the app hands a request body to URLSession.
enum BodyWay: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// `URLRequest.httpBody` on a data task.
    case httpBody
    /// `URLRequest.httpBodyStream` on a data task.
    case httpBodyStream
    /// `uploadTask(with:from:)` / `upload(for:from:)`.
    case uploadData
    /// `uploadTask(with:fromFile:)` / `upload(for:fromFile:)`.
    case uploadFile

    var testDescription: String { rawValue }
}

/// One matcher with a request it selects and a near miss it must not select.
private struct MatcherProbe: Sendable {
    var name: String
    var matcher: RequestMatcher
    var hit: URLRequest
    var miss: URLRequest
}

/// One body matcher with a body it selects and a body it must not select.
private struct BodyProbe: Sendable {
    var name: String
    var path: String
    var contentType: String?
    var matcher: RequestMatcher
    var hit: Data
    var miss: Data
}

/// Stubs and cassettes as the app sees them through a real URLSession, in every caller style: the gaps
/// `MockingTests`, `HandlerAnswerTests` and `CassetteTests` leave.
///
/// Stub URLs use `127.0.0.1:1` (nothing listens there) or reserved `.test` names (RFC 6761), and every mock set
/// here has a stub for any request or fails unmatched ones, so a request that escaped the stubs fails loudly
/// instead of reaching anything.
@Suite("Stub fidelity through URLSession")
struct StubFidelityTests {
    private static let base = "http://127.0.0.1:1"

    private static func url(_ string: String) throws -> URL {
        try #require(URL(string: string.hasPrefix("http") ? string : base + string))
    }

    private static func request(
        _ method: String = "GET",
        _ url: String,
        headers: [String: String] = [:]
    ) throws -> URLRequest {
        var request = URLRequest(url: try Self.url(url))
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        return request
    }

    private static func client(
        _ mocks: MockSet,
        unmatched: MockHandler.UnmatchedPolicy = .fail,
        configuration: URLSessionConfiguration = .default
    ) -> (Client, NetTapInterceptor) {
        let interceptor = NetTapInterceptor()
        interceptor.handlers = [MockHandler(mocks: mocks, unmatched: unmatched)]
        return (Client(name: "mock", interceptor: interceptor, configuration: configuration), interceptor)
    }

    private static func text(_ body: Data) -> String {
        String(decoding: body, as: UTF8.self)
    }

    // MARK: - 1. Matchers

    private static func matcherProbes() throws -> [MatcherProbe] {
        [
            MatcherProbe(
                name: "method",
                matcher: .method("delete"),
                hit: try request("DELETE", "/item"),
                miss: try request("GET", "/item")
            ),
            MatcherProbe(
                name: "host wildcard",
                matcher: .host("*.example.test"),
                hit: try request("GET", "http://API.Example.test/x"),
                miss: try request("GET", "http://example.test/x")
            ),
            MatcherProbe(
                name: "path exact",
                matcher: .path("/users/42"),
                hit: try request("GET", "/users/42?x=1"),
                miss: try request("GET", "/users/42/avatar")
            ),
            MatcherProbe(
                name: "path prefix",
                matcher: .pathPrefix("/api"),
                hit: try request("GET", "/api/users"),
                miss: try request("GET", "/apiary")
            ),
            MatcherProbe(
                name: "path glob",
                matcher: .pathGlob("/users/*/posts/**"),
                hit: try request("GET", "/users/7/posts/1/comments"),
                miss: try request("GET", "/users/7/8/posts")
            ),
            MatcherProbe(
                name: "path regex",
                matcher: try .pathRegex("^/orders/[0-9]+$"),
                hit: try request("GET", "/orders/123"),
                miss: try request("GET", "/orders/12a")
            ),
            MatcherProbe(
                name: "url pattern",
                matcher: try .url("http://*.example.test:8080/api/**"),
                hit: try request("GET", "http://v1.example.test:8080/api/a/b"),
                miss: try request("GET", "http://v1.example.test:8081/api/a/b")
            ),
            MatcherProbe(
                name: "repeated query keys",
                matcher: .query(items: [URLQueryItem(name: "a", value: "1"), URLQueryItem(name: "a", value: "2")]),
                hit: try request("GET", "/q?a=2&b=0&a=1"),
                miss: try request("GET", "/q?a=1&b=0&a=1")
            ),
            MatcherProbe(
                name: "query exactly",
                matcher: .query(["page": "2", "q": nil], exactly: true),
                hit: try request("GET", "/q?q=swift&page=2"),
                miss: try request("GET", "/q?q=swift&page=2&sort=asc")
            ),
            MatcherProbe(
                name: "query plus as space",
                matcher: .query(["q": "a b"]),
                hit: try request("GET", "/s?q=a+b"),
                miss: try request("GET", "/s?q=ab")
            ),
            MatcherProbe(
                name: "header in any case",
                matcher: .header("X-Api-Key", "k1"),
                hit: try request("GET", "/h", headers: ["x-API-key": "k1"]),
                miss: try request("GET", "/h", headers: ["x-api-key": "K1"])
            ),
            MatcherProbe(
                name: "and",
                matcher: .method("POST") && .path("/login"),
                hit: try request("POST", "/login"),
                miss: try request("GET", "/login")
            ),
            MatcherProbe(
                name: "or",
                matcher: .path("/a") || .path("/b"),
                hit: try request("GET", "/b"),
                miss: try request("GET", "/c")
            ),
            MatcherProbe(
                name: "not",
                matcher: .pathPrefix("/open") && !.header("Authorization"),
                hit: try request("GET", "/open/doc"),
                miss: try request("GET", "/open/doc", headers: ["authorization": "Bearer t"])
            ),
        ]
    }

    @Test(
        "each matcher kind selects its stub, and its near miss falls to the catch-all",
        arguments: CallerStyle.allCases
    )
    func matcherKinds(style: CallerStyle) async throws {
        let mocks = MockSet(stubs: [Stub("fallback", matching: .any, response: .text("fallback", statusCode: 404))])
        let (client, _) = Self.client(mocks)
        for (index, probe) in try Self.matcherProbes().enumerated() {
            // Added after the catch-all, so even a specificity-0 matcher (`!`) wins the tie as the newest.
            mocks.add(Stub(probe.name, matching: probe.matcher, response: .text(probe.name)))
            let hit = await client.send(probe.hit, style: style)
            #expect(hit.statusCode == 200, "\(probe.name): \(hit)")
            #expect(Self.text(hit.body) == probe.name, "\(probe.name)")
            let miss = await client.send(probe.miss, style: style)
            #expect(miss.statusCode == 404, "\(probe.name) near miss: \(miss)")
            #expect(Self.text(miss.body) == "fallback", "\(probe.name) near miss")
            #expect(mocks.hitCount(for: probe.name) == 1, "\(probe.name)")
            #expect(mocks.hitCount(for: "fallback") == index + 1, "\(probe.name)")
            mocks.removeStub(named: probe.name)
        }
        #expect(mocks.unmatchedRequests.isEmpty)
    }

    private static func bodyProbes() -> [BodyProbe] {
        // Larger than the 64 KiB a stream is read in at a time, and not UTF-8.
        let large = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        var largeMiss = large
        largeMiss[150_000] ^= 0xFF
        return [
            BodyProbe(
                name: "body exact",
                path: "/exact",
                contentType: "text/plain",
                matcher: .path("/exact") && .body("hello, body"),
                hit: Data("hello, body".utf8),
                miss: Data("hello, body!".utf8)
            ),
            BodyProbe(
                name: "body exact bytes",
                path: "/bytes",
                contentType: "application/octet-stream",
                matcher: .path("/bytes") && .body(large),
                hit: large,
                miss: largeMiss
            ),
            BodyProbe(
                name: "json body",
                path: "/json",
                contentType: "application/json",
                matcher: .path("/json") && .jsonBody(["user": "ann", "tags": ["a", "b"], "n": 1]),
                hit: Data(#"{ "n": 1, "tags": ["a", "b"],"user":"ann" }"#.utf8),
                miss: Data(#"{"user":"ann","tags":["b","a"],"n":1}"#.utf8)
            ),
            BodyProbe(
                name: "json body contains",
                path: "/contains",
                contentType: "application/json",
                matcher: .path("/contains") && .jsonBodyContains(["user": "ann"]),
                hit: Data(#"{"user":"ann","extra":true}"#.utf8),
                miss: Data(#"{"user":"bob","extra":true}"#.utf8)
            ),
            BodyProbe(
                name: "form fields",
                path: "/form",
                contentType: "application/x-www-form-urlencoded",
                matcher: .path("/form") && .formFields(["name": "Ann Lee", "city": "Zürich"]),
                hit: Data("city=Z%C3%BCrich&name=Ann+Lee&x=1".utf8),
                miss: Data("name=Ann+Lee&x=1".utf8)
            ),
        ]
    }

    /// A POST of `body` to `path` sent the given way; files go into `folder`.
    private static func post(
        _ path: String,
        body: Data,
        contentType: String?,
        way: BodyWay,
        folder: URL
    ) throws -> (URLRequest, Upload?) {
        var request = try Self.request("POST", path)
        // No Content-Length: with a stream body FoundationNetworking would send it beside chunked encoding.
        if let contentType { request.setValue(contentType, forHTTPHeaderField: "Content-Type") }
        switch way {
        case .httpBody:
            request.httpBody = body
            return (request, nil)
        case .httpBodyStream:
            request.httpBodyStream = InputStream(data: body)
            return (request, nil)
        case .uploadData:
            return (request, .data(body))
        case .uploadFile:
            let file = folder.appendingPathComponent(UUID().uuidString)
            try body.write(to: file)
            return (request, .file(file))
        }
    }

    @Test(
        "body matchers see the body however the app sends it",
        arguments: BodyWay.allCases,
        CallerStyle.allCases
    )
    func bodyMatchers(way: BodyWay, style: CallerStyle) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nettap-body-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let probes = Self.bodyProbes()
        let mocks = MockSet(
            stubs: [Stub("fallback", matching: .any, response: .text("fallback", statusCode: 404))]
                + probes.map { Stub($0.name, matching: $0.matcher, response: .text($0.name)) }
        )
        let (client, interceptor) = Self.client(mocks)
        for probe in probes {
            let (hitRequest, hitUpload) = try Self.post(
                probe.path,
                body: probe.hit,
                contentType: probe.contentType,
                way: way,
                folder: folder
            )
            let hit = await client.send(hitRequest, style: style, upload: hitUpload)
            #expect(hit.statusCode == 200, "\(probe.name): \(hit)")
            #expect(Self.text(hit.body) == probe.name, "\(probe.name)")
            let (missRequest, missUpload) = try Self.post(
                probe.path,
                body: probe.miss,
                contentType: probe.contentType,
                way: way,
                folder: folder
            )
            let miss = await client.send(missRequest, style: style, upload: missUpload)
            #expect(Self.text(miss.body) == "fallback", "\(probe.name) near miss: \(miss)")
            #expect(mocks.hitCount(for: probe.name) == 1, "\(probe.name)")
            let name = probe.name
            let captured = await withDeadline(.seconds(60)) {
                await interceptor.captureLog.waitForFinished { $0.annotations[MockHandler.stubAnnotation] == name }
            }
            #expect(captured != nil, "\(probe.name): no finished capture within 60 s")
            #expect(captured?.request.body?.data == probe.hit, "\(probe.name): the capture holds the body sent")
        }
        #expect(mocks.hitCount(for: "fallback") == probes.count)
    }

    // MARK: - 2. Precedence

    @Test(
        "the active scenario first, then base stubs; the most specific stub answers, then the newest of equals",
        arguments: CallerStyle.allCases
    )
    func precedence(style: CallerStyle) async throws {
        // The most specific stubs come first, so only specificity can make them win.
        let mocks = MockSet(
            stubs: [
                Stub("get users", matching: .method("GET") && .path("/api/users"), response: .text("get users")),
                Stub("users", matching: .path("/api/users"), response: .text("users")),
                Stub("api", matching: .pathPrefix("/api"), response: .text("api")),
                Stub("old twin", matching: .path("/twin"), response: .text("old twin")),
                Stub("new twin", matching: .path("/twin"), response: .text("new twin")),
                Stub("base cart", matching: .path("/cart"), response: .text("base cart")),
                Stub(
                    "base checkout",
                    matching: .method("POST") && .path("/checkout"),
                    response: .text("base checkout")
                ),
            ],
            scenarios: [
                Scenario(
                    "sale",
                    stubs: [
                        Stub("sale cart", matching: .path("/cart"), response: .text("sale cart")),
                        Stub("sale checkout", matching: .path("/checkout"), response: .text("sale checkout")),
                    ]
                )
            ]
        )
        let (client, interceptor) = Self.client(mocks)
        func answer(_ method: String, _ path: String) async throws -> String {
            Self.text(await client.send(try Self.request(method, path), style: style).body)
        }
        #expect(try await answer("GET", "/api/users") == "get users")
        #expect(try await answer("PUT", "/api/users") == "users")
        #expect(try await answer("GET", "/api/orders") == "api")
        #expect(try await answer("GET", "/twin") == "new twin")
        // Replacing a stub by name makes it the newest.
        mocks.add(Stub("old twin", matching: .path("/twin"), response: .text("old twin again")))
        #expect(try await answer("GET", "/twin") == "old twin again")

        #expect(try await answer("GET", "/cart") == "base cart")
        let unmatched = await client.send(try Self.request("GET", "/checkout"), style: style)
        #expect(unmatched.errorCode == URLError.Code.resourceUnavailable.rawValue, "the scenario is not active yet")
        try mocks.activate(scenario: "sale")
        #expect(try await answer("GET", "/cart") == "sale cart", "the active scenario comes first")
        #expect(try await answer("POST", "/checkout") == "sale checkout", "even before a more specific base stub")
        #expect(try await answer("GET", "/api/users") == "get users", "the scenario does not match: base stubs")
        // A base stub added after the scenario does not override it.
        mocks.add(Stub("late cart", matching: .path("/cart"), response: .text("late cart")))
        #expect(try await answer("GET", "/cart") == "sale cart")
        try mocks.activate(scenario: nil)
        #expect(try await answer("GET", "/cart") == "late cart", "without a scenario, the newest of equals")
        mocks.removeStub(named: "late cart")
        #expect(try await answer("GET", "/cart") == "base cart")

        #expect(mocks.hitCount(for: "sale cart", in: "sale") == 2)
        #expect(mocks.hitCount(for: "base cart") == 2)
        let saleAnswer = await withDeadline(.seconds(60)) {
            await interceptor.captureLog.waitForFinished { $0.annotations[MockHandler.stubAnnotation] == "sale cart" }
        }
        #expect(saleAnswer?.annotations[MockHandler.scenarioAnnotation] == "sale")
        let baseAnswer = await withDeadline(.seconds(60)) {
            await interceptor.captureLog.waitForFinished {
                $0.annotations[MockHandler.stubAnnotation] == "get users"
            }
        }
        #expect(baseAnswer != nil)
        #expect(baseAnswer?.annotations[MockHandler.scenarioAnnotation] == nil)
    }

    // MARK: - 3. Sequences

    @Test(
        "a 500-then-200 sequence answers each caller style in order and counts its hits",
        arguments: CallerStyle.allCases
    )
    func sequence(style: CallerStyle) async throws {
        let mocks = MockSet(stubs: [
            Stub(
                "flaky",
                matching: .path("/flaky"),
                sequence: [.text("boom", statusCode: 500), .json(["ok": true])]
            ),
            Stub("cycling", matching: .path("/cycling"), sequence: [.status(500), .status(200)], afterEnd: .cycle),
            Stub("other", matching: .path("/other"), response: .status(204)),
        ])
        let (client, interceptor) = Self.client(mocks)
        var seen: [String] = []
        for _ in 0..<3 {
            let outcome = await client.send(try Self.request("GET", "/flaky"), style: style)
            #expect(outcome.error == nil)
            seen.append("\(outcome.statusCode ?? -1) \(Self.text(outcome.body))")
        }
        #expect(seen == ["500 boom", #"200 {"ok":true}"#, #"200 {"ok":true}"#])
        #expect(mocks.hitCount(for: "flaky") == 3)
        #expect(mocks.hitCount(for: "other") == 0)
        var cycled: [Int] = []
        for _ in 0..<4 {
            cycled.append(await client.send(try Self.request("GET", "/cycling"), style: style).statusCode ?? -1)
        }
        #expect(cycled == [500, 200, 500, 200])
        #expect(mocks.hitCount(for: "cycling") == 4)
        let steps = interceptor.captureLog.transactions
            .filter { $0.annotations[MockHandler.stubAnnotation] == "flaky" }
            .compactMap { $0.annotations[MockHandler.sequenceAnnotation] }
        #expect(steps.sorted() == ["0", "1", "1"])

        mocks.resetCounters()
        #expect(await client.send(try Self.request("GET", "/flaky"), style: style).statusCode == 500)
        #expect(await client.send(try Self.request("GET", "/other"), style: style).statusCode == 204)
        #expect(mocks.hitCount(for: "flaky") == 1)
        #expect(mocks.hitCount(for: "other") == 1)
    }

    @Test("concurrent requests to a sequence stub each get their own step, whatever their caller style")
    func concurrentSequence() async throws {
        let count = 30
        let mocks = MockSet(stubs: [
            Stub("steps", matching: .path("/step"), sequence: (0..<count).map { .text("step \($0)") })
        ])
        let (client, _) = Self.client(mocks)
        let request = try Self.request("GET", "/step")
        let bodies = await withTaskGroup(of: String.self) { group in
            for index in 0..<count {
                group.addTask {
                    let style = CallerStyle.allCases[index % CallerStyle.allCases.count]
                    return Self.text(await client.send(request, style: style).body)
                }
            }
            var bodies: [String] = []
            for await body in group { bodies.append(body) }
            return bodies
        }
        #expect(Set(bodies) == Set((0..<count).map { "step \($0)" }))
        #expect(mocks.hitCount(for: "steps") == count)
    }

    // MARK: - 4. Cookies

    /// A configuration with a fresh in-memory cookie jar.
    private static func freshJar() -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.default
        configuration.httpCookieStorage = URLSessionConfiguration.ephemeral.httpCookieStorage
        return configuration
    }

    private static func cookies(_ configuration: URLSessionConfiguration) -> [String] {
        (configuration.httpCookieStorage?.cookies ?? [])
            .map { "\($0.name)=\($0.value); domain=\($0.domain); path=\($0.path); session=\($0.isSessionOnly)" }
            .sorted()
    }

    @Test(
        "two Set-Cookie lines from a stub land in the jar and go to httpbin as cookies from /cookies/set do",
        arguments: CallerStyle.allCases
    )
    func cookiesFromStub(style: CallerStyle) async throws {
        let server = try await HTTPBin.shared()

        // Direct: httpbin's /cookies/set?first=1&second=2 answers 302 with `Set-Cookie: first=1; Path=/` and
        // `Set-Cookie: second=2; Path=/`, then /cookies echoes them.
        let directJar = Self.freshJar()
        let direct = Client(name: "direct", configuration: directJar)
        let set = await direct.send(URLRequest(url: server.url("/cookies/set?first=1&second=2")), style: style)
        #expect(set.statusCode == 200)
        let directEcho = await direct.send(URLRequest(url: server.url("/cookies")), style: style)

        // Through NetTap: a stub on httpbin's own origin sends the same two lines; /cookies passes through.
        var headers: HeaderFields = ["Content-Type": "text/plain"]
        headers.add(name: "Set-Cookie", value: "first=1; Path=/")
        headers.add(name: "Set-Cookie", value: "second=2; Path=/")
        let mocks = MockSet(stubs: [
            Stub("login", matching: .path("/stub/login"), response: .text("welcome", headers: headers))
        ])
        let nettapJar = Self.freshJar()
        let (client, interceptor) = Self.client(mocks, unmatched: .passThrough, configuration: nettapJar)
        let login = await client.send(URLRequest(url: server.url("/stub/login")), style: style)
        #expect(login.statusCode == 200)
        #expect(Self.text(login.body) == "welcome")
        #expect(Self.cookies(nettapJar) == Self.cookies(directJar))
        #expect(Self.cookies(nettapJar).count == 2)
        let echo = await client.send(URLRequest(url: server.url("/cookies")), style: style)
        #expect(echo.statusCode == 200)
        let cookies = try #require(json(echo.body)?["cookies"] as? [String: String])
        #expect(cookies == ["first": "1", "second": "2"])
        #expect(echo.body == directEcho.body)
        #expect(mocks.hitCount(for: "login") == 1)
        #expect(interceptor.captureLog.transactions.map(\.answeredBy).sorted() == ["mock", "network"])
    }

    // MARK: - 5. Cancellation

    @Test(
        "cancelling a stub during its latency gives one -999 and nothing else, and counts one hit",
        arguments: CallerStyle.allCases
    )
    func cancelDelayedStub(style: CallerStyle) async throws {
        let clock = ManualClock()
        let mocks = MockSet(stubs: [
            Stub("slow", matching: .path("/slow"), response: .text("late").withLatency(.seconds(10))),
            Stub("fast", matching: .path("/fast"), response: .text("fast")),
        ])
        let interceptor = NetTapInterceptor()
        interceptor.clock = clock
        interceptor.handlers = [MockHandler(mocks: mocks, unmatched: .fail)]
        let caller = CallRecorder(interceptor: interceptor)
        let call = caller.start(try Self.request("GET", "/slow"), style: style)
        await clock.waitForSleepers(count: 2)  // the stub's latency and the request's idle timeout
        call.cancel()
        let outcome = await call.value
        #expect(outcome.nsError?.domain == NSURLErrorDomain)
        #expect(outcome.nsError?.code == URLError.Code.cancelled.rawValue)
        #expect(outcome.response == nil)
        #expect(outcome.body.isEmpty)
        let transaction = await withDeadline(.seconds(60)) {
            await interceptor.captureLog.waitForFinished { $0.request.url.path == "/slow" }
        }
        #expect(transaction?.state == .cancelled)
        #expect(transaction?.response == nil)
        #expect(transaction?.answeredBy == "mock")
        #expect(transaction?.annotations[MockHandler.stubAnnotation] == "slow")
        clock.advance(by: .seconds(60))
        // A later request on the same sessions and queues: anything late for the first would come before its end.
        let after = await caller.send(try Self.request("GET", "/fast"), style: style)
        #expect(Self.text(after.body) == "fast")
        #expect(call.completionCount == 1)
        if let task = call.task, style == .delegate {
            #expect(caller.delegate.callbacks(of: task) == [.complete(URLError.Code.cancelled.rawValue)])
        }
        #expect(clock.sleeperCount == 0)
        // The stub was chosen before its latency began: one hit, counted once, not undone by the cancel.
        #expect(mocks.hitCount(for: "slow") == 1)
        #expect(mocks.hitCount(for: "fast") == 1)
        #expect(interceptor.captureLog.transactions.count == 2)
    }

    // MARK: - 6. Failures

    @Test(
        "a stub failure reaches every caller style with the same domain, code and keys",
        arguments: [
            URLError.Code.notConnectedToInternet, .timedOut, .cannotFindHost, .networkConnectionLost, .cancelled,
            .cannotConnectToHost,
        ]
    )
    func stubFailure(code: URLError.Code) async throws {
        let mocks = MockSet(stubs: [Stub("down", matching: .any, response: .failure(code))])
        let interceptor = NetTapInterceptor()
        interceptor.handlers = [MockHandler(mocks: mocks, unmatched: .fail)]
        let caller = CallRecorder(interceptor: interceptor)
        let url = try Self.url("/down?x=1")
        var seen: [String] = []
        for style in CallerStyle.allCases {
            let call = caller.start(URLRequest(url: url), style: style)
            let outcome = await call.value
            let error = try #require(outcome.nsError, "\(style)")
            #expect(outcome.error is URLError, "\(style)")
            #expect(error.domain == NSURLErrorDomain, "\(style)")
            #expect(error.code == code.rawValue, "\(style)")
            #expect(outcome.response == nil, "\(style)")
            #expect(outcome.body.isEmpty, "\(style)")
            if code != .timedOut {
                #expect(error.userInfo[NSURLErrorFailingURLErrorKey] as? URL == url, "\(style)")
            }
            seen.append("\(error.domain) \(error.code) \(outcome.errorKeys)")
            if let task = call.task, style == .delegate {
                #expect(caller.delegate.callbacks(of: task) == [.complete(code.rawValue)])
            }
            #expect(call.completionCount == 1, "\(style)")
        }
        #expect(Set(seen).count == 1, "\(seen)")
        #expect(mocks.hitCount(for: "down") == CallerStyle.allCases.count)
    }

    /// A network failure a loopback request really gets here, and how NetTap simulates it.
    struct RealFailure: Sendable, CustomTestStringConvertible {
        /// What happens on the wire.
        var name: String
        /// The code the platform gives.
        var code: URLError.Code
        /// The shaping profile that simulates it, if one does.
        var profile: NetworkProfile?
        /// The request's `timeoutInterval`, in seconds.
        var timeout: TimeInterval = 3
        /// Whether a stub's `.failure(code)` stands for it (not for a server's HTTP/0.9 answer, which a recording
        /// replays but a stub's `-1002` does not: that is an unsupported URL).
        var isStubbable = true

        var testDescription: String { "\(name) (\(code.rawValue))" }

        /// The URL that fails this way for real.
        func url() async throws -> URL {
            let server = try await FaultServer.shared()
            switch code {
            case .cannotConnectToHost: return try Self.url("http://127.0.0.1:\(try HTTPBin.unusedPort())/refused")
            // RFC 6761: `.invalid` never resolves; libcurl fails the lookup at once.
            case .cannotFindHost: return try Self.url("http://nettap-check.invalid/dns")
            case .networkConnectionLost: return server.url(.resetBeforeHeaders)
            case .timedOut: return server.url(.never)
            case .badServerResponse: return server.url(.emptyReply)
            default: return server.url(.garbageStatus)
            }
        }

        private static func url(_ text: String) throws -> URL { try #require(URL(string: text)) }
    }

    /// Every failure of the simulated-failure table that a real loopback situation produces here (offline has no
    /// loopback counterpart: FoundationNetworking never gives -1009).
    static let realFailures = [
        RealFailure(name: "refused connection", code: .cannotConnectToHost, profile: .serverDown),
        RealFailure(name: "reset before the head", code: .networkConnectionLost, profile: .totalLoss),
        RealFailure(name: "no answer", code: .timedOut, profile: .timeout, timeout: 2),
        RealFailure(name: "unresolvable .invalid host", code: .cannotFindHost, profile: .dnsFailure),
        RealFailure(name: "empty reply", code: .badServerResponse),
        RealFailure(name: "garbage instead of a status line", code: .unsupportedURL, isStubbable: false),
    ]

    /// The real failure, recorded through NetTap's capture into a HAR cassette of one entry.
    private static func cassette(recording request: URLRequest, style: CallerStyle) async throws -> URL {
        let recorder = NetTapInterceptor()
        _ = await CallRecorder(interceptor: recorder).send(request, style: style)
        let transaction = try #require(
            await withDeadline(.seconds(60)) { await recorder.captureLog.waitForFinished { _ in true } }
        )
        #expect(transaction.state == .failed)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("nettap-failure-\(UUID()).har")
        try HARDocument(transactions: [transaction]).write(to: file)
        return file
    }

    @Test(
        "a stub's failure, a shaping condition and a replayed recording look like the real loopback failure",
        arguments: realFailures,
        CallerStyle.allCases
    )
    func simulatedFailureLooksReal(failure: RealFailure, style: CallerStyle) async throws {
        var request = URLRequest(url: try await failure.url())
        request.timeoutInterval = failure.timeout
        let url = try #require(request.url)
        let real = FailureShape(await CallRecorder(interceptor: nil).send(request, style: style), url: url)
        #expect(real.error == "\(NSURLErrorDomain) \(failure.code.rawValue)", "the platform's own code: \(real)")
        var sides: [(String, any TransactionHandler)] = [
            (
                "cassette",
                try ReplayHandler(cassette: try await Self.cassette(recording: request, style: style), mode: .none)
            )
        ]
        if failure.isStubbable {
            let stub = Stub("s", matching: .any, response: .failure(failure.code))
            sides.append(("stub", MockHandler(mocks: MockSet(stubs: [stub]))))
        }
        if let profile = failure.profile {
            sides.append(("shaping", ShapingHandler(shaper: NetworkShaper(profile: profile))))
        }
        for (side, handler) in sides {
            let interceptor = NetTapInterceptor()
            interceptor.handlers = [handler]
            let simulated = await CallRecorder(interceptor: interceptor).send(request, style: style)
            expectSameFailure(FailureShape(simulated, url: url), as: real, "\(side) \(style)")
        }
    }

    @Test(
        "a stub's unsupportedURL looks like the platform's own unsupported URL (a scheme it has no protocol for)",
        arguments: CallerStyle.allCases
    )
    func unsupportedURLLooksReal(style: CallerStyle) async throws {
        let unsupported = try #require(URL(string: "nettap-nope://127.0.0.1/x"))
        let real = FailureShape(
            await CallRecorder(interceptor: nil).send(URLRequest(url: unsupported), style: style),
            url: unsupported
        )
        #expect(real.error == "\(NSURLErrorDomain) \(URLError.unsupportedURL.rawValue)", "\(real)")
        let interceptor = NetTapInterceptor()
        let stub = Stub("s", matching: .any, response: .failure(.unsupportedURL))
        interceptor.handlers = [MockHandler(mocks: MockSet(stubs: [stub]))]
        let url = try #require(URL(string: "http://127.0.0.1:1/unsupported"))
        let simulated = await CallRecorder(interceptor: interceptor).send(URLRequest(url: url), style: style)
        expectSameFailure(FailureShape(simulated, url: url), as: real, "stub \(style)")
    }

    // MARK: - 7. Real HAR exports replayed

    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("NetTapHARTests/Fixtures")

    static let fixtureNames = ["charles.har", "chrome.har", "insomnia.har", "postdata.har", "with-bom.har"]

    @Test(
        "every entry of a real HAR export replays through URLSession with its status and decoded body",
        arguments: fixtureNames,
        CallerStyle.allCases
    )
    func replayFixture(name: String, style: CallerStyle) async throws {
        let file = Self.fixtures.appendingPathComponent(name)
        let document = try HARDocument.load(contentsOf: file)
        let interceptor = NetTapInterceptor()
        interceptor.handlers = [try ReplayHandler(cassette: file, mode: .none)]
        let client = Client(name: "replay", interceptor: interceptor, configuration: .ephemeral)
        var replayed = 0
        for (index, entry) in document.log.entries.enumerated() {
            let label = "\(name) entry \(index)"
            var request = URLRequest(url: try #require(URL(string: entry.request.url), "\(label)"))
            request.httpMethod = entry.request.method
            request.httpBody = entry.request.postData?.decodedData()
            let outcome = await client.send(request, style: style)
            let status = entry.response.status
            guard status > 0 else {
                // Status 0: the browser never got a response. A recorded network failure (Chrome's `_error`) replays
                // as that failure; anything else (blocked, aborted) cannot be replayed, and mode `.none` fails it
                // without touching the network.
                let offline = entry.response.customFields["_error"]?.stringValue == "net::ERR_INTERNET_DISCONNECTED"
                let code: URLError.Code = offline ? .notConnectedToInternet : .resourceUnavailable
                #expect(outcome.errorCode == code.rawValue, "\(label): \(outcome)")
                continue
            }
            let location = entry.response.headers.first { $0.name.lowercased() == "location" }
            if (300..<400).contains(status), location != nil, status != 304 {
                // The interceptor follows a recorded redirect to the next entry, so the app never sees this one.
                continue
            }
            let decoded = entry.response.content.decodedData() ?? Data()
            // A HEAD answer, 1xx, 204 and 304 cannot carry a body in HTTP (RFC 9110 §9.3.2, §15.3.5, §15.4.5);
            // Chrome still stores the cached resource's body with its 304.
            // Those statuses replay with no Content-Length, as a stub saved from the entry answers.
            let statusHasContent = !(100..<200).contains(status) && status != 204 && status != 304
            let carriesBody = request.httpMethod != "HEAD" && statusHasContent
            #expect(outcome.error == nil, "\(label): \(outcome)")
            #expect(outcome.statusCode == status, "\(label)")
            #expect(outcome.body == (carriesBody ? decoded : Data()), "\(label): \(outcome.body.count) bytes")
            #expect(
                outcome.headers["content-length"] == (statusHasContent ? String(decoded.count) : nil),
                "\(label)"
            )
            #expect(outcome.expectedContentLength == (statusHasContent ? Int64(decoded.count) : -1), "\(label)")
            let contentType = entry.response.headers.first { $0.name.lowercased() == "content-type" }?.value
            if let contentType {
                #expect(outcome.headers["content-type"] == contentType, "\(label)")
            }
            replayed += 1
        }
        #expect(replayed > 0)
        #expect(interceptor.captureLog.transactions.allSatisfy { $0.answeredBy == "cassette" || $0.state == .failed })
    }

    // MARK: - 8. A recorded stub against the server it was recorded from

    /// httpbin endpoints whose answer does not change between requests.
    ///
    /// `/gzip` and `/deflate` are left out: a recording keeps the decoded body without `Content-Encoding` (the app must
    /// never see encoded bytes it cannot decode), so its length and headers differ from the encoded wire answer on
    /// purpose. Chunked answers (`/stream/n`) are left out too: the stub states the length it knows (pinned by `recordedChunkedAnswer`).
    static let stableEndpoints = [
        "/json", "/html", "/xml", "/robots.txt", "/status/418", "/encoding/utf8", "/image/png",
        "/base64/SGVsbG8sIE5ldFRhcA%3D%3D",
        "/response-headers?X-Probe=1&Content-Type=text%2Fplain%3B%20charset%3Dutf-8",
    ]

    @Test("a stub recorded from an httpbin transaction answers as httpbin does", arguments: CallerStyle.allCases)
    func recordedStubMatchesServer(style: CallerStyle) async throws {
        let server = try await HTTPBin.shared()
        let recorder = NetTapInterceptor()
        let recording = Client(name: "record", interceptor: recorder)
        let mocks = MockSet()
        let (mocked, _) = Self.client(mocks)
        for path in Self.stableEndpoints {
            let request = URLRequest(url: server.url(path))
            let direct = await Client.direct.send(request, style: style)
            #expect(direct.error == nil, "\(path): \(direct)")
            recorder.captureLog.removeAll()
            _ = await recording.send(request, style: style)
            let transaction = try #require(
                await withDeadline(.seconds(60)) { await recorder.captureLog.waitForFinished { _ in true } },
                "\(path)"
            )
            let stub = try Stub(recording: transaction)
            mocks.add(stub)
            let answered = await mocked.send(request, style: style)
            expectEquivalent(direct, answered)
            #expect(mocks.hitCount(for: stub.name) == 1, "\(path)")
        }
    }

    /// Pins the one documented difference: `Stub(recording:)` leaves out `Transfer-Encoding` and states the body's
    /// length, so where httpbin sent chunks the app sees `Content-Length` and a known `expectedContentLength`.
    @Test("a stub recorded from a chunked httpbin answer states its length instead", arguments: CallerStyle.allCases)
    func recordedChunkedAnswer(style: CallerStyle) async throws {
        let server = try await HTTPBin.shared()
        let request = URLRequest(url: server.url("/stream/2"))
        let direct = await Client.direct.send(request, style: style)
        #expect(direct.headers["transfer-encoding"] == "chunked")
        #expect(direct.expectedContentLength == -1)
        let recorder = NetTapInterceptor()
        _ = await Client(name: "record", interceptor: recorder).send(request, style: style)
        let transaction = try #require(
            await withDeadline(.seconds(60)) { await recorder.captureLog.waitForFinished { _ in true } }
        )
        let mocks = MockSet(stubs: [try Stub(recording: transaction)])
        let answered = await Self.client(mocks).0.send(request, style: style)
        expectEquivalent(direct, answered, allowing: Allowance(headers: ["transfer-encoding", "content-length"]))
        #expect(answered.headers["transfer-encoding"] == nil)
        #expect(answered.headers["content-length"] == String(direct.body.count))
        #expect(answered.expectedContentLength == Int64(direct.body.count))
    }
}
