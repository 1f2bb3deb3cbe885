import Foundation
import NetTapTestSupport
import Testing

@Suite("schema/nettap.schema.json describes state machines, templates and GraphQL matchers as the readers do")
struct SchemaMockStateTests {
    @Test("jsonschema accepts states, templates and graphql matchers, and rejects what the readers reject")
    func statesTemplatesAndGraphQL() async throws {
        let folder = try TemporaryFolder(prefix: "nettap-schema-mocks")
        let good = try folder.write(
            #"""
            {"mocks": {"randomSeed": 3, "states": {"cart": "item added"}, "stubs": [
              {"name": "a", "match": {"graphql": "GetCart"}, "state": {"machine": "cart", "requires": "Started"},
               "templated": true, "response": {"status": "{{request.query.s default='200'}}", "body": "{{now}}"}},
              {"name": "b", "match": {"graphql": {"operationType": "mutation"}},
               "state": {"machine": "cart", "moveTo": "item added"}, "response": {}}
            ]}}
            """#,
            to: "good.json"
        )
        #expect(try await validateWithJSONSchema([good]).status == 0)
        let bad = try folder.write(
            #"""
            {"mocks": {"randomSeed": -1, "stubs": [
              {"name": "a", "match": {"graphql": {"operationType": "read"}}, "state": {"machine": "cart"},
               "templated": "yes", "response": {}},
              {"name": "b", "match": {"graphql": {"operation": "A"}}, "state": {"requires": "x"}, "response": {}}
            ]}}
            """#,
            to: "bad.json"
        )
        let result = try await validateWithJSONSchema([bad])
        #expect(result.status == 1)
        for place in [
            "/mocks/randomSeed", "/mocks/stubs/0/match/graphql", "/mocks/stubs/0/state", "/mocks/stubs/0/templated",
            "/mocks/stubs/1/match/graphql", "/mocks/stubs/1/state",
        ] {
            #expect(result.output.contains(place + ": "), "\(place) in \(result.output)")
        }
    }
}
