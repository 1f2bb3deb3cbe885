import Foundation

/// A named set of stubs that describes one state of the backend, such as "happy path", "empty cart" or
/// "server down".
///
/// A ``MockSet`` holds several scenarios and one active at a time; the active scenario's stubs answer beside
/// the mock set's base stubs.
public struct Scenario: Sendable {
    /// The scenario's name, unique within a mock set.
    public var name: String
    /// The stubs, in the order they were added (later ones win ties).
    public var stubs: [Stub]

    /// Creates a scenario.
    ///
    /// - Parameters:
    ///   - name: The name.
    ///   - stubs: The stubs; names should be unique within the scenario.
    public init(_ name: String, stubs: [Stub]) {
        self.name = name
        self.stubs = stubs
    }
}
