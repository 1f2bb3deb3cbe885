extension Stub {
    /// A copy in a state machine: it applies only while `machine` is in `requires`, and answering moves the
    /// machine to `moveTo` (see ``StubState``).
    ///
    /// ```swift
    /// let add = Stub("add", matching: .method("POST") && .path("/cart"), response: .status(201))
    ///     .withState(machine: "cart", requires: StubState.started, moveTo: "item added")
    /// ```
    /// - Parameters:
    ///   - machine: The state machine's name.
    ///   - requires: The state the stub needs; `nil` for any.
    ///   - moveTo: The state the machine moves to when the stub answers; `nil` to leave it.
    /// - Returns: The changed stub.
    public func withState(machine: String, requires: String? = nil, moveTo: String? = nil) -> Stub {
        var copy = self
        copy.state = StubState(machine: machine, requires: requires, moveTo: moveTo)
        return copy
    }
}
