extension AppliedConfiguration: CustomStringConvertible {
    /// One line: the handlers it placed, by name, and what it opened (store, cassette, cache, inspector).
    public var description: String {
        var parts = ["handlers [\(handlers.map(\.name).joined(separator: ", "))]"]
        if let mocks { parts.append("\(mocks.stubs.count) base stubs, \(mocks.scenarios.count) scenarios") }
        if store != nil { parts.append("store") }
        if cassette != nil { parts.append("cassette") }
        if cache != nil { parts.append("cache") }
        if inspector != nil { parts.append("inspector") }
        return "AppliedConfiguration(\(parts.joined(separator: ", ")))"
    }
}
