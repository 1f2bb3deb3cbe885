/// Where a stub stands in a state machine: the state it needs to answer, and the state it moves the machine to
/// when it answers (WireMock's scenario states).
///
/// A ``MockSet`` runs any number of state machines, each named by the stubs that use it and starting in
/// ``started`` (or the state its configuration gives). A stub with a state applies only while its machine is in
/// ``requires`` (any state when `nil`), and answering moves the machine to ``moveTo`` (unchanged when `nil`), in
/// the same step that picks the stub, so concurrent requests see one transition each.
///
/// ```swift
/// let empty = Stub("cart empty", matching: .method("GET") && .path("/cart"), response: .json(["items": []]))
///     .withState(machine: "cart", requires: StubState.started)
/// let add = Stub("add item", matching: .method("POST") && .path("/cart"), response: .status(201))
///     .withState(machine: "cart", moveTo: "item added")
/// let full = Stub("cart full", matching: .method("GET") && .path("/cart"), response: .json(["items": [1]]))
///     .withState(machine: "cart", requires: "item added")
/// ```
///
/// State machines are independent of a mock set's scenarios: a stub in a scenario needs its scenario active and
/// its machine's state; activating a scenario does not change any machine's state. The article “Mocks and mock
/// files” has the whole rule.
public struct StubState: Sendable, Hashable {
    /// The state every machine starts in unless configured otherwise: `Started`, as in WireMock.
    public static let started = "Started"

    /// The state machine's name, for example `cart`.
    public var machine: String
    /// The state the machine must be in for the stub to apply; `nil` for any state.
    public var requires: String?
    /// The state the machine moves to when the stub answers; `nil` to leave it.
    public var moveTo: String?

    /// Creates a stub's place in a state machine.
    ///
    /// - Parameters:
    ///   - machine: The machine's name.
    ///   - requires: The state the stub needs; `nil` for any.
    ///   - moveTo: The state answering moves the machine to; `nil` to leave it.
    public init(machine: String, requires: String? = nil, moveTo: String? = nil) {
        self.machine = machine
        self.requires = requires
        self.moveTo = moveTo
    }
}

extension StubState: CustomStringConvertible {
    /// `cart: requires "Started", moves to "item added"`.
    public var description: String {
        var parts: [String] = []
        if let requires { parts.append("requires \"\(requires)\"") }
        if let moveTo { parts.append("moves to \"\(moveTo)\"") }
        return "\(machine): " + (parts.isEmpty ? "any state" : parts.joined(separator: ", "))
    }
}
