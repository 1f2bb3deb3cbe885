extension Stub {
    /// A copy whose responses (the one response, every alternative or every step) are response templates.
    ///
    /// See ``StubResponse/templated(status:)``; templates are opt-in per stub, so a stub not templated answers
    /// `{{` literally.
    /// - Returns: The templated stub.
    /// - Throws: ``TemplateError`` for the first response with a template that cannot be compiled.
    public func templated() throws -> Stub {
        var copy = self
        switch responses {
        case .single(let response):
            copy.responses = .single(try response.templated(status: response.statusTemplate))
        case .alternatives(let alternatives, let active):
            let templated = try alternatives.map {
                Alternative($0.name, try $0.response.templated(status: $0.response.statusTemplate))
            }
            copy.responses = .alternatives(templated, active: active)
        case .sequence(let steps, let afterEnd):
            copy.responses = .sequence(
                try steps.map { try $0.templated(status: $0.statusTemplate) },
                afterEnd: afterEnd
            )
        }
        return copy
    }

    /// Whether any of the stub's responses is templated.
    public var isTemplated: Bool {
        switch responses {
        case .single(let response): response.isTemplated
        case .alternatives(let alternatives, _): alternatives.contains { $0.response.isTemplated }
        case .sequence(let steps, _): steps.contains(where: \.isTemplated)
        }
    }
}
