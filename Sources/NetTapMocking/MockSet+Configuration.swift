import Foundation

extension MockSet {
    /// Creates a mock set from a configuration, with its active scenario active.
    ///
    /// - Parameter configuration: The stubs and scenarios, for example from ``MockConfiguration/load(contentsOf:)``.
    /// - Throws: ``MockingError/unknownScenario(_:available:)`` when the active scenario is not among the scenarios.
    public convenience init(configuration: MockConfiguration) throws {
        self.init(stubs: configuration.stubs, scenarios: configuration.scenarios)
        try activate(scenario: configuration.activeScenario)
        initialStates = configuration.states
        if let seed = configuration.randomSeed { randomSeed = seed }
    }

    /// The current stubs, scenarios and active scenario (including stubs added at runtime), to write back with
    /// ``MockConfiguration/write(to:)``.
    ///
    /// Alternatives selected at runtime are written as each stub's `active` alternative, and state machines not in
    /// ``StubState/started`` as `states` (the state they start in when the file is read again); the seed is written
    /// when it was set.
    public var configuration: MockConfiguration {
        let selected = { (stub: Stub, scenario: String?) -> Stub in
            guard case .alternatives(let alternatives, _) = stub.responses,
                let active = self.activeAlternative(for: stub.name, in: scenario)
            else { return stub }
            var copy = stub
            copy.responses = .alternatives(alternatives, active: active)
            return copy
        }
        return MockConfiguration(
            stubs: stubs.map { selected($0, nil) },
            scenarios: scenarios.map { scenario in
                Scenario(scenario.name, stubs: scenario.stubs.map { selected($0, scenario.name) })
            },
            activeScenario: activeScenario,
            states: states.filter { $0.value != StubState.started },
            randomSeed: storage.withLock { $0.isSeedSet ? $0.randomSeed : nil }
        )
    }
}
