extension MockSet: CustomStringConvertible {
    /// One line: the base stubs and scenarios by name, and the active scenario.
    public var description: String {
        let stubs = stubs.map(\.name).joined(separator: ", ")
        let scenarios = scenarios.map { "\($0.name) (\($0.stubs.count))" }.joined(separator: ", ")
        let active = activeScenario.map { "\"\($0)\" active" } ?? "no scenario active"
        return "MockSet(stubs [\(stubs)], scenarios [\(scenarios)], \(active))"
    }
}
