import Foundation
import NetTapCore

/// Misuse of the mocking API: a name that does not exist, or an exchange that cannot become a stub.
public enum MockingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No scenario has this name; `available` lists the scenarios there are.
    case unknownScenario(String, available: [String])
    /// No stub has this name (in the given scenario, `nil` for every scenario and the base stubs); `available`
    /// lists the stub names there.
    case unknownStub(String, scenario: String?, available: [String])
    /// The stub has no alternative of this name.
    case unknownAlternative(String, stub: String, available: [String])
    /// A captured exchange (`METHOD URL`) cannot become a stub, for the reason given.
    case notSavable(String, reason: String)
    /// No stub names this state machine; `available` lists the machines there are.
    case unknownStateMachine(String, available: [String])
    /// A state set at runtime that no stub of the machine requires or moves to, and that is a near miss of one that
    /// does (a typo); `available` lists the machine's known states.
    case unknownState(String, machine: String, available: [String])

    /// A one-line description naming what was asked for.
    public var description: String {
        switch self {
        case .unknownScenario(let name, let available):
            "no scenario named \"\(name)\"" + Self.choices(for: name, among: available, kind: "scenarios")
        case .unknownStub(let name, let scenario?, let available):
            "no stub named \"\(name)\" in scenario \"\(scenario)\""
                + Self.choices(for: name, among: available, kind: "stubs")
        case .unknownStub(let name, nil, let available):
            "no stub named \"\(name)\"" + Self.choices(for: name, among: available, kind: "stubs")
        case .unknownAlternative(let name, let stub, let available):
            "stub \"\(stub)\" has no alternative \"\(name)\"; it has "
                + (available.isEmpty ? "none" : available.map { "\"\($0)\"" }.joined(separator: ", "))
        case .notSavable(let target, let reason):
            "cannot save \(target) as a stub: \(reason)"
        case .unknownStateMachine(let name, let available):
            "no state machine named \"\(name)\"" + Self.choices(for: name, among: available, kind: "state machines")
        case .unknownState(let state, let machine, let available):
            "state machine \"\(machine)\" has no state \"\(state)\""
                + Self.choices(for: state, among: available, kind: "states")
        }
    }
}

extension MockingError {
    /// `; did you mean "checkout"?` for a near miss, else `; the scenarios are "a", "b"` (or `; there are no
    /// scenarios`).
    private static func choices(for name: String, among available: [String], kind: String) -> String {
        if let suggestion = ConfigNode.suggestion(for: name, among: Set(available)) {
            return "; did you mean \"\(suggestion)\"?"
        }
        guard !available.isEmpty else { return "; there are no \(kind)" }
        return "; the \(kind) are " + available.map { "\"\($0)\"" }.joined(separator: ", ")
    }
}

extension MockingError: LocalizedError {
    /// The same text as `description`, so `localizedDescription` (what apps and test reports show) names
    /// the input and the place too.
    public var errorDescription: String? { description }
}
