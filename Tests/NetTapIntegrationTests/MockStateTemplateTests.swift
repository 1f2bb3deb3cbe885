import Foundation
import NetTapCore
import NetTapMocking
import NetTapTestSupport
import NetTapTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// State machines, templated answers and GraphQL stubs seen by the app through a real URLSession, in every style.
///
/// URLs use `127.0.0.1:1`, where nothing listens, so a request that escaped the stubs fails loudly.
@Suite("Stateful, templated and GraphQL stubs through URLSession")
struct MockStateTemplateTests {
    private static let base = "http://127.0.0.1:1"

    private static func mocks() throws -> MockSet {
        let mocks = MockSet(stubs: [
            Stub("cart empty", matching: .method("GET") && .path("/cart"), response: .json(["items": []]))
                .withState(machine: "cart", requires: StubState.started),
            try Stub(
                "add item",
                matching: .method("POST") && .path("/cart"),
                response: .json(
                    ["id": "{{randomId}}", "sku": "{{request.body.$.sku}}", "by": "{{request.header.X-User}}"],
                    statusCode: 201,
                    headers: ["Location": "/cart/{{randomId}}"]
                )
            )
            .templated()
            .withState(machine: "cart", moveTo: "item added"),
            Stub("cart full", matching: .method("GET") && .path("/cart"), response: .json(["items": ["b-1"]]))
                .withState(machine: "cart", requires: "item added"),
            Stub(
                "get cart",
                matching: .path("/graphql") && .graphQL(operation: "GetCart", type: .query),
                response: .json(["data": ["cart": ["id": 1]]])
            ),
        ])
        mocks.randomSeed = 9
        return mocks
    }

    @Test(
        "a POST moves the cart's machine and gets a rendered answer; GET /cart then answers the new state",
        arguments: CallerStyle.allCases
    )
    func cartFlow(style: CallerStyle) async throws {
        let mocks = try Self.mocks()
        let interceptor = NetTapInterceptor()
        interceptor.handlers = [MockHandler(mocks: mocks, unmatched: .fail)]
        let client = Client(name: "mock", interceptor: interceptor)
        let url = try #require(URL(string: Self.base + "/cart"))

        let empty = await client.send(URLRequest(url: url), style: style)
        #expect(empty.body == Data(#"{"items":[]}"#.utf8))

        var add = URLRequest(url: url)
        add.httpMethod = "POST"
        add.setValue("ada", forHTTPHeaderField: "X-User")
        add.httpBody = Data(#"{"sku":"b-1","qty":1}"#.utf8)
        let added = await client.send(add, style: style)
        #expect(added.error == nil)
        #expect(added.statusCode == 201)
        let json = try JSONValue(data: added.body)
        #expect(json["sku"] == "b-1")
        #expect(json["by"] == "ada")
        let id = try #require(json["id"]?.stringValue)
        #expect(added.headers["location"] == "/cart/\(id)")
        #expect(added.headers["content-length"] == String(added.body.count))
        #expect(mocks.state(of: "cart") == "item added")

        let full = await client.send(URLRequest(url: url), style: style)
        #expect(full.body == Data(#"{"items":["b-1"]}"#.utf8))
        let captured = interceptor.captureLog.transactions
        #expect(
            captured.map { $0.annotations["state"] ?? "-" } == [
                "cart: Started", "cart: Started → item added", "cart: item added",
            ]
        )
    }

    @Test(
        "a GraphQL stub answers its operation on the one endpoint, and the capture names the operation",
        arguments: CallerStyle.allCases
    )
    func graphQL(style: CallerStyle) async throws {
        let interceptor = NetTapInterceptor()
        interceptor.handlers = [MockHandler(mocks: try Self.mocks(), unmatched: .fail)]
        let client = Client(name: "mock", interceptor: interceptor)
        var post = URLRequest(url: try #require(URL(string: Self.base + "/graphql")))
        post.httpMethod = "POST"
        post.setValue("application/json", forHTTPHeaderField: "Content-Type")
        post.httpBody = Data(#"{"query":"query GetCart { cart { id } }","operationName":"GetCart"}"#.utf8)
        let answered = await client.send(post, style: style)
        #expect(answered.body == Data(#"{"data":{"cart":{"id":1}}}"#.utf8))

        post.httpBody = Data(#"{"query":"query GetCarts { carts { id } }"}"#.utf8)
        let refused = await client.send(post, style: style)
        #expect(refused.errorCode == URLError.resourceUnavailable.rawValue)
        #expect(refused.errorDescription?.contains(#"closest: stub "get cart""#) == true, "\(refused)")
        #expect(refused.errorDescription?.contains(#"GraphQL operation was "GetCarts", expected "GetCart""#) == true)

        post.httpBody = Data(#"{"query":"mutation AddItem { addItem { id } }"}"#.utf8)
        _ = await client.send(post, style: style)
        let labels = interceptor.captureLog.transactions.map { $0.annotations["graphql.operation"] ?? "-" }
        #expect(labels == ["GetCart", "GetCarts", "AddItem"])
        #expect(interceptor.captureLog.transactions.last?.annotations["graphql.type"] == "mutation")
    }
}
