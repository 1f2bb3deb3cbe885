import Foundation
import NetTapCore
import NetTapMocking
import NetTapTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Mock files with state machines and templates: loading, errors at the JSON path, writing back")
struct StateAndTemplateFileTests {
    static let document = #"""
        {
          "mocks": {
            "randomSeed": 42,
            "states": {"session": "logged in"},
            "stubs": [
              {"name": "cart empty", "match": {"method": "GET", "path": "/cart"},
               "state": {"machine": "cart", "requires": "Started"}, "response": {"json": {"items": []}}},
              {"name": "add item", "match": {"method": "POST", "path": "/cart"}, "templated": true,
               "state": {"machine": "cart", "moveTo": "item added"},
               "response": {"status": 201, "headers": {"Location": "/cart/items/{{randomId}}"},
                            "json": {"id": "{{randomId}}", "sku": "{{request.body.$.sku}}", "qty": "{{request.body.$.qty}}"}}},
              {"name": "cart full", "match": {"method": "GET", "path": "/cart"},
               "state": {"machine": "cart", "requires": "item added"}, "response": {"json": {"items": ["book"]}}},
              {"name": "user", "match": {"path": "/users/*"}, "templated": true,
               "response": {"status": "{{request.query.status default='200'}}",
                            "headers": {"Content-Type": "application/json"},
                            "body": "{\"id\": {{request.path.1}}, \"name\": \"{{request.query.name}}\"}"}},
              {"name": "literal", "match": {"path": "/literal"}, "response": {"body": "{{request.path}}"}},
              {"name": "me", "match": {"path": "/me"}, "state": {"machine": "session", "requires": "logged in"},
               "response": {"body": "ada"}}
            ]
          }
        }
        """#

    private func load(_ json: String) throws -> (MockConfiguration, URL) {
        let directory = try temporaryDirectory()
        let file = directory.appendingPathComponent("nettap.json")
        try Data(json.utf8).write(to: file)
        return (try MockConfiguration.load(contentsOf: file), directory)
    }

    /// The answers of the document's stubs to a fixed list of requests.
    private func behaviour(of mocks: MockSet) async throws -> [String] {
        let pipeline = harness(mocks)
        var lines: [String] = []
        for (path, method, body) in [
            ("/cart", "GET", nil), ("/cart", "POST", #"{"sku":"b-1","qty":2}"#), ("/cart", "GET", nil),
            ("/users/7?name=Ada%20%22L%22", "GET", nil), ("/users/8?status=404", "GET", nil), ("/literal", "GET", nil),
            ("/me", "GET", nil),
        ] {
            var sent = request(path, method: method)
            sent.httpBody = body.map { Data($0.utf8) }
            let result = try await pipeline.send(sent)
            let location = result.response.headers["Location"].map { " Location: \($0)" } ?? ""
            lines.append("\(method) \(path): \(result.statusCode)\(location) \(result.text)")
        }
        return lines
    }

    @Test("a file's states, seed and templates answer as written, and load → write → load answers the same")
    func loadAndRoundTrip() async throws {
        let (configuration, directory) = try load(Self.document)
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(configuration.randomSeed == 42)
        #expect(configuration.states == ["session": "logged in"])
        #expect(configuration.stubs.map(\.isTemplated) == [false, true, false, true, false, false])
        #expect(configuration.stubs[1].state == StubState(machine: "cart", moveTo: "item added"))
        let lines = try await behaviour(of: MockSet(configuration: configuration))
        #expect(lines[0] == #"GET /cart: 200 {"items":[]}"#)
        #expect(lines[1].hasPrefix("POST /cart: 201 Location: /cart/items/"))
        #expect(lines[1].hasSuffix(#","qty":2,"sku":"b-1"}"#))
        #expect(lines[2] == #"GET /cart: 200 {"items":["book"]}"#)
        #expect(lines[3] == #"GET /users/7?name=Ada%20%22L%22: 200 {"id": 7, "name": "Ada \"L\""}"#)
        #expect(lines[4] == #"GET /users/8?status=404: 404 {"id": 8, "name": ""}"#)
        #expect(lines[5] == "GET /literal: 200 {{request.path}}")
        #expect(lines[6] == "GET /me: 200 ada")

        let written = directory.appendingPathComponent("written.json")
        try configuration.write(to: written)
        let text = try String(contentsOf: written, encoding: .utf8)
        #expect(text.contains(#""templated" : true"#))
        #expect(text.contains(#""status" : "{{request.query.status default='200'}}""#))
        let reloaded = try MockConfiguration.load(contentsOf: written)
        #expect(try await behaviour(of: MockSet(configuration: reloaded)) == lines)
    }

    @Test("a mock set's configuration keeps the states machines are in and a seed that was set")
    func runtimeStateWrittenBack() async throws {
        let (configuration, directory) = try load(Self.document)
        defer { try? FileManager.default.removeItem(at: directory) }
        let mocks = try MockSet(configuration: configuration)
        _ = try await harness(mocks).send(request("/cart", method: "POST"))
        #expect(mocks.configuration.states == ["cart": "item added", "session": "logged in"])
        #expect(mocks.configuration.randomSeed == 42)
        #expect(MockSet().configuration.randomSeed == nil)
    }

    @Test(
        "errors name the file and the JSON path of the template or state",
        arguments: [
            (
                #"{"mocks": {"stubs": [{"name": "a", "match": {}, "templated": true, "response": {"body": "id {{request.paht.2}}"}}]}}"#,
                #"nettap.json: $.mocks.stubs[0].response.body: invalid template "id {{request.paht.2}}" at character 4: "#
                    + #"unknown placeholder "request.paht.2"; did you mean "request.path.2"?"#
            ),
            (
                #"{"mocks": {"stubs": [{"name": "a", "match": {}, "templated": true, "response": {"json": {"user": [{"id": "{{request.nope}}"}]}}}]}}"#,
                #"nettap.json: $.mocks.stubs[0].response.json.user[0].id: invalid template "{{request.nope}}""#
            ),
            (
                #"{"mocks": {"stubs": [{"name": "a", "match": {}, "templated": true, "response": {"headers": [{"name": "X", "value": "{{now format='x'}}"}]}}]}}"#,
                #"nettap.json: $.mocks.stubs[0].response.headers[0].value: invalid template"#
            ),
            (
                #"{"mocks": {"stubs": [{"name": "a", "match": {}, "templated": true, "sequence": [{"status": 200}, {"status": "{{x}}"}]}]}}"#,
                #"nettap.json: $.mocks.stubs[0].sequence[1].status: invalid template "{{x}}""#
            ),
            (
                #"{"mocks": {"stubs": [{"name": "a", "match": {}, "templated": true, "alternatives": [{"name": "x", "redirect": "/{{request.path.}}"}]}]}}"#,
                #"nettap.json: $.mocks.stubs[0].alternatives[0].redirect: invalid template"#
            ),
            (
                #"{"mocks": {"stubs": [{"name": "a", "match": {}, "response": {"status": "{{request.query.s}}"}}]}}"#,
                #"nettap.json: $.mocks.stubs[0].response.status: expected an integer, found a string; a status template needs "templated": true"#
            ),
            (
                #"{"mocks": {"stubs": [{"name": "a", "match": {}, "templated": "yes", "response": {}}]}}"#,
                #"nettap.json: $.mocks.stubs[0].templated: expected"#
            ),
            (
                #"{"mocks": {"stubs": [{"name": "a", "match": {}, "state": {"machine": "cart"}, "response": {}}]}}"#,
                #"nettap.json: $.mocks.stubs[0].state: a state needs "requires""#
            ),
            (
                #"{"mocks": {"stubs": [{"name": "a", "match": {}, "state": {"requires": "x"}, "response": {}}]}}"#,
                #"nettap.json: $.mocks.stubs[0].state: missing required key "machine""#
            ),
            (
                #"{"mocks": {"stubs": [{"name": "a", "match": {}, "state": {"machine": "c", "moveto": "x"}, "response": {}}]}}"#,
                #"nettap.json: $.mocks.stubs[0].state.moveto: unknown key "moveto"; did you mean "moveTo"?"#
            ),
            (
                #"{"mocks": {"states": {"crat": "x"}, "stubs": [{"name": "a", "match": {}, "state": {"machine": "cart", "moveTo": "x"}, "response": {}}]}}"#,
                #"nettap.json: $.mocks.states.crat: no state machine named "crat"; did you mean "cart"?"#
            ),
            (
                #"{"mocks": {"stubs": [{"name": "add", "match": {}, "state": {"machine": "cart", "moveTo": "item added"}, "response": {}}], "#
                    + #""scenarios": [{"name": "s", "stubs": [{"name": "b", "match": {}, "state": {"machine": "cart", "requires": "item aded"}, "response": {}}]}]}}"#,
                #"nettap.json: $.mocks.scenarios[0].stubs[0].state.requires: no stub moves state machine "cart" to "item aded", "#
                    + #"and it does not start there; did you mean "item added"?"#
            ),
            (
                #"{"mocks": {"randomSeed": -1}}"#,
                "nettap.json: $.mocks.randomSeed: expected a seed from 0, found -1"
            ),
        ]
    )
    func errors(json: String, message: String) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("nettap.json")
        try Data(json.utf8).write(to: file)
        let error = #expect(throws: ConfigurationError.self) { _ = try MockConfiguration.load(contentsOf: file) }
        let text = error?.description ?? ""
        #expect(text.hasPrefix(message), "\(text)")
    }

    @Test("a state set only from code may be required: a name close to no reachable state is not an error")
    func unreachableButNotATypo() throws {
        let json = #"""
            {"mocks": {"stubs": [
              {"name": "add", "match": {}, "state": {"machine": "cart", "moveTo": "item added"}, "response": {}},
              {"name": "vip", "match": {}, "state": {"machine": "cart", "requires": "gold member"}, "response": {}}
            ]}}
            """#
        let (configuration, directory) = try load(json)
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(configuration.stubs.count == 2)
    }
}
