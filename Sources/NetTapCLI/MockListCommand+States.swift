import Foundation
import NetTapMocking

extension MockListCommand {
    /// The state machines of a configuration: each machine's state when the file is loaded (its `states` entry, or
    /// `Started`), the states its stubs require and the states they move it to, or `nil` when no stub has a state.
    ///
    /// ```
    /// State machines (state as loaded; stubs that need or move each):
    ///   MACHINE  STATE    REQUIRED BY                   MOVED BY
    ///   cart     Started  cart empty ("Started"), …      add item (→ "item added")
    /// ```
    static func stateMachines(_ configuration: MockConfiguration) -> String? {
        let stubs = configuration.stubs + configuration.scenarios.flatMap(\.stubs)
        let machines = Set(stubs.compactMap(\.state?.machine)).sorted()
        guard !machines.isEmpty else { return nil }
        var table = TextTable(
            headings: ["MACHINE", "STATE", "REQUIRED BY", "MOVED BY"],
            alignments: [.left, .left, .left, .left]
        )
        for machine in machines {
            let using = stubs.filter { $0.state?.machine == machine }
            let required = using.compactMap { stub in stub.state?.requires.map { "\(stub.name) (\"\($0)\")" } }
            let moving = using.compactMap { stub in stub.state?.moveTo.map { "\(stub.name) (→ \"\($0)\")" } }
            table.rows.append([
                machine, configuration.states[machine] ?? StubState.started,
                required.isEmpty ? "-" : required.joined(separator: ", "),
                moving.isEmpty ? "-" : moving.joined(separator: ", "),
            ])
        }
        return "\nState machines (state as loaded; stubs that need or move each):\n" + indented(table)
    }

    /// A stub's state column: `cart: requires "Started", moves to "item added"`, or `-`.
    static func stateText(_ stub: Stub) -> String {
        stub.state?.description ?? "-"
    }

    /// What follows a response's description for a templated one: `, templated`, with the status template.
    static func templateText(_ response: StubResponse) -> String {
        guard response.isTemplated else { return "" }
        return response.statusTemplate.map { ", templated (status \($0))" } ?? ", templated"
    }

    /// A table's lines, each indented by two spaces.
    static func indented(_ table: TextTable) -> String {
        table.rendered.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            .map { "  " + $0 }.joined(separator: "\n") + "\n"
    }
}
