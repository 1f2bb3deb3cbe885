import Foundation
import NetTapCore
import NetTapMocking
import NetTapTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Unmatched explanations name the nearest miss by edit distance on the parts that differ")
struct NearMissTests {
    /// The stubs of a small shop API, as an app's test would have them.
    private static func shop() -> MockSet {
        MockSet(stubs: [
            Stub("cart", matching: .method("GET") && .path("/v1/cart"), response: .json(["items": []])),
            Stub("profile", matching: .method("GET") && .path("/v1/profile"), response: .json(["name": "Ada"])),
            Stub(
                "orders",
                matching: .method("GET") && .path("/v1/orders") && .query(["page": "1"]),
                response: .json([])
            ),
            Stub("login", matching: .method("POST") && .path("/v1/login"), response: .json(["token": "t"])),
            Stub(
                "search",
                matching: .method("GET") && .host("api.example.com") && .path("/v1/search")
                    && .header("Accept", "application/json"),
                response: .json([])
            ),
            Stub(
                "checkout",
                matching: .method("POST") && .path("/v1/checkout") && .jsonBodyContains(["cart": ["id": 7]]),
                response: .status(201)
            ),
            Stub("graphql cart", matching: .path("/graphql") && .graphQL(operation: "GetCart"), response: .json([:])),
            Stub("graphql user", matching: .path("/graphql") && .graphQL(operation: "GetUser"), response: .json([:])),
        ])
    }

    private func closest(_ sent: URLRequest, in mocks: MockSet = shop()) -> String {
        let text = mocks.explainUnmatched(sent)
        guard let range = text.range(of: "closest: stub \"") else { return text }
        return String(text[range.upperBound...].prefix { $0 != "\"" })
    }

    private func sent(
        _ url: String,
        method: String = "GET",
        headers: [String: String] = [:],
        body: String? = nil
    )
        -> URLRequest
    {
        var made = URLRequest(url: URL(string: url)!)
        made.httpMethod = method
        for (name, value) in headers { made.setValue(value, forHTTPHeaderField: name) }
        made.httpBody = body.map { Data($0.utf8) }
        return made
    }

    @Test("GET /v1/carts names stub \"cart\" (/v1/cart), not \"profile\" (/v1/profile)")
    func cartsNamesCart() {
        let text = Self.shop().explainUnmatched(sent("https://api.example.com/v1/carts"))
        #expect(
            text.hasSuffix(
                #"closest: stub "cart" [method == GET && path == /v1/cart]: path was "/v1/carts", expected "/v1/cart""#
            ),
            "\(text)"
        )
        #expect(text.contains("8 stubs tried"))
    }

    @Test(
        "realistic near misses name the stub the request was meant for",
        arguments: [
            ("DELETE /v1/cart", "cart"),
            ("GET /v1/orders?page=2", "orders"),
            ("GET /v1/order?page=1", "orders"),
            ("POST /v1/logn", "login"),
            ("GET /v1/profiles", "profile"),
        ]
    )
    func nearMisses(line: String, stub: String) {
        let parts = line.split(separator: " ")
        #expect(closest(sent("https://api.example.com" + parts[1], method: String(parts[0]))) == stub)
    }

    @Test("a missing header, a body field and a GraphQL operation name are measured too")
    func otherParts() {
        #expect(closest(sent("https://api.example.com/v1/search")) == "search")
        let checkout = sent(
            "https://api.example.com/v1/checkout",
            method: "POST",
            body: #"{"cart":{"id":8},"note":"gift"}"#
        )
        #expect(closest(checkout) == "checkout")
        let graphQL = sent(
            "https://api.example.com/graphql",
            method: "POST",
            body: #"{"query":"query GetUsers { users { id } }"}"#
        )
        let text = Self.shop().explainUnmatched(graphQL)
        #expect(text.contains(#"closest: stub "graphql user""#), "\(text)")
        #expect(text.hasSuffix(#"GraphQL operation was "GetUsers", expected "GetUser""#))
    }

    @Test("a stub in the wrong state is the nearest miss when everything else matches, and says so")
    func wrongState() {
        let mocks = MockSet(stubs: [
            Stub("full cart", matching: .method("GET") && .path("/v1/cart"), response: .json(["items": [1]]))
                .withState(machine: "cart", requires: "item added"),
            Stub("carts", matching: .method("GET") && .path("/v1/carts"), response: .json([])),
        ])
        let text = mocks.explainUnmatched(sent("https://api.example.com/v1/cart"))
        #expect(
            text.hasSuffix(
                #"closest: stub "full cart" [method == GET && path == /v1/cart]: matched, but state machine "cart" "#
                    + #"was in "Started", the stub needs "item added""#
            ),
            "\(text)"
        )
    }

    @Test("equal distances go to the more specific stub, then to the newest")
    func ties() {
        let bySpecificity = MockSet(stubs: [
            Stub("loose", matching: .path("/a"), response: .status(200)),
            Stub("tight", matching: .path("/a") && .header("X", nil), response: .status(200)),
        ])
        // /b is 1 from /a for both; the header X is present, so both are 1 away.
        #expect(closest(sent("https://h/b", headers: ["X": "1"]), in: bySpecificity) == "tight")
        let byAge = MockSet(stubs: [
            Stub("older", matching: .path("/a"), response: .status(200)),
            Stub("newer", matching: .path("/c"), response: .status(200)),
        ])
        #expect(closest(sent("https://h/b"), in: byAge) == "newer")
    }

    @Test("the explanation counts nothing and moves no machine")
    func explainingIsFree() {
        let mocks = MockSet(stubs: [
            Stub("move", matching: .path("/go"), response: .status(200)).withState(machine: "m", moveTo: "gone")
        ])
        #expect(mocks.explainUnmatched(sent("https://h/go")).hasPrefix(#"stub "move" [path == /go] answers"#))
        #expect(mocks.state(of: "m") == "Started")
        #expect(mocks.hitCount(for: "move") == 0)
    }
}
