import Foundation
import NetTapCore
import NetTapMocking
import NetTapTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Which stub answers: precedence, scenarios, alternatives, sequences, counters")
struct MockSetTests {
    @Test("the most specific matching stub wins, whatever the order")
    func mostSpecificWins() async throws {
        let mocks = MockSet(stubs: [
            Stub("exact", matching: .method("GET") && .path("/users/1"), response: .text("exact")),
            Stub("prefix", matching: .pathPrefix("/users"), response: .text("prefix")),
            Stub("any", matching: .any, response: .text("any")),
        ])
        let pipeline = harness(mocks)
        #expect(try await pipeline.send(request("/users/1")).text == "exact")
        #expect(try await pipeline.send(request("/users/2")).text == "prefix")
        #expect(try await pipeline.send(request("/other")).text == "any")
    }

    @Test("a tie goes to the stub added last, also when added at runtime")
    func tiesToNewest() async throws {
        let mocks = MockSet(stubs: [
            Stub("first", matching: .path("/a"), response: .text("first")),
            Stub("second", matching: .path("/a"), response: .text("second")),
        ])
        let pipeline = harness(mocks)
        #expect(try await pipeline.send(request("/a")).annotations["stub"] == "second")
        mocks.add(Stub("third", matching: .path("/a"), response: .text("third")))
        #expect(try await pipeline.send(request("/a")).text == "third")
    }

    @Test("the active scenario's stubs come before the base stubs, however specific the base stubs are")
    func scenarioAndBase() async throws {
        let mocks = MockSet(
            stubs: [
                Stub("cart", matching: .path("/cart"), response: .json(["items": [1]])),
                Stub("config", matching: .path("/config"), response: .text("base config")),
            ],
            scenarios: [
                Scenario("empty cart", stubs: [Stub("cart", matching: .path("/cart"), response: .json(["items": []]))]),
                Scenario("server down", stubs: [Stub("down", matching: .any, response: .status(503))]),
            ]
        )
        let pipeline = harness(mocks)
        #expect(try await pipeline.send(request("/cart")).text == #"{"items":[1]}"#)
        try mocks.activate(scenario: "empty cart")
        let empty = try await pipeline.send(request("/cart"))
        #expect(empty.text == #"{"items":[]}"#)
        #expect(empty.annotations["scenario"] == "empty cart")
        try mocks.activate(scenario: "server down")
        // The scenario's catch-all overrides even the more specific base stub.
        #expect(try await pipeline.send(request("/config")).statusCode == 503)
        #expect(try await pipeline.send(request("/anything")).statusCode == 503)
        try mocks.activate(scenario: "empty cart")
        // The scenario matches only /cart: other requests fall back to the base stubs.
        #expect(try await pipeline.send(request("/config")).text == "base config")
        #expect(throws: MockingError.unknownScenario("nope", available: ["empty cart", "server down"])) {
            try mocks.activate(scenario: "nope")
        }
        #expect(
            MockingError.unknownScenario("server dwn", available: ["empty cart", "server down"]).description
                == #"no scenario named "server dwn"; did you mean "server down"?"#
        )
    }

    @Test("alternatives switch at runtime and the answer names the alternative")
    func alternatives() async throws {
        let login = Stub(
            "login",
            matching: .method("POST") && .path("/login"),
            alternatives: ["ok": .json(["token": "t"]), "locked": .status(423)]
        )
        let mocks = MockSet(stubs: [login])
        let pipeline = harness(mocks)
        let ok = try await pipeline.send(request("/login", method: "POST"))
        #expect(ok.statusCode == 200)
        #expect(ok.annotations["alternative"] == "ok")
        try mocks.select(alternative: "locked", for: "login")
        let locked = try await pipeline.send(request("/login", method: "POST"))
        #expect(locked.statusCode == 423)
        #expect(locked.annotations["alternative"] == "locked")
        #expect(mocks.activeAlternative(for: "login") == "locked")
        #expect(throws: MockingError.unknownAlternative("gone", stub: "login", available: ["ok", "locked"])) {
            try mocks.select(alternative: "gone", for: "login")
        }
        #expect(throws: MockingError.unknownStub("logout", scenario: nil, available: ["login"])) {
            try mocks.select(alternative: "ok", for: "logout")
        }
    }

    @Test("a sequence answers in order, then repeats the last one or cycles")
    func sequences() async throws {
        let mocks = MockSet(stubs: [
            Stub("poll", matching: .path("/poll"), sequence: [.status(202), .status(202), .status(200)]),
            Stub("flip", matching: .path("/flip"), sequence: [.text("a"), .text("b")], afterEnd: .cycle),
        ])
        let pipeline = harness(mocks)
        var polls: [Int] = []
        var flips: [String] = []
        for _ in 0..<5 {
            polls.append(try await pipeline.send(request("/poll")).statusCode)
            flips.append(try await pipeline.send(request("/flip")).text)
        }
        #expect(polls == [202, 202, 200, 200, 200])
        #expect(flips == ["a", "b", "a", "b", "a"])
        #expect(mocks.hitCount(for: "poll") == 5)
        mocks.resetCounters()
        #expect(mocks.hitCount(for: "poll") == 0)
        let restarted = try await pipeline.send(request("/poll"))
        #expect(restarted.statusCode == 202)
        #expect(restarted.annotations["sequence"] == "0")
    }

    @Test("hit counts are kept per stub and per scenario")
    func hitCounts() async throws {
        let mocks = MockSet(
            stubs: [Stub("a", matching: .path("/a"), response: .text("base"))],
            scenarios: [Scenario("s", stubs: [Stub("a", matching: .path("/a"), response: .text("scenario"))])]
        )
        let pipeline = harness(mocks)
        _ = try await pipeline.send(request("/a"))
        try mocks.activate(scenario: "s")
        _ = try await pipeline.send(request("/a"))
        _ = try await pipeline.send(request("/a"))
        #expect(mocks.hitCount(for: "a", in: "s") == 2)
        #expect(mocks.hitCount(for: "a") == 3)
        #expect(mocks.hitCount(for: "missing") == 0)
    }

    @Test("switching scenarios while 200 requests run: each answer is whole and from one scenario")
    func concurrentSwitching() async throws {
        let mocks = MockSet(scenarios: [
            Scenario("A", stubs: [Stub("x", matching: .path("/x"), response: .text("A"))]),
            Scenario("B", stubs: [Stub("x", matching: .path("/x"), response: .text("B"))]),
        ])
        try mocks.activate(scenario: "A")
        let pipeline = harness(mocks)
        let results = try await withThrowingTaskGroup(of: (String, String?).self) { group in
            for index in 0..<200 {
                group.addTask {
                    if index.isMultiple(of: 10) { try mocks.activate(scenario: index.isMultiple(of: 20) ? "B" : "A") }
                    let result = try await pipeline.send(request("/x"))
                    return (result.text, result.annotations["scenario"])
                }
            }
            var results: [(String, String?)] = []
            for try await result in group { results.append(result) }
            return results
        }
        #expect(results.count == 200)
        #expect(results.allSatisfy { $0.0 == $0.1 })
        #expect(mocks.hitCount(for: "x") == 200)
        try mocks.activate(scenario: "B")
        #expect(try await pipeline.send(request("/x")).text == "B")
    }
}
