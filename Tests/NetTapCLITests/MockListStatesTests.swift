import Foundation
import NetTapCore
import NetTapMocking
import Testing

@testable import NetTapCLI

@Suite("mock list shows state machines, each stub's state and templated responses")
struct MockListStatesTests {
    @Test("the state machines table, the STATE column and templated responses")
    func statesAndTemplates() throws {
        let configuration = MockConfiguration(
            stubs: [
                Stub("cart empty", matching: .path("/cart"), response: .json(["items": []]))
                    .withState(machine: "cart", requires: "Started"),
                try Stub("add", matching: .method("POST") && .path("/cart"), response: .json(["id": "{{randomId}}"]))
                    .templated()
                    .withState(machine: "cart", requires: "Started", moveTo: "item added"),
                Stub("me", matching: .path("/me"), response: .text("ada")).withState(
                    machine: "session",
                    requires: "in"
                ),
            ],
            scenarios: [
                Scenario(
                    "odd",
                    stubs: [
                        Stub(
                            "status",
                            matching: .path("/s"),
                            response: try StubResponse.status(200).templated(status: "{{request.query.s}}")
                        )
                    ]
                )
            ],
            states: ["session": "in"]
        )
        let lines = MockListCommand.text(configuration, file: "m.json").components(separatedBy: "\n")
            .map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines.contains("State machines (state as loaded; stubs that need or move each):"))
        #expect(lines.contains { $0.hasPrefix("MACHINE") && $0.hasSuffix("MOVED BY") })
        #expect(
            lines.contains {
                $0.wholeMatch(of: /cart +Started +cart empty \("Started"\), add \("Started"\) +add \(→ "item added"\)/)
                    != nil
            }
        )
        #expect(lines.contains { $0.wholeMatch(of: /session +in +me \("in"\) +-/) != nil })
        #expect(lines.contains { $0.hasPrefix("STUB") && $0.contains("STATE") })
        #expect(
            lines.contains {
                $0.hasPrefix("add") && $0.contains(#"cart: requires "Started", moves to "item added""#)
                    && $0.hasSuffix("200, 21 bytes JSON, templated")
            }
        )
        #expect(
            lines.contains { $0.hasPrefix("status") && $0.hasSuffix("200, templated (status {{request.query.s}})") }
        )
        // A section without stateful stubs has no STATE column.
        #expect(lines.contains { $0.hasPrefix("STUB") && !$0.contains("STATE") })
    }

    @Test("the example nettap.json lists its cart machine and templated stubs through the command")
    func exampleFile() async throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let result = await runCLI(["mock", "list", root.appendingPathComponent("examples/nettap.json").path])
        #expect(result.exitCode == .success, "\(result.standardError)")
        #expect(result.standardOutput.contains(#"cart: moves to "item added""#))
        #expect(result.standardOutput.contains("templated"))
        #expect(result.standardOutput.contains("GraphQL query GetCart"))
    }
}
