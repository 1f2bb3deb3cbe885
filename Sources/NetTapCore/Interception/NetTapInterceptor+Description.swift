extension NetTapInterceptor: CustomStringConvertible {
    /// One line: on or off, the handlers by name, the transport, the capture log's size and the redactor.
    public var description: String {
        let names = handlers.map(\.name).joined(separator: ", ")
        return "NetTapInterceptor(\(isEnabled ? "on" : "off"), handlers [\(names)], transport \(type(of: transport)), "
            + "\(captureLog), \(redactor))"
    }
}
