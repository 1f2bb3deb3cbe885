import Foundation
import NetTapCore
import NetTapMocking
import NetTapTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("A templated, stateful stub stepped in the HandlerHarness, and its handler contract")
struct StatefulTemplateStepTests {
    private static func handler(state: String? = nil) throws -> MockHandler {
        let mocks = MockSet(stubs: [
            Stub(
                "create",
                matching: .method("POST") && .path("/items"),
                response: try StubResponse.json(
                    ["id": "{{randomId}}", "name": "{{request.body.$.name}}"],
                    statusCode: 201,
                    headers: ["Location": "/items/{{randomId}}"]
                )
                .withLatency(.milliseconds(80))
                .withBandwidth(bytesPerSecond: 1_000)
                .templated()
            )
            .withState(machine: "items", moveTo: "created"),
            Stub(
                "list",
                matching: .path("/items"),
                response: try StubResponse.text("{{request.query.page}}").templated()
            )
            .withState(machine: "items", requires: "created"),
        ])
        mocks.randomSeed = 1
        if let state { try mocks.setState(state, of: "items") }
        return MockHandler(mocks: mocks, unmatched: .fail)
    }

    private static func create() -> URLRequest {
        var request = URLRequest(url: URL(string: "https://api.example.com/items")!)
        request.httpMethod = "POST"
        request.httpBody = Data(#"{"name":"lamp"}"#.utf8)
        return request
    }

    @Test("keeps the handler contract for a templated stub that moves its machine, and for one that needs a state")
    func contract() async throws {
        let create = await HandlerContract.violations(of: { try! Self.handler() }, request: Self.create())
        #expect(create == [])
        let list = URLRequest(url: URL(string: "https://api.example.com/items?page=2")!)
        let listed = await HandlerContract.violations(of: { try! Self.handler(state: "created") }, request: list)
        #expect(listed == [])
        let refused = await HandlerContract.violations(of: { try! Self.handler() }, request: list)
        #expect(refused == [])
    }

    @Test("the rendered answer comes after its latency, paced, with its Content-Length and the state step")
    func stepped() async throws {
        let harness = HandlerHarness(handler: try Self.handler())
        async let step = harness.start(Self.create())
        await harness.clock.waitForSleepers(count: 1)
        harness.advance(by: .milliseconds(80))
        guard case .answered(let answer) = await step else {
            Issue.record("the stub did not answer")
            return
        }
        #expect(answer.statusCode == 201)
        let location = try #require(answer.headers["Location"])
        var body = Data()
        while body.count < Int(answer.headers["Content-Length"] ?? "0") ?? 0 {
            async let piece = harness.readChunk()
            await harness.clock.waitForSleepers(count: 1)
            harness.advance(by: .milliseconds(50))
            body += try await piece ?? Data()
        }
        #expect(try await harness.readChunk() == nil)
        let json = try JSONValue(data: body)
        #expect(json["name"] == "lamp")
        #expect(location == "/items/" + (json["id"]?.stringValue ?? "?"))
        #expect(harness.context.annotations[MockHandler.stateAnnotation] == "items: Started → created")
        try await harness.finish()
    }
}
