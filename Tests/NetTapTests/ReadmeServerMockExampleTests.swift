import Foundation
import NetTap
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The README's "Mocks that behave like a server" example, compiled and run.
@Suite("README server-like mocks example")
struct ReadmeServerMockExampleTests {
    /// The example, line for line after its first line (checked by ``matchesReadme()``).
    private func example(interceptor: NetTapInterceptor, session: URLSession) async throws -> (Data, Data, MockSet) {
        // README-BEGIN servermocks
        let shop = MockSet(stubs: [
            Stub("empty", matching: .method("GET") && .path("/v1/cart"), response: .json(["items": []]))
                .withState(machine: "cart", requires: StubState.started),
            try Stub(
                "add",
                matching: .method("POST") && .path("/v1/cart/items"),
                response: .json(["id": "{{randomId}}", "sku": "{{request.body.$.sku}}"], statusCode: 201)
            ).templated().withState(machine: "cart", moveTo: "item added"),  // answering moves the machine
            Stub("full", matching: .method("GET") && .path("/v1/cart"), response: .json(["items": ["b-1"]]))
                .withState(machine: "cart", requires: "item added"),
            Stub(
                "get cart",
                matching: .path("/graphql") && .graphQL(operation: "GetCart"),
                response: .json(["data": [:]])
            ),
        ])
        shop.randomSeed = 42  // the same {{randomId}} on every run
        interceptor.handlers = [MockHandler(mocks: shop, unmatched: .fail)]
        var add = URLRequest(url: URL(string: "https://api.nettap.example/v1/cart/items")!)
        add.httpMethod = "POST"
        add.httpBody = Data(#"{"sku":"b-1"}"#.utf8)
        let (created, _) = try await session.data(for: add)  // 201 {"id":"…","sku":"b-1"}
        let (cart, _) = try await session.data(from: URL(string: "https://api.nettap.example/v1/cart")!)  // ["b-1"] now
        shop.resetStates()  // every machine back in "Started", where a test scope starts them
        // README-END servermocks
        return (created, cart, shop)
    }

    @Test("the example runs: the POST is rendered and moves the cart's machine, GET /v1/cart answers the new state")
    func runs() async throws {
        let interceptor = NetTapInterceptor()
        let session = interceptor.makeSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }
        let (created, cart, shop) = try await example(interceptor: interceptor, session: session)
        let json = try JSONValue(data: created)
        #expect(json["sku"] == "b-1")
        #expect(json["id"]?.stringValue.flatMap(UUID.init(uuidString:)) != nil)
        #expect(try JSONValue(data: cart) == ["items": ["b-1"]])
        #expect(shop.state(of: "cart") == StubState.started)
        let states = interceptor.captureLog.transactions.map { $0.annotations["state"] ?? "-" }
        #expect(states == ["cart: Started → item added", "cart: item added"])
    }

    @Test("the example is the README's code")
    func matchesReadme() throws {
        let readme = try ReadmeBlocks.block(containing: "withState(machine:", from: "let shop")
        #expect(!readme.isEmpty)
        #expect(
            ReadmeBlocks.compact(readme) == ReadmeBlocks.compact(try ReadmeBlocks.marked("servermocks", in: #filePath))
        )
    }
}
