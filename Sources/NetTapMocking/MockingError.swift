import Foundation

/// Misuse of the mocking API: a name that does not exist, or an exchange that cannot become a stub.
public enum MockingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No scenario has this name.
    case unknownScenario(String)
    /// No stub has this name (in the given scenario, `nil` for every scenario and the base stubs).
    case unknownStub(String, scenario: String?)
    /// The stub has no alternative of this name.
    case unknownAlternative(String, stub: String, available: [String])
    /// A captured exchange (`METHOD URL`) cannot become a stub, for the reason given.
    case notSavable(String, reason: String)

    /// A one-line description naming what was asked for.
    public var description: String {
        switch self {
        case .unknownScenario(let name):
            "no scenario named \"\(name)\""
        case .unknownStub(let name, let scenario?):
            "no stub named \"\(name)\" in scenario \"\(scenario)\""
        case .unknownStub(let name, nil):
            "no stub named \"\(name)\""
        case .unknownAlternative(let name, let stub, let available):
            "stub \"\(stub)\" has no alternative \"\(name)\"; it has "
                + (available.isEmpty ? "none" : available.map { "\"\($0)\"" }.joined(separator: ", "))
        case .notSavable(let target, let reason):
            "cannot save \(target) as a stub: \(reason)"
        }
    }
}

extension MockingError: LocalizedError {
    /// The same text as `description`, so `localizedDescription` (what apps and test reports show) names
    /// the input and the place too.
    public var errorDescription: String? { description }
}
