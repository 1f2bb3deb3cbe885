import Foundation

/// Replaces secrets in requests, responses and whole transactions with a fixed placeholder before anything
/// is written or shown, keeping the structure intact.
///
/// ```
/// Authorization: Bearer eyJhbGciOi…      ─▶  Authorization: Bearer [redacted]
/// Set-Cookie: session=f00; Path=/; HttpOnly ─▶ Set-Cookie: session=[redacted]; Path=/; HttpOnly
/// /login?user=ann&token=abc              ─▶  /login?user=ann&token=%5Bredacted%5D
/// {"user":{"password":"hunter2"}}        ─▶  {"user":{"password":"[redacted]"}}
/// ```
///
/// A value is secret when a rule of its ``RedactionRule/Target`` matches its name and no exception does.
/// The default rules (``defaultRules``) cover credentials headers (`Authorization`, `Proxy-Authorization`,
/// API key and token headers), every cookie value, and query items and JSON or form fields with the usual
/// secret names (``defaultFieldNames``). JSON stays valid JSON (the placeholder is a string), a form stays a
/// form, cookies keep their names and attributes, and `Authorization` keeps its scheme, so reviews and replay
/// still see which secrets exist. Redacting twice gives the same result as redacting once, so a recorded
/// value and a fresh one compare equal after redaction.
///
/// **Echoes.** A secret redacted by name is also removed where it appears again in the same request or
/// transaction — a server echoing the request (`"headers": {"Authorization": "Bearer …"}`, the raw body in a
/// string), a token repeated in another header — inside JSON strings (the JSON stays valid) or anywhere in
/// other text, also percent-encoded or with `/` escaped as `\/`. Values shorter than ``minimumEchoLength``
/// characters (a cookie `1`) are not searched for. These replacements are reported as
/// ``RedactionLocation/Kind/echo``.
///
/// ```swift
/// let redactor = Redactor.default
///     .adding([.header("X-Session")])
///     .excepting([.cookie("theme")])
/// let result = redactor.redact(transaction: transaction)
/// print(result.locations.map(\.description))   // ["request header Authorization", "response cookie …"]
/// ```
public struct Redactor: Sendable, Hashable {
    /// What replaces every secret value: `[redacted]`.
    public static let placeholder = "[redacted]"

    /// Query item and body field names treated as secret by default (case-insensitive).
    public static let defaultFieldNames = [
        "password", "passwd", "secret", "token", "access_token", "refresh_token", "api_key", "apikey",
        "client_secret", "session", "sessionid", "otp",
    ]

    /// The default rules: the headers `Authorization`, `Proxy-Authorization`, `Cookie`, `Set-Cookie`,
    /// `*api-key*`, `*api_key*`, `x-auth-token` and `*token*`, and ``defaultFieldNames`` as query items and
    /// body fields.
    public static let defaultRules: [RedactionRule] =
        [
            "Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie", "*api-key*", "*api_key*", "x-auth-token",
            "*token*",
        ]
        .map { RedactionRule.header(RedactionPattern(stringLiteral: $0)) }
        + defaultFieldNames.flatMap { RedactionRule.parameter(.exact($0)) }

    /// A redactor with the ``defaultRules`` and no exceptions.
    public static let `default` = Redactor()

    /// A redactor that changes nothing.
    public static let disabled = Redactor(rules: [])

    /// The rules: a value is secret when one of them matches its name.
    public var rules: [RedactionRule]
    /// The exceptions: a value is kept when one of them matches its name, even if a rule matches too.
    public var exceptions: [RedactionRule]

    /// Creates a redactor.
    ///
    /// - Parameters:
    ///   - rules: What counts as secret; ``defaultRules`` by default.
    ///   - exceptions: What is kept although a rule matches it; none by default.
    public init(rules: [RedactionRule] = Redactor.defaultRules, exceptions: [RedactionRule] = []) {
        self.rules = rules
        self.exceptions = exceptions
    }

    /// A copy with more rules.
    ///
    /// - Parameter rules: The rules to add.
    /// - Returns: The new redactor.
    public func adding(_ rules: [RedactionRule]) -> Redactor {
        Redactor(rules: self.rules + rules, exceptions: exceptions)
    }

    /// A copy with more exceptions.
    ///
    /// - Parameter exceptions: The exceptions to add.
    /// - Returns: The new redactor.
    public func excepting(_ exceptions: [RedactionRule]) -> Redactor {
        Redactor(rules: rules, exceptions: self.exceptions + exceptions)
    }

    /// Whether a name at a target is secret: a rule matches it and no exception does.
    ///
    /// - Parameters:
    ///   - name: The header, cookie, query item or body field name.
    ///   - target: Where the name appears.
    /// - Returns: `true` when the value under that name is replaced.
    /// - Complexity: O(number of rules and exceptions).
    public func isSecret(_ name: String, at target: RedactionRule.Target) -> Bool {
        matchesRule(name, at: target) && !isExcepted(name, at: target)
    }

    func matchesRule(_ name: String, at target: RedactionRule.Target) -> Bool {
        rules.contains { $0.target == target && $0.pattern.matches(name) }
    }

    func isExcepted(_ name: String, at target: RedactionRule.Target) -> Bool {
        exceptions.contains { $0.target == target && $0.pattern.matches(name) }
    }
}
