import Foundation
import NetTapCore
import NetTapMocking
import NetTapTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// State machines under `withNetTap`: each scope starts them afresh, so one test's moves never leak into the next.
@Suite("withNetTap: state machines start afresh in every scope")
struct WithNetTapStateTests {
    private static let cart = URL(string: "https://shop.nettap.example/cart")!

    /// A cart machine: `GET /cart` answers "empty" in `Started` and "full" after a `POST /cart`.
    private static let stubs = [
        Stub("empty", matching: .method("GET") && .path("/cart"), response: .text("empty"))
            .withState(machine: "cart", requires: StubState.started),
        Stub("add", matching: .method("POST") && .path("/cart"), response: .status(201))
            .withState(machine: "cart", moveTo: "item added"),
        Stub("full", matching: .method("GET") && .path("/cart"), response: .text("full"))
            .withState(machine: "cart", requires: "item added"),
    ]

    /// Runs one scope: reads the cart, adds an item, reads it again; returns both bodies and the final state.
    private func shop() async throws -> (before: String, after: String, state: String) {
        try await withNetTap(stubs: Self.stubs) { tap in
            let (before, _) = try await tap.session.data(from: Self.cart)
            var post = URLRequest(url: Self.cart)
            post.httpMethod = "POST"
            _ = try await tap.session.data(for: post)
            let (after, _) = try await tap.session.data(from: Self.cart)
            return (
                String(decoding: before, as: UTF8.self), String(decoding: after, as: UTF8.self),
                tap.mocks.state(of: "cart")
            )
        }
    }

    @Test("a second scope with the same stubs finds the machine in Started again")
    func freshPerScope() async throws {
        let first = try await shop()
        #expect(first.before == "empty" && first.after == "full" && first.state == "item added")
        let second = try await shop()
        #expect(second.before == "empty", "the machine kept the first scope's state")
        #expect(second.after == "full")
    }

    @Test("a scope sets a state at runtime and the next request answers from it")
    func setAtRuntime() async throws {
        try await withNetTap(stubs: Self.stubs) { tap in
            try tap.mocks.setState("item added", of: "cart")
            let (body, _) = try await tap.session.data(from: Self.cart)
            #expect(String(decoding: body, as: UTF8.self) == "full")
            tap.mocks.resetStates()
            let (again, _) = try await tap.session.data(from: Self.cart)
            #expect(String(decoding: again, as: UTF8.self) == "empty")
        }
    }
}
