import Foundation
import NetTapCore
import NetTapMocking
import NetTapTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The state and template examples in the module's doc comments and the “Mocks and mock files” article, compiled
/// and run so they cannot rot.
@Suite("Doc examples of state machines and templates")
struct DocExampleStateTemplateTests {
    @Test("the StubResponse.templated(status:) examples render from the request")
    func templatedExamples() async throws {
        let user = try StubResponse.json(["id": "{{request.path.2}}", "requestId": "{{randomId}}"]).templated()
        let echo = try StubResponse.text("hello {{request.query.name default=\"you\"}}").templated()
        let created = try StubResponse.status(201, headers: ["Location": "/items/{{randomId}}"]).templated()
        let mocks = MockSet(stubs: [
            Stub("user", matching: .pathGlob("/v1/users/*"), response: user),
            Stub("echo", matching: .path("/echo"), response: echo),
            Stub("created", matching: .path("/items"), response: created),
        ])
        let pipeline = harness(mocks)
        let answer = try JSONValue(data: try await pipeline.send(request("/v1/users/42")).body)
        #expect(answer["id"] == "42")
        #expect(try await pipeline.send(request("/echo")).text == "hello you")
        #expect(try await pipeline.send(request("/echo?name=Ada")).text == "hello Ada")
        let location = try await pipeline.send(request("/items", method: "POST")).response.headers["Location"]
        #expect(location?.hasPrefix("/items/") == true)
    }

    @Test("the StubState and withState examples, and the article's create-user file stub")
    func stateExamples() async throws {
        let empty = Stub("cart empty", matching: .method("GET") && .path("/cart"), response: .json(["items": []]))
            .withState(machine: "cart", requires: StubState.started)
        let add = Stub("add item", matching: .method("POST") && .path("/cart"), response: .status(201))
            .withState(machine: "cart", moveTo: "item added")
        let full = Stub("cart full", matching: .method("GET") && .path("/cart"), response: .json(["items": [1]]))
            .withState(machine: "cart", requires: "item added")
        let mocks = MockSet(stubs: [empty, add, full])
        let pipeline = harness(mocks)
        #expect(try await pipeline.send(request("/cart")).text == #"{"items":[]}"#)
        #expect(try await pipeline.send(request("/cart", method: "POST")).statusCode == 201)
        #expect(try await pipeline.send(request("/cart")).text == #"{"items":[1]}"#)
        #expect(
            StubState(machine: "cart", requires: "Started", moveTo: "item added").description
                == #"cart: requires "Started", moves to "item added""#
        )

        let file = #"""
            {"stubs": [{"name": "create user", "match": {"method": "POST", "path": "/v1/users"}, "templated": true,
             "response": {"status": 201, "headers": {"Location": "/v1/users/{{randomId}}"},
                          "json": {"id": "{{randomId}}", "name": "{{request.body.$.name}}", "created": "{{now}}"}}}]}
            """#
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("mocks.json")
        try Data(file.utf8).write(to: url)
        let users = try MockSet(configuration: .load(contentsOf: url))
        users.templateDate = Date(timeIntervalSince1970: 0)
        var post = request("/v1/users", method: "POST")
        post.httpBody = Data(#"{"name":"Ada"}"#.utf8)
        let result = try await harness(users).send(post)
        let json = try JSONValue(data: result.body)
        #expect(json["name"] == "Ada")
        #expect(json["created"] == "1970-01-01T00:00:00Z")
        #expect(result.response.headers["Location"] == "/v1/users/" + (json["id"]?.stringValue ?? "?"))
    }
}
