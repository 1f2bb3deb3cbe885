import Foundation

/// A kind of bearer token or key recognised by its shape, as the `token.pattern` rule looks for it.
///
/// Every expression is linear: character classes are separated by characters outside them, quantifiers are
/// bounded where classes meet, and no group repeats an optional part, so a 1 MiB body cannot make the
/// matcher backtrack catastrophically. A match must not continue a longer run of the same alphabet (checked
/// with look-around), so a key inside a longer identifier is not reported.
struct TokenPattern: Sendable {
    /// The kind written to a finding's `kind` detail, such as `jwt`.
    let kind: String
    /// The name a person reads, such as `JSON Web Token`.
    let title: String
    /// The title with its indefinite article, as messages use it: `a JSON Web Token`, `an AWS access key ID`.
    let titleWithArticle: String
    /// A literal every match contains, checked before running the expression.
    let marker: String
    let expression: NSRegularExpression?

    init(kind: String, title: String, article: String = "a", marker: String, pattern: String) {
        self.kind = kind
        self.title = title
        self.titleWithArticle = article + " " + title
        self.marker = marker
        self.expression = try? NSRegularExpression(pattern: pattern)
    }

    /// Whether `text` holds a token of this kind.
    func occurs(in text: String) -> Bool {
        guard text.contains(marker), let expression else { return false }
        return expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    /// The patterns the `token.pattern` rule looks for, in the order findings are reported.
    static let all: [TokenPattern] = [jwt, awsAccessKeyID, googleAPIKey, slackToken, privateKey]

    /// The kinds found in `text`, in the order of ``all``.
    static func kinds(in text: String) -> [TokenPattern] {
        all.filter { $0.occurs(in: text) }
    }

    /// A JSON Web Token in compact serialization (RFC 7519 §3, RFC 7515 §7.1): three base64url segments joined by
    /// dots, the first two being JSON objects, so both start with `eyJ` (`{"` in base64url).
    ///
    /// The signature segment may be empty (an unsecured JWT, RFC 7519 §6). Follows the gitleaks rule `jwt`
    /// (gitleaks/config/gitleaks.toml), which also anchors on the `ey` prefix of both JSON segments; two segments
    /// without the second dot are not a JWT.
    static let jwt = TokenPattern(
        kind: "jwt",
        title: "JSON Web Token",
        marker: "eyJ",
        pattern: #"(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*(?![A-Za-z0-9_.-])"#
    )

    /// An AWS access key ID: `AKIA` (long-term) or `ASIA` (temporary, from STS) and 16 upper-case letters or digits.
    ///
    /// Source: AWS IAM User Guide, "Understanding unique ID prefixes" (identifiers reference); the gitleaks rule
    /// `aws-access-token` and truffleHog's AWS detector use the same prefixes and length.
    static let awsAccessKeyID = TokenPattern(
        kind: "aws-access-key-id",
        title: "AWS access key ID",
        article: "an",
        marker: "A",
        pattern: #"(?<![A-Z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Z0-9])"#
    )

    /// A Google API key: `AIza` and 35 characters from `[0-9A-Za-z_-]` (39 in all).
    ///
    /// Source: Google Cloud documentation, "Manage API keys" (keys are 39-character strings starting with
    /// `AIza`); the gitleaks rule `gcp-api-key` uses `AIza[\w-]{35}`.
    static let googleAPIKey = TokenPattern(
        kind: "google-api-key",
        title: "Google API key",
        marker: "AIza",
        pattern: #"(?<![0-9A-Za-z_-])AIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])"#
    )

    /// A Slack token: `xoxb-` (bot), `xoxp-` (user), `xoxa-` (workspace app), `xoxr-` (refresh) or `xoxs-`
    /// (session), then at least two dash-separated parts.
    ///
    /// Source: Slack API documentation, "Token types" (the `xoxb`, `xoxp`, `xoxa`, `xoxr` prefixes); the gitleaks
    /// rules `slack-bot-token`, `slack-user-token` and `slack-legacy-token` and truffleHog's Slack detector
    /// match the same prefixes followed by numeric and alphanumeric parts. `xoxb-123` alone is not reported.
    static let slackToken = TokenPattern(
        kind: "slack-token",
        title: "Slack token",
        marker: "xox",
        pattern: #"(?<![0-9A-Za-z])xox[abprs]-[0-9A-Za-z]{1,64}-[0-9A-Za-z-]{8,256}"#
    )

    /// A PEM private key block header: `-----BEGIN PRIVATE KEY-----`, `-----BEGIN RSA PRIVATE KEY-----`,
    /// `-----BEGIN OPENSSH PRIVATE KEY-----`, `-----BEGIN ENCRYPTED PRIVATE KEY-----`, ….
    ///
    /// Source: RFC 7468 §10 and §11 (PKCS #8 labels `PRIVATE KEY` and `ENCRYPTED PRIVATE KEY`) and the legacy
    /// OpenSSL and OpenSSH labels; the gitleaks rule `private-key` matches `-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE
    /// KEY( BLOCK)?-----`. `-----BEGIN PUBLIC KEY-----` is not reported.
    static let privateKey = TokenPattern(
        kind: "private-key",
        title: "private key",
        marker: "-----BEGIN",
        pattern: #"-----BEGIN[ A-Z0-9_-]{0,40}PRIVATE KEY(?: BLOCK)?-----"#
    )
}
