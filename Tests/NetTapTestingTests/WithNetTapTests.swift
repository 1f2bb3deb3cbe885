import Foundation
import NetTapCore
import NetTapMocking
import NetTapTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("withNetTap: one scoped call for tests")
struct WithNetTapTests {
    let api = "https://api.nettap.example"

    @Test("a stub answers the scope's session and the request is counted and inspectable")
    func stubAnswersAndRequestIsInspectable() async throws {
        try await withNetTap { tap in
            tap.stub("login", .method("POST") && .path("/login"), .json(["token": "t-1"]))
            var request = URLRequest(url: URL(string: api + "/login")!)
            request.httpMethod = "POST"
            request.httpBody = Data(#"{"user":"ada","password":"pw"}"#.utf8)
            let (data, response) = try await tap.session.data(for: request)
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            #expect(try JSONValue(data: data) == ["token": "t-1"])
            #expect(tap.expect(.path("/login"), count: 1))
            let sent = try #require(tap.requests(matching: .path("/login")).first)
            #expect(try JSONValue(data: try #require(sent.httpBody))["user"] == "ada")
            let transaction = try #require(tap.transactions.last)
            #expect(transaction.answeredBy == "mock")
            #expect(transaction.annotations["stub"] == "login")
        }
    }

    @Test("a wrong request count is reported as an issue at the caller's line, listing the requests sent")
    func wrongCountIsAnIssue() async throws {
        try await withNetTap { tap in
            tap.stub(.path("/a"), .text("a"))
            _ = try await tap.session.data(from: URL(string: api + "/a")!)
            let expectedLine = #line + 2
            withKnownIssue {
                tap.expect(.path("/b"), count: 1)
            } matching: { issue in
                let text = issue.comments.map(\.rawValue).joined()
                return issue.sourceLocation?.line == expectedLine
                    && text.contains("expected exactly 1 request(s) matching path == /b, got 0")
                    && text.contains("GET https://api.nettap.example/a ✗ path was \"/a\", expected \"/b\"")
            }
            #expect(tap.expect(.path("/a"), count: 1...))
            #expect(tap.expect(.path("/b"), count: ...0))
        }
    }

    @Test("an unmatched request fails like a network error and is reported at the withNetTap line")
    func unmatchedIsReportedAtTheEnd() async throws {
        let scopeLine = #line + 2
        try await withKnownIssue {
            try await withNetTap { tap in
                tap.stub("cart", .method("GET") && .path("/cart"), .json(["items": []]))
                do {
                    _ = try await tap.session.data(from: URL(string: api + "/carts")!)
                    Issue.record("the unmatched request succeeded")
                } catch let error as URLError {
                    #expect(error.code == .resourceUnavailable)
                }
                #expect(tap.unmatchedRequests.count == 1)
            }
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            return issue.sourceLocation?.line == scopeLine
                && text.contains("1 request(s) matched no stub")
                && text.contains("closest: stub \"cart\"")
                && text.contains("path was \"/carts\", expected \"/cart\"")
        }
    }

    @Test("expectNoUnmatchedRequests passes when every request matched")
    func noUnmatched() async throws {
        try await withNetTap { tap in
            tap.stub(.any, .status(204))
            _ = try await tap.session.data(from: URL(string: api + "/anything")!)
            #expect(tap.expectNoUnmatchedRequests())
        }
    }

    @Test("tests running in parallel each see only their own stubs and requests", arguments: 0..<12)
    func parallelScopesAreIsolated(index: Int) async throws {
        try await withNetTap { tap in
            tap.stub(.path("/who"), .text("scope \(index)"))
            for _ in 0..<5 {
                let (data, _) = try await tap.session.data(from: URL(string: api + "/who")!)
                #expect(String(decoding: data, as: UTF8.self) == "scope \(index)")
            }
            #expect(tap.requests.count == 5)
            #expect(tap.transactions.count == 5)
        }
    }

    @Test("a request still in flight when the scope ends is cancelled, and the scope's interceptor is off")
    func scopeEndCancelsInFlightRequests() async throws {
        let clock = ManualClock()
        let (pending, interceptor) = try await withNetTap(clock: clock) { tap in
            tap.stub(.path("/slow"), StubResponse.text("late").withLatency(.seconds(60)))
            let session = tap.session
            let pending = Task { try await session.data(from: URL(string: "https://api.nettap.example/slow")!) }
            // The stub's latency and the request's timeout both sleep on the clock.
            await clock.waitForSleepers(count: 2)
            return (pending, tap.interceptor)
        }
        await #expect(throws: URLError.self) { _ = try await pending.value }
        #expect(!interceptor.isEnabled)
    }

    @Test("a scope with a scenario switches answers at runtime")
    func scenarios() async throws {
        let happy = Scenario("happy", stubs: [Stub("cart", matching: .path("/cart"), response: .json(["items": [1]]))])
        let down = Scenario(
            "down",
            stubs: [Stub("cart", matching: .path("/cart"), response: .failure(.cannotConnectToHost))]
        )
        try await withNetTap(scenarios: [happy, down]) { tap in
            try tap.mocks.activate(scenario: "happy")
            let (data, _) = try await tap.session.data(from: URL(string: api + "/cart")!)
            #expect(try JSONValue(data: data) == ["items": [1]])
            try tap.mocks.activate(scenario: "down")
            await #expect(throws: URLError.self) {
                _ = try await tap.session.data(from: URL(string: api + "/cart")!)
            }
            #expect(tap.mocks.hitCount(for: "cart") == 2)
        }
    }
}

@Suite("withNetTap with a ManualClock")
struct WithNetTapClockTests {
    /// The pattern `withNetTap`'s documentation shows: start, wait for two sleepers, advance.
    @Test("a 30 s stub latency passes in no real time when the test advances the clock")
    func documentedClockPattern() async throws {
        let clock = ManualClock()
        try await withNetTap(clock: clock) { tap in
            tap.stub(.path("/slow"), StubResponse.text("late").withLatency(.seconds(30)))
            async let answer = tap.session.data(from: URL(string: "https://api.example.com/slow")!)
            await clock.waitForSleepers(count: 2)
            clock.advance(by: .seconds(30))  // the stub answers; no real time passes
            let (data, _) = try await answer
            #expect(String(decoding: data, as: UTF8.self) == "late")
        }
    }
}
