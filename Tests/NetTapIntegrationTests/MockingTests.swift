import Foundation
import NetTapCore
import NetTapMocking
import NetTapTestSupport
import NetTapTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Stubs seen by the app through a real URLSession, in every caller style.
///
/// Stub URLs use `127.0.0.1:1`, where nothing listens, so a request that escaped the stubs would fail loudly instead of
/// reaching anything.
@Suite("Mocking through URLSession")
struct MockingTests {
    private static let base = "http://127.0.0.1:1"

    private func client(_ mocks: MockSet, unmatched: MockHandler.UnmatchedPolicy = .fail) -> (Client, NetTapInterceptor)
    {
        let interceptor = NetTapInterceptor()
        interceptor.handlers = [MockHandler(mocks: mocks, unmatched: unmatched)]
        return (Client(name: "mock", interceptor: interceptor), interceptor)
    }

    private func url(_ path: String) -> URL {
        URL(string: Self.base + path)!
    }

    @Test("a stub's status, repeated headers and body reach the app", arguments: CallerStyle.allCases)
    func stubAnswer(style: CallerStyle) async throws {
        var headers: HeaderFields = ["Content-Type": "application/json", "X-Trace": "t1"]
        headers.add(name: "Set-Cookie", value: "a=1; Path=/")
        headers.add(name: "Set-Cookie", value: "b=2; Path=/")
        let mocks = MockSet(stubs: [
            Stub("item", matching: .path("/items/7"), response: .json(["id": 7], statusCode: 201, headers: headers))
        ])
        let (client, interceptor) = client(mocks)
        let outcome = await client.send(URLRequest(url: url("/items/7")), style: style)
        #expect(outcome.error == nil)
        #expect(outcome.statusCode == 201)
        #expect(outcome.body == Data(#"{"id":7}"#.utf8))
        #expect(outcome.headers["content-type"] == "application/json")
        #expect(outcome.headers["content-length"] == "8")
        #expect(outcome.headers["x-trace"] == "t1")
        #expect(outcome.headers["set-cookie"]?.contains("a=1") == true)
        #expect(outcome.headers["set-cookie"]?.contains("b=2") == true)
        let captured = try #require(interceptor.captureLog.transactions.first)
        #expect(captured.answeredBy == "mock")
        #expect(captured.annotations["stub"] == "item")
        #expect(captured.response?.headers.values(for: "Set-Cookie").count == 2)
    }

    @Test("a stub redirect is followed to the stub that answers the target", arguments: CallerStyle.allCases)
    func redirectFollowed(style: CallerStyle) async throws {
        let mocks = MockSet(stubs: [
            Stub("old", matching: .path("/old"), response: .redirect(to: "/new")),
            Stub("new", matching: .path("/new"), response: .text("arrived")),
        ])
        let (client, interceptor) = client(mocks)
        let outcome = await client.send(URLRequest(url: url("/old")), style: style)
        #expect(outcome.error == nil)
        #expect(outcome.statusCode == 200)
        #expect(outcome.url?.path == "/new")
        #expect(String(decoding: outcome.body, as: UTF8.self) == "arrived")
        #expect(mocks.hitCount(for: "old") == 1)
        #expect(mocks.hitCount(for: "new") == 1)
        #expect(interceptor.captureLog.transactions.first?.redirects.map(\.statusCode) == [302])
    }

    @Test(
        "a stub failure reaches the app as the URLError code",
        arguments: [URLError.Code.notConnectedToInternet, .timedOut, .cannotFindHost, .networkConnectionLost]
    )
    func stubFailure(code: URLError.Code) async throws {
        let mocks = MockSet(stubs: [Stub("down", matching: .any, response: .failure(code))])
        let (client, _) = client(mocks)
        for style in CallerStyle.allCases {
            let outcome = await client.send(URLRequest(url: url("/down")), style: style)
            #expect(outcome.errorCode == code.rawValue, "\(style): \(outcome)")
            #expect(outcome.statusCode == nil, "\(style)")
        }
    }

    @Test("switching scenarios while 90 requests run gives each request a whole answer from one scenario")
    func concurrentScenarioSwitching() async throws {
        let mocks = MockSet(scenarios: [
            Scenario("happy path", stubs: [Stub("cart", matching: .path("/cart"), response: .text("full cart"))]),
            Scenario("empty cart", stubs: [Stub("cart", matching: .path("/cart"), response: .text("empty"))]),
        ])
        try mocks.activate(scenario: "happy path")
        let (client, interceptor) = client(mocks)
        let outcomes = await withTaskGroup(of: Outcome.self) { group in
            for index in 0..<90 {
                group.addTask {
                    if index.isMultiple(of: 9) {
                        try? mocks.activate(scenario: index.isMultiple(of: 2) ? "empty cart" : "happy path")
                    }
                    let style = CallerStyle.allCases[index % CallerStyle.allCases.count]
                    return await client.send(URLRequest(url: url("/cart")), style: style)
                }
            }
            var outcomes: [Outcome] = []
            for await outcome in group { outcomes.append(outcome) }
            return outcomes
        }
        #expect(outcomes.count == 90)
        #expect(outcomes.allSatisfy { $0.error == nil && $0.statusCode == 200 })
        let bodies = Set(outcomes.map { String(decoding: $0.body, as: UTF8.self) })
        #expect(bodies.isSubset(of: ["full cart", "empty"]))
        let captured = interceptor.captureLog.transactions
        #expect(captured.count == 90)
        for transaction in captured {
            let body = transaction.response?.body.map { String(decoding: $0.data, as: UTF8.self) }
            let expected = transaction.annotations["scenario"] == "empty cart" ? "empty" : "full cart"
            #expect(body == expected)
        }
        #expect(mocks.hitCount(for: "cart") == 90)
        try mocks.activate(scenario: "empty cart")
        let after = await client.send(URLRequest(url: url("/cart")), style: .async)
        #expect(String(decoding: after.body, as: UTF8.self) == "empty")
    }

