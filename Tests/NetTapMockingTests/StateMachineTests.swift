import Foundation
import NetTapCore
import NetTapMocking
import NetTapTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("State machines: stubs that apply in a state and move their machine when they answer")
struct StateMachineTests {
    /// WireMock's shopping cart: empty until an item is added, then the item; adding moves the machine.
    static func cartStubs() -> [Stub] {
        [
            Stub("cart empty", matching: .method("GET") && .path("/cart"), response: .json(["items": []]))
                .withState(machine: "cart", requires: StubState.started),
            Stub("add item", matching: .method("POST") && .path("/cart"), response: .status(201))
                .withState(machine: "cart", moveTo: "item added"),
            Stub("cart full", matching: .method("GET") && .path("/cart"), response: .json(["items": ["book"]]))
                .withState(machine: "cart", requires: "item added"),
        ]
    }

    @Test("GET /cart answers differently once a POST has moved the machine to \"item added\"")
    func cartScenario() async throws {
        let mocks = MockSet(stubs: Self.cartStubs())
        let pipeline = harness(mocks)
        #expect(mocks.state(of: "cart") == "Started")
        let before = try await pipeline.send(request("/cart"))
        #expect(before.text == #"{"items":[]}"#)
        #expect(before.annotations["state"] == "cart: Started")
        let add = try await pipeline.send(request("/cart", method: "POST"))
        #expect(add.statusCode == 201)
        #expect(add.annotations["state"] == "cart: Started → item added")
        #expect(mocks.state(of: "cart") == "item added")
        let after = try await pipeline.send(request("/cart"))
        #expect(after.text == #"{"items":["book"]}"#)
        #expect(after.annotations[MockHandler.stubAnnotation] == "cart full")
        #expect(mocks.states == ["cart": "item added"])
    }

    @Test("setState and resetStates change what the next request gets; an unknown machine is named")
    func settable() async throws {
        let mocks = MockSet(stubs: Self.cartStubs())
        let pipeline = harness(mocks)
        try mocks.setState("item added", of: "cart")
        #expect(try await pipeline.send(request("/cart")).text == #"{"items":["book"]}"#)
        mocks.resetStates()
        #expect(mocks.state(of: "cart") == StubState.started)
        #expect(try await pipeline.send(request("/cart")).text == #"{"items":[]}"#)
        #expect(throws: MockingError.unknownStateMachine("crat", available: ["cart"])) {
            try mocks.setState("x", of: "crat")
        }
        #expect(
            MockingError.unknownStateMachine("crat", available: ["cart"]).description
                == #"no state machine named "crat"; did you mean "cart"?"#
        )
    }

    @Test("initial states start a machine elsewhere, and a reset returns there")
    func initialStates() async throws {
        let mocks = MockSet(stubs: Self.cartStubs())
        mocks.initialStates = ["cart": "item added"]
        #expect(mocks.state(of: "cart") == "item added")
        try mocks.setState("Started", of: "cart")
        mocks.resetStates()
        #expect(mocks.state(of: "cart") == "item added")
    }

    @Test("several machines run at once, each moved only by its own stubs")
    func severalMachines() async throws {
        let mocks = MockSet(
            stubs: Self.cartStubs() + [
                Stub("log in", matching: .method("POST") && .path("/login"), response: .status(204))
                    .withState(machine: "session", moveTo: "logged in"),
                Stub("profile", matching: .path("/me"), response: .text("ada"))
                    .withState(machine: "session", requires: "logged in"),
                Stub("anonymous", matching: .path("/me"), response: .status(401)),
            ]
        )
        let pipeline = harness(mocks)
        #expect(try await pipeline.send(request("/me")).statusCode == 401)
        _ = try await pipeline.send(request("/cart", method: "POST"))
        #expect(mocks.states == ["cart": "item added", "session": "Started"])
        _ = try await pipeline.send(request("/login", method: "POST"))
        #expect(try await pipeline.send(request("/me")).text == "ada")
        #expect(mocks.states == ["cart": "item added", "session": "logged in"])
    }

    @Test("a stub that needs a state beats an equally specific stub that does not, whatever their order")
    func stateBeatsPlain() async throws {
        let mocks = MockSet(stubs: [
            Stub("full", matching: .path("/cart"), response: .text("full")).withState(machine: "cart", requires: "x"),
            Stub("plain", matching: .path("/cart"), response: .text("plain")),
        ])
        let pipeline = harness(mocks)
        #expect(try await pipeline.send(request("/cart")).text == "plain")
        try mocks.setState("x", of: "cart")
        #expect(try await pipeline.send(request("/cart")).text == "full")
    }

    @Test("states compose with scenarios: a scenario's stub needs its scenario active and its state")
    func withScenarios() async throws {
        let mocks = MockSet(
            stubs: [Stub("cart", matching: .path("/cart"), response: .text("base"))],
            scenarios: [
                Scenario(
                    "slow",
                    stubs: [
                        Stub("late cart", matching: .path("/cart"), response: .text("late"))
                            .withState(machine: "cart", requires: "item added")
                    ]
                )
            ]
        )
        let pipeline = harness(mocks)
        try mocks.activate(scenario: "slow")
        #expect(try await pipeline.send(request("/cart")).text == "base")
        try mocks.setState("item added", of: "cart")
        #expect(try await pipeline.send(request("/cart")).text == "late")
        try mocks.activate(scenario: nil)
        #expect(mocks.state(of: "cart") == "item added")
        #expect(try await pipeline.send(request("/cart")).text == "base")
    }

    @Test("of 200 concurrent requests, exactly one takes the transition; the others see the new state")
    func atomicTransition() async throws {
        let mocks = MockSet(stubs: [
            Stub("first", matching: .path("/claim"), response: .text("first"))
                .withState(machine: "claim", requires: StubState.started, moveTo: "claimed"),
            Stub("later", matching: .path("/claim"), response: .text("later"))
                .withState(machine: "claim", requires: "claimed"),
        ])
        let pipeline = harness(mocks)
        let answers = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<200 { group.addTask { try await pipeline.send(request("/claim")).text } }
            return try await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(answers.count { $0 == "first" } == 1)
        #expect(answers.count { $0 == "later" } == 199)
        #expect(mocks.hitCount(for: "first") == 1)
    }

    @Test("withNetTap gives each test machines in their initial state")
    func freshPerTest() async throws {
        for _ in 0..<2 {
            try await withNetTap(stubs: Self.cartStubs()) { tap in
                #expect(tap.mocks.state(of: "cart") == "Started")
                let url = try #require(URL(string: "http://127.0.0.1:1/cart"))
                var post = URLRequest(url: url)
                post.httpMethod = "POST"
                _ = try await tap.session.data(for: post)
                #expect(tap.mocks.state(of: "cart") == "item added")
                let (body, _) = try await tap.session.data(from: url)
                #expect(String(decoding: body, as: UTF8.self) == #"{"items":["book"]}"#)
            }
        }
    }
}
