import Foundation

/// One entry of a ``HostScope`` allow list or deny list: an exact host, a `*.` wildcard or a regular expression.
///
/// | Written as                    | Matches                                   | Does not match                |
/// |-------------------------------|-------------------------------------------|-------------------------------|
/// | `api.example.com`             | `api.example.com`, `API.Example.com`      | `v2.api.example.com`          |
/// | `*.example.com`               | `api.example.com`, `a.b.example.com`      | `example.com` itself          |
/// | `regex:^api[0-9]+\.example\.com$` | `api1.example.com`                    | `api.example.com`             |
/// | `127.0.0.1`, `::1` or `[::1]` | that IP literal                           | `localhost`                   |
///
/// Only the host is compared: never the scheme, port or path (`localhost` matches `http://localhost:8080/x`).
/// Hosts and patterns compare case-insensitively, without IPv6 brackets and without a final `.` (RFC 1034 §3.1
/// absolute names). A wildcard matches subdomains only, as ``RequestMatcher/host(_:)`` does; list
/// `example.com` and `*.example.com` for both. A regular expression is an ICU expression (as
/// `NSRegularExpression` reads it), matched case-insensitively against the *whole* host: `api` does not
/// match `api.example.com`; write `api\..*` for that.
public struct HostPattern: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// The prefix that marks a regular expression in the string form (``init(_:)``, `nettap.json`).
    public static let regexPrefix = "regex:"

    private enum Kind: Hashable {
        case exact(String)
        case subdomains(of: String)
        case regex(String)
    }

    private let kind: Kind
    private let expression: RegularExpressionHolder?

    /// The pattern in its string form, as ``init(_:)`` reads it: `api.example.com`, `*.example.com` or
    /// `regex:^api[0-9]+\.example\.com$`.
    public var description: String {
        switch kind {
        case .exact(let host): host
        case .subdomains(let domain): "*." + domain
        case .regex(let pattern): Self.regexPrefix + pattern
        }
    }

    /// Reads the string form: `regex:` followed by a regular expression, `*.` followed by a domain, or a host.
    ///
    /// ```swift
    /// let patterns = try ["tracker.example.com", "*.ads.example", "regex:^cdn[0-9]+\\.example\\.net$"]
    ///     .map(HostPattern.init)
    /// ```
    /// - Parameter text: The pattern.
    /// - Throws: ``MatcherError``: of kind ``MatcherError/PatternKind/regularExpression`` naming the pattern and
    ///   what is wrong with it (with its character position when it can be found), or of kind
    ///   ``MatcherError/PatternKind/hostPattern`` for an empty host, a `*` anywhere but a leading `*.`, a port,
    ///   a path or white space.
    public init(_ text: String) throws {
        if text.hasPrefix(Self.regexPrefix) {
            self = try .regex(String(text.dropFirst(Self.regexPrefix.count)))
        } else if text.hasPrefix("*.") {
            self = try .subdomains(of: String(text.dropFirst(2)), written: text)
        } else {
            self = try .exact(text)
        }
    }

    private init(kind: Kind, expression: RegularExpressionHolder? = nil) {
        self.kind = kind
        self.expression = expression
    }

    /// An exact host name or IP literal, compared case-insensitively.
    ///
    /// - Parameter host: The host, such as `api.example.com`, `127.0.0.1` or `[::1]`.
    /// - Returns: The pattern.
    /// - Throws: ``MatcherError`` of kind ``MatcherError/PatternKind/hostPattern`` when `host` is empty or holds
    ///   a `*`, a port, a path or white space.
    public static func exact(_ host: String) throws -> HostPattern {
        HostPattern(kind: .exact(try validatedHost(host, written: host)))
    }

    /// Every subdomain of `domain`, at any depth, but not `domain` itself (`*.example.com` in string form).
    ///
    /// - Parameter domain: The domain without the `*.`, such as `example.com`.
    /// - Returns: The pattern.
    /// - Throws: ``MatcherError`` of kind ``MatcherError/PatternKind/hostPattern`` when `domain` is empty or holds
    ///   a `*`, a port, a path or white space.
    public static func subdomains(of domain: String) throws -> HostPattern {
        try subdomains(of: domain, written: "*." + domain)
    }

    private static func subdomains(of domain: String, written: String) throws -> HostPattern {
        HostPattern(kind: .subdomains(of: try validatedHost(domain, written: written)))
    }

    /// A regular expression that must match the whole host, case-insensitively.
    ///
    /// Anchoring is implied: `api[0-9]+\.example\.com` and `^api[0-9]+\.example\.com$` mean the same.
    /// - Parameter pattern: An ICU regular expression, as `NSRegularExpression` reads it.
    /// - Returns: The pattern.
    /// - Throws: ``MatcherError`` of kind ``MatcherError/PatternKind/regularExpression`` naming the pattern and
    ///   what is wrong with it, with its character position when it can be found.
    public static func regex(_ pattern: String) throws -> HostPattern {
        let fail = { () -> MatcherError in
            let diagnosis = RegularExpressionDiagnosis.diagnose(pattern)
            return MatcherError(
                kind: .regularExpression,
                pattern: pattern,
                message: diagnosis.message,
                offset: diagnosis.offset
            )
        }
        guard !pattern.isEmpty else {
            throw MatcherError(kind: .regularExpression, pattern: pattern, message: "the pattern is empty")
        }
        // Compiled alone first, so a stray ")" is not hidden by the anchoring group.
        guard (try? NSRegularExpression(pattern: pattern)) != nil,
            let anchored = try? NSRegularExpression(pattern: "^(?:\(pattern))$", options: [.caseInsensitive])
        else {
            throw fail()
        }
        return HostPattern(kind: .regex(pattern), expression: RegularExpressionHolder(expression: anchored))
    }

    /// Whether the pattern matches a host.
    ///
    /// - Parameter host: A host as in a URL (`URL.host`); case, IPv6 brackets and a final `.` do not matter.
    /// - Returns: `true` when the host matches.
    /// - Complexity: O(*n*) in the host's length for exact hosts and wildcards; that of the regular expression
    ///   otherwise.
    public func matches(host: String) -> Bool {
        matches(normalizedHost: Self.normalized(host))
    }

    /// ``matches(host:)`` for a host already passed through ``normalized(_:)``.
    func matches(normalizedHost host: String) -> Bool {
        switch kind {
        case .exact(let expected):
            return host == expected
        case .subdomains(let domain):
            return host.count > domain.count + 1 && host.hasSuffix("." + domain)
        case .regex:
            guard let expression = expression?.expression else { return false }
            return expression.firstMatch(in: host, range: NSRange(host.startIndex..., in: host)) != nil
        }
    }

    /// Two patterns are equal when their string forms are.
    ///
    /// - Parameters:
    ///   - lhs: One pattern.
    ///   - rhs: The other.
    /// - Returns: Whether they are the same pattern.
    public static func == (lhs: HostPattern, rhs: HostPattern) -> Bool {
        lhs.kind == rhs.kind
    }

    /// Hashes the string form.
    ///
    /// - Parameter hasher: The hasher.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
    }

    /// A host as patterns compare it: lowercased, without IPv6 brackets and without one final `.`.
    static func normalized(_ host: String) -> String {
        var text = Substring(host.lowercased())
        if text.hasPrefix("["), text.hasSuffix("]"), text.count >= 2 { text = text.dropFirst().dropLast() }
        if text.hasSuffix("."), text.count > 1 { text = text.dropLast() }
        return String(text)
    }

    private static func validatedHost(_ host: String, written: String) throws -> String {
        let fail = { (message: String) in MatcherError(kind: .hostPattern, pattern: written, message: message) }
        let text = normalized(host)
        if text.isEmpty { throw fail("the host is empty") }
        if let index = written.firstIndex(where: { $0.isWhitespace }) {
            throw fail("white space at character \(written.distance(from: written.startIndex, to: index) + 1)")
        }
        if written.hasPrefix("*.") ? written.dropFirst(2).contains("*") : written.contains("*") {
            throw fail("\"*\" is allowed only as a leading \"*.\" (subdomains); use \"regex:\" for more")
        }
        if text.contains("/") { throw fail("a host pattern names a host only, without scheme or path") }
        let colons = text.filter { $0 == ":" }.count
        if colons == 0, text.split(separator: ".", omittingEmptySubsequences: false).contains(where: \.isEmpty) {
            throw fail("a host name has no empty label (nothing between two dots, or a leading dot)")
        }
        if colons == 1 {
            throw fail("a host pattern names a host only; the port is not compared (write it without \":port\")")
        }
        return text
    }
}

/// Carries a compiled regular expression: `NSRegularExpression` is immutable and documented as safe to use from
/// several threads.
private struct RegularExpressionHolder: @unchecked Sendable {
    let expression: NSRegularExpression
}