    @Test("an unmatched request passes through to the network", arguments: CallerStyle.allCases)
    func unmatchedPassesThrough(style: CallerStyle) async throws {
        let server = try await HTTPBin.shared()
        let mocks = MockSet(stubs: [Stub("other", matching: .path("/stubbed-only"), response: .status(418))])
        let (client, interceptor) = client(mocks, unmatched: .passThrough)
        let testID = "mocking-pass-\(style)-\(UUID().uuidString)"
        var request = URLRequest(url: server.url("/get?via=nettap"))
        request.setValue(testID, forHTTPHeaderField: HTTPBin.testIDHeader)
        let outcome = await client.send(request, style: style)
        #expect(outcome.error == nil)
        #expect(outcome.statusCode == 200)
        let echoed = try JSONValue(data: outcome.body)
        #expect(echoed["args"]?["via"] == "nettap")
        let lines = await server.waitForRequests(withTestID: testID, count: 1)
        #expect(lines.map(\.path) == ["/get"])
        #expect(interceptor.captureLog.transactions.first?.answeredBy == "network")
        #expect(mocks.unmatchedRequests.count == 1)
    }

    @Test("a file body streams to a delegate in several chunks")
    func fileBodyToDelegate() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("nettap-mock-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("big.bin")
        let bytes = Data((0..<500_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        try bytes.write(to: file)
        let mocks = MockSet(stubs: [Stub("big", matching: .path("/big"), response: .file(file))])
        let (client, _) = client(mocks)
        let outcome = await client.send(URLRequest(url: url("/big")), style: .delegate)
        #expect(outcome.error == nil)
        #expect(outcome.body == bytes)
        #expect(outcome.chunkCount > 1)
        #expect(outcome.headers["content-length"] == "500000")
    }

    @Test("record passes the first request to httpbin and answers the same request from the new stub")
    func recordThenReplay() async throws {
        let server = try await HTTPBin.shared()
        let mocks = MockSet(scenarios: [Scenario("recorded", stubs: [])])
        try mocks.activate(scenario: "recorded")
        let (client, interceptor) = client(mocks, unmatched: .record)
        let testID = "mocking-record-\(UUID().uuidString)"
        var request = URLRequest(url: server.url("/json?token=abc"))
        request.setValue(testID, forHTTPHeaderField: HTTPBin.testIDHeader)
        let first = await client.send(request, style: .async)
        #expect(first.error == nil)
        #expect(first.statusCode == 200)
        let stubs = mocks.scenarios.first?.stubs ?? []
        #expect(stubs.map(\.name) == ["GET /json"])
        let second = await client.send(request, style: .completionHandler)
        #expect(second.statusCode == 200)
        #expect(second.body == first.body)
        let lines = await server.waitForRequests(withTestID: testID, count: 1)
        #expect(lines.count == 1)
        #expect(interceptor.captureLog.transactions.map(\.answeredBy) == ["network", "mock"])
    }

    @Test("a stub's latency holds the app's response until the interceptor's clock passes it")
    func latencyOnInterceptorClock() async throws {
        let clock = ManualClock()
        let mocks = MockSet(stubs: [
            Stub("slow", matching: .path("/slow"), response: .text("slow").withLatency(.milliseconds(300)))
        ])
        let (client, interceptor) = client(mocks)
        interceptor.clock = clock
        let outcome = Task { await client.send(URLRequest(url: url("/slow")), style: .delegate) }
        await clock.waitForSleepers(count: 2)  // the stub's latency and the request's idle timeout
        clock.advance(by: .milliseconds(299))
        #expect(clock.sleeperCount == 2)
        clock.advance(by: .milliseconds(1))
        let result = await outcome.value
        #expect(result.error == nil)
        #expect(String(decoding: result.body, as: UTF8.self) == "slow")
    }

    @Test("a mock file loaded from disk answers through URLSession")
    func mockFile() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("nettap-mockfile-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("[1,2,3]".utf8).write(to: directory.appendingPathComponent("list.json"))
        let json = #"""
            {"mocks": {"activeScenario": "normal", "scenarios": [
              {"name": "normal", "stubs": [{"name": "list", "match": {"method": "GET", "path": "/list"},
                "response": {"file": "list.json", "headers": {"Content-Type": "application/json"}}}]},
              {"name": "offline", "stubs": [{"name": "down", "match": {}, "response": {"error": "notConnectedToInternet"}}]}
            ]}}
            """#
        let file = directory.appendingPathComponent("nettap.json")
        try Data(json.utf8).write(to: file)
        let mocks = try MockSet(configuration: MockConfiguration.load(contentsOf: file))
        let (client, _) = client(mocks)
        let list = await client.send(URLRequest(url: url("/list")), style: .async)
        #expect(list.body == Data("[1,2,3]".utf8))
        #expect(list.headers["content-type"] == "application/json")
        try mocks.activate(scenario: "offline")
        let offline = await client.send(URLRequest(url: url("/list")), style: .async)
        #expect(offline.errorCode == URLError.Code.notConnectedToInternet.rawValue)
    }
}
