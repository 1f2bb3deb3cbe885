import Foundation
import NetTapCore
import NetTapMocking
import NetTapTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The examples in the module's doc comments, compiled and run so they cannot rot.
@Suite("Doc examples of NetTapMocking")
struct DocExampleTests {
    @Test("the MockSet example: base stubs, scenarios, switching")
    func mockSetExample() async throws {
        let mocks = MockSet(
            stubs: [Stub("config", matching: .path("/config"), response: .json(["theme": "dark"]))],
            scenarios: [
                Scenario(
                    "happy path",
                    stubs: [Stub("cart", matching: .path("/cart"), response: .json(["items": [1, 2]]))]
                ),
                Scenario("server down", stubs: [Stub("all", matching: .any, response: .status(503))]),
            ]
        )
        try mocks.activate(scenario: "happy path")
        let harness = PipelineHarness(handlers: [MockHandler(mocks: mocks, unmatched: .fail)])
        #expect(try await harness.send(request("/cart")).text == #"{"items":[1,2]}"#)
        try mocks.activate(scenario: "server down")
        #expect(try await harness.send(request("/cart")).statusCode == 503)
        // The active scenario comes first: its catch-all overrides the base stub too.
        #expect(try await harness.send(request("/config")).statusCode == 503)
        try mocks.activate(scenario: "happy path")
        #expect(try await harness.send(request("/config")).text == #"{"theme":"dark"}"#)
    }

    @Test("the Stub and StubResponse examples build and answer")
    func stubExamples() async throws {
        let photoURL = URL(fileURLWithPath: "/nonexistent/photo.jpg")
        let responses: [StubResponse] = [
            .json(["id": 42, "name": "Ada"]),
            StubResponse.file(photoURL, headers: ["Content-Type": "image/jpeg"])
                .withLatency(.milliseconds(300))
                .withPacing(.bandwidth(bytesPerSecond: 100_000)),
            .failure(.notConnectedToInternet),
            .redirect(to: "/v2/profile"),
            .dynamic { request in .text("you asked for \(request.url?.path ?? "")") },
        ]
        #expect(responses.map(\.statusCode) == [200, 200, 0, 302, 200])
        let login = Stub(
            "login",
            matching: .method("POST") && .path("/login"),
            alternatives: ["ok": .json(["token": "t"]), "locked": .status(423)]
        )
        let poll = Stub("poll", matching: .path("/job"), sequence: [.status(202), .status(202), .json(["done": true])])
        let mocks = MockSet(stubs: [login, poll])
        let harness = PipelineHarness(handlers: [MockHandler(mocks: mocks, unmatched: .fail)])
        #expect(try await harness.send(request("/login", method: "POST")).text == #"{"token":"t"}"#)
        #expect(try await harness.send(request("/job")).statusCode == 202)
    }
}
