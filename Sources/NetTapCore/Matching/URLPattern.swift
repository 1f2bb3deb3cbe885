/// The parts of a URL pattern such as `https://*.example.com:8443/api/**`.
///
/// `nil` parts match anything: a `*` scheme, a `*` host, no port (or `*`), and no path or `/**`.
struct URLPattern: Sendable, Equatable {
    /// The scheme, lowercased, or `nil` for `*`.
    var scheme: String?
    /// The host or `*.`-wildcard, or `nil` for `*`.
    var host: String?
    /// The port, or `nil` when not given (or `*`).
    var port: Int?
    /// The path glob, or `nil` for any path.
    var path: String?

    /// Parses a pattern.
    ///
    /// - Throws: ``MatcherError`` naming the pattern and the fault.
    init(parsing pattern: String) throws(MatcherError) {
        func failure(_ message: String) -> MatcherError {
            MatcherError(kind: .urlPattern, pattern: pattern, message: message)
        }
        guard let separator = pattern.range(of: "://") else {
            throw failure("missing scheme; write \"https://\(pattern)\" or \"*://\(pattern)\"")
        }
        if pattern.contains("?") || pattern.contains("#") {
            throw failure("a query or fragment cannot be part of a URL pattern; match queries with \"query\"")
        }
        let scheme = pattern[..<separator.lowerBound].lowercased()
        let isSchemeValid =
            scheme == "*"
            || (scheme.first?.isLetter == true
                && scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
        guard isSchemeValid else { throw failure("invalid scheme \"\(scheme)\"") }
        let rest = pattern[separator.upperBound...]
        let authority = rest.prefix { $0 != "/" }
        let path = String(rest.dropFirst(authority.count))
        guard !authority.contains("@") else { throw failure("user names and passwords are not supported") }

        var host = String(authority)
        var portText: Substring?
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { throw failure("missing \"]\" after an IPv6 host") }
            let after = host[host.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw failure("unexpected \"\(after)\" after the host") }
                portText = after.dropFirst()
            }
            host = String(host[host.index(after: host.startIndex)..<close])
        } else if let colon = host.lastIndex(of: ":") {
            portText = host[host.index(after: colon)...]
            host = String(host[..<colon])
        }
        guard !host.isEmpty else { throw failure("missing host; write \"*\" for any host") }
        let wildcard = host.hasPrefix("*.") ? host.dropFirst(2) : Substring(host)
        guard host == "*" || !wildcard.contains("*") else {
            throw failure("\"*\" in a host must be the whole host or a leading \"*.\"")
        }
        if let portText, portText != "*" {
            guard let port = Int(portText), (1...65_535).contains(port) else {
                throw failure("invalid port \"\(portText)\"; expected 1…65535 or \"*\"")
            }
            self.port = port
        }
        self.scheme = scheme == "*" ? nil : scheme
        self.host = host == "*" ? nil : host.lowercased()
        self.path = path.isEmpty || path == "/**" ? nil : path
    }
}
