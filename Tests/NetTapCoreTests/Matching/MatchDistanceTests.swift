import Foundation
import Testing

@testable import NetTapCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Near-miss distances: edit distances on the parts of a request that differ")
struct MatchDistanceTests {
    /// Whether two distances are equal up to rounding.
    private func near(_ actual: Double, _ expected: Double) -> Bool {
        abs(actual - expected) < 1e-9
    }

    @Test("normalized edit distances of texts, long texts bounded, and containment")
    func texts() {
        #expect(MatchDistance.text("/v1/cart", "/v1/cart") == 0)
        #expect(near(MatchDistance.text("/v1/carts", "/v1/cart"), 1.0 / 9))
        #expect(near(MatchDistance.text("kitten", "sitting"), 3.0 / 7))
        #expect(MatchDistance.text("", "abc") == 1)
        let long = String(repeating: "a", count: 10_000)
        #expect(near(MatchDistance.text(long, long + "bb"), 2.0 / 10_002))
        #expect(MatchDistance.containing("Mozilla/5.0 (X11)", "Mozilla") == 0)
        #expect(near(MatchDistance.containing("Mozila/5.0", "Mozilla"), 1.0 / 7))
    }

    @Test("a matching request is 0 away from every factory's matcher")
    func matchesAreZero() throws {
        let sent = request(
            "https://api.example.com:8443/v1/users/42?page=2&q=a",
            method: "POST",
            headers: ["Accept": "application/json", "Content-Type": "application/json"],
            body: #"{"user":{"id":42},"query":"query Me { me }"}"#
        )
        let matchers: [RequestMatcher] = [
            .any, .method("POST"), .scheme("https"), .host("api.example.com"), .host("*.example.com"), .port(8443),
            .path("/v1/users/42"), .pathPrefix("/v1"), .pathGlob("/v1/users/*"), try .url("https://*.example.com/**"),
            .query(["page": "2"]), .header("Accept", "application/json"), .headerContains("Accept", "json"),
            .jsonBodyContains(["user": ["id": 42]]), .graphQL(operation: "Me"), try .pathRegex("^/v1/"),
        ]
        for matcher in matchers {
            #expect(matcher.distance(to: sent) == 0, "\(matcher)")
        }
    }

    @Test("each part that differs adds its weighted, normalized edit distance; a missing part its weight")
    func parts() {
        let sent = request("https://api.example.com/v1/carts?page=3", headers: ["X-Id": "abd"])
        #expect(near(RequestMatcher.path("/v1/cart").distance(to: sent), 10.0 / 9))
        #expect(near(RequestMatcher.path("/v1/profile").distance(to: sent), 10 * 7.0 / 11))
        #expect(near(RequestMatcher.method("POST").distance(to: sent), 3 * 3.0 / 4))
        #expect(near(RequestMatcher.host("api.example.org").distance(to: sent), 10 * 3.0 / 15))
        #expect(near(RequestMatcher.host("*.example.org").distance(to: sent), 10 * 3.0 / 11))
        #expect(RequestMatcher.query(["page": "2"]).distance(to: sent) == 1)
        #expect(RequestMatcher.query(["size": "10"]).distance(to: sent) == 1)
        #expect(near(RequestMatcher.header("X-Id", "abc").distance(to: sent), 1.0 / 3))
        #expect(RequestMatcher.header("X-Trace").distance(to: sent) == 1)
        #expect(near((RequestMatcher.method("GET") && .path("/v1/cart")).distance(to: sent), 10.0 / 9))
        #expect(near((RequestMatcher.path("/v1/cart") || .path("/v1/carts/x")).distance(to: sent), 10.0 / 9))
        #expect((!RequestMatcher.path("/v1/carts")).distance(to: sent) == MatchDistance.unmeasured)
        let closure = RequestMatcher(description: "custom", specificity: 1) { _ in .missed("no") }
        #expect(closure.distance(to: sent) == MatchDistance.unmeasured)
    }

    @Test("a path glob's distance is an edit distance over segments, * and ** taking segments for nothing")
    func globs() {
        let sent = request("https://a.example/v1/users/42/post")
        #expect(near(RequestMatcher.pathGlob("/v1/users/*/posts").distance(to: sent), 10.0 / 17))
        #expect(RequestMatcher.pathGlob("/v1/**/post").distance(to: sent) == 0)
        #expect(near(RequestMatcher.pathGlob("/v1/*").distance(to: sent), 10 * 8.0 / 17))
        #expect(near(RequestMatcher.pathGlob("/v2/users/*/post/*").distance(to: sent), 10 * 2.0 / 18))
    }

    @Test("JSON and form bodies count the members that differ")
    func bodies() {
        let sent = request("https://a.example/", method: "POST", body: #"{"user":{"id":41,"name":"a"}}"#)
        #expect(near(RequestMatcher.jsonBodyContains(["user": ["id": 42]]).distance(to: sent), 0.5))
        #expect(RequestMatcher.jsonBody(["user": ["id": 41]]).distance(to: sent) == 1)
        #expect(RequestMatcher.jsonBodyContains(["cart": 1]).distance(to: sent) == 1)
        let form = request("https://a.example/", method: "POST", body: "user=ann&pw=x")
        #expect(near(RequestMatcher.formFields(["user": "anne"]).distance(to: form), 0.25))
        #expect(near(RequestMatcher.body("user=ann&pw=y").distance(to: form), 1.0 / 13))
    }

    @Test("GraphQL operations differ by the weighted edit distance of their names and types")
    func graphQL() {
        let sent = request(
            "https://a.example/graphql",
            method: "POST",
            body: #"{"query":"query GetCarts { carts { id } }"}"#
        )
        #expect(near(RequestMatcher.graphQL(operation: "GetCart").distance(to: sent), 10.0 / 8))
        #expect(near(RequestMatcher.graphQL(operation: "GetCarts", type: .mutation).distance(to: sent), 3 * 7.0 / 8))
        #expect(RequestMatcher.graphQL(operation: "A").distance(to: request("https://a.example/graphql")) == 10)
    }
}
