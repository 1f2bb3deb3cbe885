import Foundation
import NetTapCore
import NetTapMocking
import NetTapTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Unmatched requests: pass through, fail with an explanation, record")
struct MockHandlerTests {
    private func shop() -> MockSet {
        MockSet(
            stubs: [
                Stub(
                    "cart",
                    matching: .method("GET") && .host("api.example.com") && .path("/cart"),
                    response: .text("c")
                ),
                Stub("login", matching: .method("POST") && .path("/login"), response: .text("l")),
            ],
            scenarios: [Scenario("happy path", stubs: [])]
        )
    }

    @Test("pass through sends the request on and keeps it in the unmatched list")
    func passThrough() async throws {
        let mocks = shop()
        let result = try await harness(mocks, unmatched: .passThrough).send(request("/carts"))
        #expect(result.answeredBy == "network")
        #expect(result.text == "network")
        #expect(mocks.unmatchedRequests.map { $0.url?.path } == ["/carts"])
        mocks.removeUnmatchedRequests()
        #expect(mocks.unmatchedRequests.isEmpty)
    }

    @Test("the unmatched list keeps only the newest requests, so a long-running app does not grow it forever")
    func unmatchedListIsBounded() async throws {
        let mocks = shop()
        let harness = harness(mocks, unmatched: .passThrough)
        let limit = MockSet.unmatchedRequestLimit
        for index in 0..<(limit + 3) {
            _ = try await harness.send(request("/miss/\(index)"))
        }
        let kept = mocks.unmatchedRequests.map { $0.url?.path }
        #expect(kept.count == limit)
        #expect(kept.first == "/miss/3")
        #expect(kept.last == "/miss/\(limit + 2)")
    }

    @Test("fail throws resourceUnavailable naming the request, the closest stub and why it missed")
    func failExplains() async throws {
        let mocks = shop()
        try mocks.activate(scenario: "happy path")
        let error = await #expect(throws: URLError.self) {
            _ = try await harness(mocks, unmatched: .fail).send(request("/carts"))
        }
        #expect(error?.code == .resourceUnavailable)
        #expect(
            error?.localizedDescription
                == "no stub matched GET https://api.example.com/carts (scenario \"happy path\" active, 2 stubs tried); "
                + "closest: stub \"cart\" [method == GET && host == api.example.com && path == /cart]: "
                + "path was \"/carts\", expected \"/cart\""
        )
        #expect(mocks.unmatchedRequests.count == 1)
    }

    @Test("a request refused under fail is answered by the mock handler, with the explanation as a note")
    func failIsAnsweredByTheHandler() async throws {
        let mocks = shop()
        let context = TransactionContext()
        let pipeline = Pipeline(handlers: [MockHandler(mocks: mocks, unmatched: .fail)], transport: FakeTransport())
        let error = await #expect(throws: URLError.self) {
            _ = try await pipeline.send(request("/carts"), context: context)
        }
        #expect(context.answeredBy == "mock")
        #expect(context.annotations[MockHandler.unmatchedAnnotation] == error?.localizedDescription)
        #expect(
            context.annotations["unmatched"]?.hasPrefix("no stub matched GET https://api.example.com/carts") == true
        )
    }

    @Test("explaining a request a stub does answer names that stub, and counts no hit")
    func explainAMatchedRequest() async throws {
        let mocks = MockSet(
            stubs: [Stub("cart", matching: .method("GET") && .path("/cart"), response: .text("c"))],
            scenarios: [
                Scenario(
                    "sale",
                    stubs: [Stub("steps", matching: .path("/steps"), sequence: [.text("1"), .text("2")])]
                )
            ]
        )
        try mocks.activate(scenario: "sale")
        #expect(
            mocks.explainUnmatched(request("/cart"))
                == "stub \"cart\" [method == GET && path == /cart] answers GET https://api.example.com/cart "
                + "(scenario \"sale\" active); nothing is unmatched"
        )
        #expect(mocks.explainUnmatched(request("/steps")).hasPrefix("stub \"steps\" in scenario \"sale\" ["))
        #expect(try await harness(mocks).send(request("/steps")).text == "1", "explaining did not count a hit")
    }

    @Test("fail with no stubs says so")
    func failWithoutStubs() async throws {
        let error = await #expect(throws: URLError.self) {
            _ = try await harness(MockSet(), unmatched: .fail).send(request("/x"))
        }
        #expect(
            error?.localizedDescription
                == "no stub matched GET https://api.example.com/x (no scenario active; no stubs to match)"
        )
    }

    @Test("record passes the first request to the network and answers the next one from the new stub")
    func record() async throws {
        let mocks = MockSet(scenarios: [Scenario("recorded", stubs: [])])
        try mocks.activate(scenario: "recorded")
        let first = FakeTransport(
            headers: ["Content-Type": "text/plain", "Content-Encoding": "gzip"],
            body: Data("real".utf8)
        )
        let recorded = try await harness(mocks, unmatched: .record, transport: first).send(request("/items?page=2"))
        #expect(recorded.answeredBy == "network")
        #expect(recorded.text == "real")
        #expect(mocks.scenarios.first?.stubs.map(\.name) == ["GET /items"])
        let replayed = try await harness(mocks, unmatched: .fail, transport: FakeTransport(statusCode: 500))
            .send(request("/items?page=2&extra=1"))
        #expect(replayed.answeredBy == "mock")
        #expect(replayed.text == "real")
        #expect(replayed.response.headers["Content-Type"] == "text/plain")
        #expect(!replayed.response.headers.contains(name: "Content-Encoding"))
        await #expect(throws: URLError.self) {
            _ = try await harness(mocks, unmatched: .fail).send(request("/items?page=3"))
        }
    }
}
