import NetTapCore

extension MockConfiguration {
    /// Reads the section's `states` (each machine's initial state) and checks the stubs' states against them.
    ///
    /// - Throws: `ConfigurationError` at `states.NAME` for a machine no stub names, or at a stub's
    ///   `state.requires` for a state no stub moves its machine to, nor its start, when it is a typo of one that
    ///   is (`"item aded"` beside a `moveTo` of `"item added"`).
    mutating func readStates(_ node: ConfigNode) throws {
        // From the file, not the stubs read: a stub left out for an error of its own still names its machine.
        let machines = Set(Self.stubNodes(of: node).compactMap { try? $0.child("state")?.string("machine") })
        if let statesNode = try node.child("states"), statesNode.value != .null {
            for (machine, stateNode) in try statesNode.members() {
                guard machines.contains(machine) else {
                    let error = MockingError.unknownStateMachine(machine, available: machines.sorted())
                    throw stateNode.error(error.description)
                }
                states[machine] = try stateNode.stringValue()
            }
        }
        try checkRequiredStates(node)
    }

    /// The states each machine can be in without code setting them: its start and every `moveTo` of it.
    private var reachableStates: [String: Set<String>] {
        var reachable: [String: Set<String>] = [:]
        for stub in stubs + scenarios.flatMap(\.stubs) {
            guard let state = stub.state else { continue }
            reachable[state.machine, default: [states[state.machine] ?? StubState.started]].insert(
                state.moveTo ?? states[state.machine] ?? StubState.started
            )
        }
        return reachable
    }

    /// Fails on a `requires` that no stub reaches and that is a typo of a state that is reached.
    private func checkRequiredStates(_ node: ConfigNode) throws {
        let reachable = reachableStates
        for stubNode in Self.stubNodes(of: node) {
            guard let stateNode = try? stubNode.child("state"), let requiresNode = try? stateNode.child("requires"),
                let machine = try? stateNode.string("machine"), let required = requiresNode.value.stringValue,
                let known = reachable[machine], !known.contains(required),
                let suggestion = ConfigNode.suggestion(for: required, among: known)
            else { continue }
            throw requiresNode.error(
                "no stub moves state machine \"\(machine)\" to \"\(required)\", and it does not start there; "
                    + "did you mean \"\(suggestion)\"?"
            )
        }
    }

    /// The nodes of every stub in the section: the base stubs, then each scenario's.
    private static func stubNodes(of node: ConfigNode) -> [ConfigNode] {
        var stubNodes = (try? node.child("stubs")?.elements()) ?? []
        for scenario in (try? node.child("scenarios")?.elements()) ?? [] {
            stubNodes += (try? scenario.child("stubs")?.elements()) ?? []
        }
        return stubNodes
    }
}
