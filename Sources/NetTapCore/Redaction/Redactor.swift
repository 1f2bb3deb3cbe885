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
/// **Tokens by shape.** With ``redactsTokens`` (on by default), values shaped like a known credential — a JSON
/// Web Token, an AWS access key ID, a Google API key, a Slack token, a private key block (the shapes the audit's
/// `token.pattern` rule reports) — are replaced wherever they appear, whatever their name: `?key=AKIA…`, a
/// `X-Debug` header, a JSON string, a log line in a text body. These are reported as
/// ``RedactionLocation/Kind/token``.
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

    /// Query item and body field names treated as secret by default (case-insensitive, so `Password` and
    /// `accessToken` are covered; the spellings with `-` are listed too).
    public static let defaultFieldNames = [
        "password", "passwd", "secret", "token", "access_token", "accesstoken", "access-token", "refresh_token",
        "refreshtoken", "refresh-token", "id_token", "idtoken", "api_key", "apikey", "api-key", "client_secret",
        "clientsecret", "client-secret", "session", "sessionid", "session_id", "session-id", "otp",
    ]

    /// Wildcards for query item and body field names treated as secret by default, besides
    /// ``defaultFieldNames``: any name containing `password`, `passwd` or `secret` (`new_password`,
    /// `aws_secret_access_key`), ending in `token` (`csrf_token`, `authToken`; not `token_type`), or containing
    /// an API key spelling.
    public static let defaultFieldPatterns: [RedactionPattern] = [
        "*password*", "*passwd*", "*secret*", "*token", "*api_key*", "*apikey*", "*api-key*",
    ]

    /// Header field names treated as secret by default (case-insensitive; `*` is a wildcard).
    public static let defaultHeaderPatterns: [RedactionPattern] = [
        "Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie", "*api-key*", "*api_key*", "*apikey*",
        "x-auth-token", "*token*", "*secret*", "*password*",
    ]

    /// The default rules: the headers of ``defaultHeaderPatterns`` (`Authorization`, `Proxy-Authorization`,
    /// `Cookie`, `Set-Cookie`, `*api-key*`, `*api_key*`, `*apikey*`, `x-auth-token`, `*token*`, `*secret*`,
    /// `*password*`), and ``defaultFieldNames`` and ``defaultFieldPatterns`` as query items and body fields.
    public static let defaultRules: [RedactionRule] =
        defaultHeaderPatterns.map { RedactionRule.header($0) }
        + defaultFieldNames.flatMap { RedactionRule.parameter(.exact($0)) }
        + defaultFieldPatterns.flatMap { RedactionRule.parameter($0) }

    /// A redactor with the ``defaultRules`` and no exceptions.
    public static let `default` = Redactor()

    /// A redactor that changes nothing.
    public static let disabled = Redactor(rules: [], redactsTokens: false)

    /// The rules: a value is secret when one of them matches its name.
    public var rules: [RedactionRule] {
        didSet { ruleIndex = RedactionRuleIndex(rules) }
    }
    /// The exceptions: a value is kept when one of them matches its name, even if a rule matches too.
    public var exceptions: [RedactionRule] {
        didSet { exceptionIndex = RedactionRuleIndex(exceptions) }
    }
    /// ``rules`` arranged for lookup.
    private(set) var ruleIndex: RedactionRuleIndex
    /// ``exceptions`` arranged for lookup.
    private var exceptionIndex: RedactionRuleIndex
    /// Whether values shaped like known tokens and keys are replaced wherever they appear (see "Tokens by
    /// shape" above); exceptions do not apply to them.
    public var redactsTokens: Bool

    /// Creates a redactor.
    ///
    /// - Parameters:
    ///   - rules: What counts as secret; ``defaultRules`` by default.
    ///   - exceptions: What is kept although a rule matches it; none by default.
    ///   - redactsTokens: Whether token-shaped values are replaced wherever they appear; `true` by default.
    public init(
        rules: [RedactionRule] = Redactor.defaultRules,
        exceptions: [RedactionRule] = [],
        redactsTokens: Bool = true
    ) {
        self.rules = rules
        self.exceptions = exceptions
        self.redactsTokens = redactsTokens
        self.ruleIndex = RedactionRuleIndex(rules)
        self.exceptionIndex = RedactionRuleIndex(exceptions)
    }

    /// Compares rules, exceptions and ``redactsTokens``.
    ///
    /// - Parameters:
    ///   - lhs: One redactor.
    ///   - rhs: Another redactor.
    /// - Returns: Whether both replace the same values.
    public static func == (lhs: Redactor, rhs: Redactor) -> Bool {
        lhs.rules == rhs.rules && lhs.exceptions == rhs.exceptions && lhs.redactsTokens == rhs.redactsTokens
    }

    /// Hashes rules, exceptions and ``redactsTokens``.
    ///
    /// - Parameter hasher: The hasher.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(rules)
        hasher.combine(exceptions)
        hasher.combine(redactsTokens)
    }

    /// A copy with more rules.
    ///
    /// - Parameter rules: The rules to add.
    /// - Returns: The new redactor.
    public func adding(_ rules: [RedactionRule]) -> Redactor {
        Redactor(rules: self.rules + rules, exceptions: exceptions, redactsTokens: redactsTokens)
    }

    /// A copy with more exceptions.
    ///
    /// - Parameter exceptions: The exceptions to add.
    /// - Returns: The new redactor.
    public func excepting(_ exceptions: [RedactionRule]) -> Redactor {
        Redactor(rules: rules, exceptions: self.exceptions + exceptions, redactsTokens: redactsTokens)
    }

    /// Whether a name at a target is secret: a rule matches it and no exception does.
    ///
    /// - Parameters:
    ///   - name: The header, cookie, query item or body field name.
    ///   - target: Where the name appears.
    /// - Returns: `true` when the value under that name is replaced.
    /// - Complexity: O(1) for exact names, plus O(wildcard and regex rules of the target).
    public func isSecret(_ name: String, at target: RedactionRule.Target) -> Bool {
        guard !ruleIndex.isEmpty else { return false }
        let lowercased = name.lowercased()
        return ruleIndex.matches(name, lowercased: lowercased, at: target)
            && !exceptionIndex.matches(name, lowercased: lowercased, at: target)
    }

    /// Whether this redactor can replace anything: `false` only without rules and without ``redactsTokens``
    /// (``disabled``).
    ///
    /// Output that records whether it was redacted (a HAR file's `creator.comment`, `"redaction": "off"`)
    /// says "off" for a redactor that is not enabled.
    public var isEnabled: Bool { !rules.isEmpty || redactsTokens }

    func matchesRule(_ name: String, at target: RedactionRule.Target) -> Bool {
        ruleIndex.matches(name, lowercased: name.lowercased(), at: target)
    }

    func isExcepted(_ name: String, at target: RedactionRule.Target) -> Bool {
        exceptionIndex.matches(name, lowercased: name.lowercased(), at: target)
    }
}
