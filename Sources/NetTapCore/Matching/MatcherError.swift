import Foundation

/// A pattern given to a ``RequestMatcher`` factory that cannot be used: it names the pattern and what is
/// wrong with it.
///
/// ```
/// invalid regular expression "^/users/(": missing ")" to close "(" at character 10
/// invalid URL pattern "example.com/api": missing scheme; write "https://example.com/api" or "*://…"
/// ```
public struct MatcherError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The kinds of pattern a matcher factory reads.
    public enum PatternKind: String, Sendable, Equatable {
        /// An ICU regular expression, as `NSRegularExpression` reads it (``RequestMatcher/pathRegex(_:)``).
        case regularExpression = "regular expression"
        /// A URL pattern such as `https://*.example.com/api/**` (``RequestMatcher/url(_:)``).
        case urlPattern = "URL pattern"
        /// A host pattern of an allow list or deny list, such as `*.example.com` (``HostPattern``).
        case hostPattern = "host pattern"
    }

    /// The kind of pattern.
    public var kind: PatternKind
    /// The pattern as given.
    public var pattern: String
    /// What is wrong, for example `missing ")" to close "(" at character 10`.
    public var message: String
    /// The 0-based offset in characters of the fault in ``pattern``, when known.
    public var offset: Int?

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - kind: The kind of pattern.
    ///   - pattern: The pattern as given.
    ///   - message: What is wrong; it names the 1-based character position when there is one.
    ///   - offset: The 0-based character offset of the fault, when known.
    public init(kind: PatternKind, pattern: String, message: String, offset: Int? = nil) {
        self.kind = kind
        self.pattern = pattern
        self.message = message
        self.offset = offset
    }

    /// `invalid <kind> "<pattern>": <message>`.
    public var description: String {
        "invalid \(kind.rawValue) \"\(pattern)\": \(message)"
    }
}

extension MatcherError: LocalizedError {
    /// The same text as `description`, so `localizedDescription` (what apps and test reports show) names
    /// the input and the place too.
    public var errorDescription: String? { description }
}
