extension RequestMatcher {
    /// Matches a URL pattern: scheme, host, port and path glob in one string.
    ///
    /// `https://*.example.com/users/*/posts` is `.scheme("https") && .host("*.example.com") &&
    /// .pathGlob("/users/*/posts")`, and `http://localhost:1000/api/**` adds `.port(1000)`. A `*` scheme or
    /// host matches any; a port is only tested when given (`*` for any); no path, or `/**`, matches any path.
    /// The pattern cannot hold a query or fragment: add ``query(_:exactly:)``.
    ///
    /// Specificity: the sum of its parts (scheme 1, host 10 or 5 for `*.` wildcards, port 1, path glob 10 plus
    /// its literal segments). Configuration: `{"url": "https://*.example.com/api/**"}`.
    /// - Parameter pattern: The pattern, `scheme://host[:port][/path-glob]`.
    /// - Returns: The matcher.
    /// - Throws: ``MatcherError`` of kind ``MatcherError/PatternKind/urlPattern`` naming the pattern and the
    ///   fault (missing scheme, empty host, misplaced `*`, bad port, a query or fragment).
    public static func url(_ pattern: String) throws -> RequestMatcher {
        let parsed = try URLPattern(parsing: pattern)
        var parts: [RequestMatcher] = []
        if let scheme = parsed.scheme { parts.append(.scheme(scheme)) }
        if let host = parsed.host { parts.append(.host(host)) }
        if let port = parsed.port { parts.append(.port(port)) }
        if let path = parsed.path { parts.append(.pathGlob(path)) }
        let combined = parts.dropFirst().reduce(parts.first ?? .any, &&)
        return RequestMatcher(
            description: "url matches \(pattern)",
            specificity: combined.specificity,
            configuration: ["url": .string(pattern)],
            evaluate: { combined.explain($0) },
            distance: { combined.distance(to: $0) }
        )
    }
}
