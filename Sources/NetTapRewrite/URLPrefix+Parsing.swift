import Foundation

extension URLPrefix {
    /// Reads a prefix such as `https://api.example.com/v1` or `http://127.0.0.1:8080/staging/`.
    ///
    /// - Parameters:
    ///   - text: The prefix: `http` or `https`, `://`, a host, an optional `:port` and an optional path; no user,
    ///     query or fragment.
    ///   - allowsWildcardHost: Whether the host may be `*.example.com` (a rule's `from`, not its `to`).
    /// - Throws: ``RewriteRuleError`` naming the text and what is wrong.
    init(parsing text: String, allowsWildcardHost: Bool) throws(RewriteRuleError) {
        func failure(_ message: String, at offset: Int? = nil) -> RewriteRuleError {
            RewriteRuleError(kind: .mapRemoteURL, input: text, message: message, offset: offset)
        }
        guard let separator = text.range(of: "://") else {
            throw failure("missing scheme; write \"https://\(text)\" or \"http://\(text)\"")
        }
        let scheme = text[..<separator.lowerBound].lowercased()
        guard scheme == "http" || scheme == "https" else {
            throw failure("the scheme must be http or https, found \"\(scheme)\"", at: 0)
        }
        let rest = text[separator.upperBound...]
        if let bad = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) {
            let what = rest[bad] == "?" ? "query" : "fragment"
            throw failure(
                "a map remote URL has no \(what): the request's own query is kept",
                at: text.distance(from: text.startIndex, to: bad)
            )
        }
        let authorityEnd = rest.firstIndex(of: "/") ?? rest.endIndex
        let (host, port) = try Self.authority(
            String(rest[..<authorityEnd]),
            allowsWildcardHost: allowsWildcardHost,
            failure: { failure($0) }
        )
        let written = String(rest[authorityEnd...])
        let path = Self.percentEncoded(written)
        let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
        self.init(
            scheme: scheme,
            host: host,
            port: port,
            path: trimmed,
            requiresSubpath: path.hasSuffix("/") && !trimmed.isEmpty
        )
    }

    /// The host and port of an authority: `host`, `host:port`, `[v6]` or `[v6]:port`.
    private static func authority(
        _ text: String,
        allowsWildcardHost: Bool,
        failure: (String) -> RewriteRuleError
    ) throws(RewriteRuleError) -> (host: String, port: Int?) {
        guard !text.contains("@") else {
            throw failure("a map remote URL has no user name or password")
        }
        var hostText = text
        var portText: Substring?
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            hostText = String(text[...close])
            let after = text[text.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw failure("unexpected \"\(after)\" after the IPv6 address") }
                portText = after.dropFirst()
            }
        } else if let colon = text.lastIndex(of: ":") {
            hostText = String(text[..<colon])
            portText = text[text.index(after: colon)...]
        }
        let host = try checkedHost(hostText.lowercased(), allowsWildcard: allowsWildcardHost, failure: failure)
        guard let portText else { return (host, nil) }
        guard let port = Int(portText), (1...65_535).contains(port), portText.allSatisfy(\.isASCII) else {
            throw failure("the port must be a number from 1 to 65535, found \"\(portText)\"")
        }
        return (host, port)
    }

    /// The host when it is one: letters, digits, `-` and `.`, an IPv6 address in brackets, or (when allowed) a
    /// `*.` wildcard before such a host.
    private static func checkedHost(
        _ host: String,
        allowsWildcard: Bool,
        failure: (String) -> RewriteRuleError
    ) throws(RewriteRuleError) -> String {
        guard !host.isEmpty else { throw failure("missing host") }
        if host.hasPrefix("[") {
            let inner = host.dropFirst().dropLast()
            guard host.hasSuffix("]"), !inner.isEmpty, inner.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." })
            else { throw failure("invalid IPv6 address \"\(host)\"") }
            return host
        }
        var name = Substring(host)
        if host.hasPrefix("*.") {
            guard allowsWildcard else {
                throw failure("the host to map to must be a host name, not a wildcard")
            }
            name = name.dropFirst(2)
        }
        let allowed = name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") }
        guard !name.isEmpty, allowed, !name.hasPrefix("."), !name.contains("..") else {
            let hint = allowsWildcard ? " (a wildcard is written \"*.example.com\")" : ""
            throw failure("invalid host \"\(host)\": use letters, digits, \"-\" and \".\"\(hint)")
        }
        return host
    }

    /// The path with every character a URL path cannot hold percent-encoded; `%` escapes stay as written.
    static func percentEncoded(_ path: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.insert("%")
        return path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path
    }
}
