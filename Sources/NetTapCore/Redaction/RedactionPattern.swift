import Foundation

/// A pattern for the names of header fields, cookies, query items and body fields that a ``Redactor``
/// treats as secret: an exact name, a wildcard or a regular expression, always compared case-insensitively.
///
/// ```swift
/// let exact: RedactionPattern = "password"          // a literal without `*` is exact
/// let wildcard: RedactionPattern = "*api-key*"      // `*` matches any run of characters
/// let regex = try RedactionPattern.regex("^x-(auth|csrf)-.*$")
/// wildcard.matches("X-Api-Key")                     // true
/// ```
public struct RedactionPattern: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// How the pattern's text is read.
    public enum Kind: String, Sendable, Hashable {
        /// The whole name, compared case-insensitively.
        case exact
        /// `*` matches any run of characters (also none); everything else is literal.
        case wildcard
        /// An `NSRegularExpression` pattern that must match the whole name.
        case regex
    }

    /// How ``source`` is read.
    public let kind: Kind
    /// The pattern as written.
    public let source: String
    private let expression: NSRegularExpression?

    private init(kind: Kind, source: String, expression: NSRegularExpression?) {
        self.kind = kind
        self.source = source
        self.expression = expression
    }

    /// A pattern matching exactly `name`, ignoring case.
    ///
    /// - Parameter name: The name.
    /// - Returns: The pattern.
    public static func exact(_ name: String) -> RedactionPattern {
        RedactionPattern(kind: .exact, source: name, expression: nil)
    }

    /// A wildcard pattern: `*` matches any run of characters, the rest is literal; case is ignored.
    ///
    /// - Parameter pattern: The pattern, for example `*token*`.
    /// - Returns: The pattern.
    public static func wildcard(_ pattern: String) -> RedactionPattern {
        let body = pattern.split(separator: "*", omittingEmptySubsequences: false)
            .map { NSRegularExpression.escapedPattern(for: String($0)) }
            .joined(separator: ".*")
        let expression = try? NSRegularExpression(pattern: "^" + body + "$", options: [.caseInsensitive])
        return RedactionPattern(kind: .wildcard, source: pattern, expression: expression)
    }

    /// A regular expression (`NSRegularExpression` syntax) that must match the whole name; case is ignored.
    ///
    /// - Parameter pattern: The expression, for example `^x-(auth|csrf)-token$`; anchors are optional.
    /// - Returns: The pattern.
    /// - Throws: ``RedactionPatternError`` naming the pattern when it does not compile.
    public static func regex(_ pattern: String) throws(RedactionPatternError) -> RedactionPattern {
        do {
            let expression = try NSRegularExpression(
                pattern: "^(?:" + pattern + ")$",
                options: [.caseInsensitive, .dotMatchesLineSeparators]
            )
            return RedactionPattern(kind: .regex, source: pattern, expression: expression)
        } catch {
            throw RedactionPatternError(pattern: pattern, message: "not a valid regular expression: \(error)")
        }
    }

    /// A wildcard pattern when the literal contains `*`, otherwise an exact name.
    ///
    /// - Parameter value: The literal.
    public init(stringLiteral value: String) {
        self = value.contains("*") ? .wildcard(value) : .exact(value)
    }

    /// Whether `name` matches, ignoring case.
    ///
    /// - Parameter name: A header, cookie, query item or body field name.
    /// - Returns: `true` when the pattern matches the whole name.
    public func matches(_ name: String) -> Bool {
        switch kind {
        case .exact:
            return name.caseInsensitiveCompare(source) == .orderedSame
        case .wildcard, .regex:
            guard let expression else { return false }
            let range = NSRange(name.startIndex..<name.endIndex, in: name)
            return expression.firstMatch(in: name, options: [], range: range) != nil
        }
    }

    /// `exact "name"`, `wildcard "*token*"` or `regex "…"`.
    public var description: String { "\(kind.rawValue) \"\(source)\"" }

    /// Compares kind and source.
    ///
    /// - Parameters:
    ///   - lhs: One pattern.
    ///   - rhs: Another pattern.
    /// - Returns: Whether both have the same kind and source.
    public static func == (lhs: RedactionPattern, rhs: RedactionPattern) -> Bool {
        lhs.kind == rhs.kind && lhs.source == rhs.source
    }

    /// Hashes kind and source.
    ///
    /// - Parameter hasher: The hasher.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(source)
    }
}

/// A ``RedactionPattern`` that cannot be used: it names the pattern and what is wrong.
public struct RedactionPatternError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The pattern as written.
    public var pattern: String
    /// What is wrong with it.
    public var message: String

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - pattern: The pattern.
    ///   - message: What is wrong.
    public init(pattern: String, message: String) {
        self.pattern = pattern
        self.message = message
    }

    /// `redaction pattern "(": not a valid regular expression: …`.
    public var description: String { "redaction pattern \"\(pattern)\": \(message)" }
}

extension RedactionPatternError: LocalizedError {
    /// The same text as `description`, so `localizedDescription` (what apps and test reports show) names
    /// the input and the place too.
    public var errorDescription: String? { description }
}
