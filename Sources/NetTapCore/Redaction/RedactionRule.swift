import Foundation

/// One kind of place a ``Redactor`` looks at, and the names there that count as secret.
///
/// ```swift
/// let rules: [RedactionRule] = [.header("X-Session"), .cookie("sid"), .queryItem("sig"), .bodyField("pin")]
/// ```
public struct RedactionRule: Sendable, Hashable, CustomStringConvertible {
    /// Where a rule applies.
    public enum Target: String, Sendable, Hashable, CaseIterable {
        /// A header field, by field name. For `Cookie` and `Set-Cookie` only the cookie values are replaced.
        case header
        /// A cookie in a `Cookie` or `Set-Cookie` header, by cookie name.
        case cookie
        /// A URL query item (also in `Location`, `Content-Location` and `Referer` header values), by name.
        case queryItem
        /// A JSON object member at any depth, or an `application/x-www-form-urlencoded` body field, by name.
        case bodyField
    }

    /// Where the rule applies.
    public var target: Target
    /// The names it covers.
    public var pattern: RedactionPattern

    /// Creates a rule.
    ///
    /// - Parameters:
    ///   - target: Where it applies.
    ///   - pattern: The names it covers.
    public init(_ target: Target, _ pattern: RedactionPattern) {
        self.target = target
        self.pattern = pattern
    }

    /// A rule for header fields.
    ///
    /// - Parameter pattern: The field names, for example `"*api-key*"`.
    /// - Returns: The rule.
    public static func header(_ pattern: RedactionPattern) -> RedactionRule { RedactionRule(.header, pattern) }

    /// A rule for cookies in `Cookie` and `Set-Cookie` headers.
    ///
    /// - Parameter pattern: The cookie names.
    /// - Returns: The rule.
    public static func cookie(_ pattern: RedactionPattern) -> RedactionRule { RedactionRule(.cookie, pattern) }

    /// A rule for URL query items.
    ///
    /// - Parameter pattern: The item names.
    /// - Returns: The rule.
    public static func queryItem(_ pattern: RedactionPattern) -> RedactionRule { RedactionRule(.queryItem, pattern) }

    /// A rule for JSON members and form fields in bodies.
    ///
    /// - Parameter pattern: The member or field names.
    /// - Returns: The rule.
    public static func bodyField(_ pattern: RedactionPattern) -> RedactionRule { RedactionRule(.bodyField, pattern) }

    /// Rules for a parameter name wherever parameters appear: query items and body fields.
    ///
    /// - Parameter pattern: The parameter names.
    /// - Returns: A query item rule and a body field rule.
    public static func parameter(_ pattern: RedactionPattern) -> [RedactionRule] {
        [.queryItem(pattern), .bodyField(pattern)]
    }

    /// `header wildcard "*token*"`.
    public var description: String { "\(target.rawValue) \(pattern)" }
}
