import Foundation

/// A kind of bearer token or key recognised by its shape: what the audit's `token.pattern` rule reports and
/// what a ``Redactor`` with ``Redactor/redactsTokens`` replaces wherever it appears.
///
/// Every expression is linear: character classes are separated by characters outside them, quantifiers are
/// bounded where classes meet, and no group repeats an optional part, so a 1 MiB body cannot make the
/// matcher backtrack catastrophically. A match must not continue a longer run of the same alphabet (checked
/// with look-around), so a key inside a longer identifier is not reported.
package struct TokenPattern: Sendable {
    /// The kind written to a finding's `kind` detail, such as `jwt`.
    package let kind: String
    /// The name a person reads, such as `JSON Web Token`.
    package let title: String
    /// The title with its indefinite article, as messages use it: `a JSON Web Token`, `an AWS access key ID`.
    package let titleWithArticle: String
    /// Literals one of which every match contains, checked (byte for byte) before running the expression.
    let markers: [[UInt8]]
    /// What is reported: the token's recognisable part.
    let expression: NSRegularExpression?
    /// What is redacted: the whole token (for a private key, the block up to its `END` line); `expression`
    /// when `nil`.
    let redactionExpression: NSRegularExpression?

    init(
        kind: String,
        title: String,
        article: String = "a",
        markers: [String],
        pattern: String,
        redactionPattern: String? = nil
    ) {
        self.kind = kind
        self.title = title
        self.titleWithArticle = article + " " + title
        self.markers = markers.map { Array($0.utf8) }
        self.expression = try? NSRegularExpression(pattern: pattern)
        self.redactionExpression = redactionPattern.flatMap { try? NSRegularExpression(pattern: $0) }
    }

    /// Whether `text` holds a token of this kind.
    package func occurs(in text: String) -> Bool {
        guard mayOccur(in: text), let expression else { return false }
        return expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    /// The tokens of this kind in `text`, whole (a private key block through its `END` line, or to the end
    /// of the text when that line is missing).
    package func tokens(in text: String) -> [String] {
        guard mayOccur(in: text), let expression = redactionExpression ?? expression else { return [] }
        return expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { match in
            Range(match.range, in: text).map { String(text[$0]) }
        }
    }

    /// Whether a marker occurs in `text`: without one, no token of this kind can.
    private func mayOccur(in text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in markers.contains { Self.contains(bytes, $0) } }
    }

    /// Whether `bytes` holds `needle` as a run of bytes.
    static func contains(_ bytes: UnsafeBufferPointer<UInt8>, _ needle: [UInt8]) -> Bool {
        guard let first = needle.first, needle.count <= bytes.count else { return needle.isEmpty }
        var start = 0
        while start <= bytes.count - needle.count {
            if bytes[start] == first {
                var offset = 1
                while offset < needle.count, bytes[start + offset] == needle[offset] { offset += 1 }
                if offset == needle.count { return true }
            }
            start += 1
        }
        return false
    }

    /// Whether UTF-8 bytes hold a marker of any kind, or a `\u` escape (in JSON one could spell a marker).
    ///
    /// - Complexity: O(n), one pass: only bytes that start a marker are looked at further.
    static func mayHoldToken(_ data: Data) -> Bool {
        data.withUnsafeBytes { raw in mayHoldToken(raw.bindMemory(to: UInt8.self)) }
    }

    /// Whether text holds a marker of any kind, or a `\u` escape.
    static func mayHoldToken(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { mayHoldToken($0) }
    }

    private static func mayHoldToken(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        anyMarker.occurs(in: bytes)
    }

    /// Every kind's markers and `\u`.
    private static let anyMarker = NeedleSet(all.flatMap(\.markers) + [Array(#"\u"#.utf8)], ignoringASCIICase: false)

    /// The patterns the `token.pattern` rule looks for, in the order findings are reported.
    package static let all: [TokenPattern] = [jwt, awsAccessKeyID, googleAPIKey, slackToken, privateKey]

    /// The kinds found in `text`, in the order of ``all``.
    package static func kinds(in text: String) -> [TokenPattern] {
        all.filter { $0.occurs(in: text) }
    }

    /// Every token of every kind in `text`, whole.
    ///
    /// - Complexity: one pass over the text when it holds no marker (the usual header value or URL).
    static func allTokens(in text: String) -> Set<String> {
        guard mayHoldToken(text) else { return [] }
        return all.reduce(into: []) { $0.formUnion($1.tokens(in: text)) }
    }

    /// A JSON Web Token in compact serialization (RFC 7519 §3, RFC 7515 §7.1): three base64url segments joined by
    /// dots, the first two being JSON objects, so both start with `eyJ` (`{"` in base64url).
    ///
    /// The signature segment may be empty (an unsecured JWT, RFC 7519 §6). Follows the gitleaks rule `jwt`
    /// (gitleaks/config/gitleaks.toml), which also anchors on the `ey` prefix of both JSON segments; two segments
    /// without the second dot are not a JWT.
    package static let jwt = TokenPattern(
        kind: "jwt",
        title: "JSON Web Token",
        markers: ["eyJ"],
        pattern: #"(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*(?![A-Za-z0-9_.-])"#
    )

    /// An AWS access key ID: `AKIA` (long-term) or `ASIA` (temporary, from STS) and 16 upper-case letters or digits.
    ///
    /// Source: AWS IAM User Guide, "Understanding unique ID prefixes" (identifiers reference); the gitleaks rule
    /// `aws-access-token` and truffleHog's AWS detector use the same prefixes and length.
    package static let awsAccessKeyID = TokenPattern(
        kind: "aws-access-key-id",
        title: "AWS access key ID",
        article: "an",
        markers: ["AKIA", "ASIA"],
        pattern: #"(?<![A-Z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Z0-9])"#
    )

    /// A Google API key: `AIza` and 35 characters from `[0-9A-Za-z_-]` (39 in all).
    ///
    /// Source: Google Cloud documentation, "Manage API keys" (keys are 39-character strings starting with
    /// `AIza`); the gitleaks rule `gcp-api-key` uses `AIza[\w-]{35}`.
    package static let googleAPIKey = TokenPattern(
        kind: "google-api-key",
        title: "Google API key",
        markers: ["AIza"],
        pattern: #"(?<![0-9A-Za-z_-])AIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])"#
    )

    /// A Slack token: `xoxb-` (bot), `xoxp-` (user), `xoxa-` (workspace app), `xoxr-` (refresh) or `xoxs-`
    /// (session), then at least two dash-separated parts.
    ///
    /// Source: Slack API documentation, "Token types" (the `xoxb`, `xoxp`, `xoxa`, `xoxr` prefixes); the gitleaks
    /// rules `slack-bot-token`, `slack-user-token` and `slack-legacy-token` and truffleHog's Slack detector
    /// match the same prefixes followed by numeric and alphanumeric parts. `xoxb-123` alone is not reported.
    package static let slackToken = TokenPattern(
        kind: "slack-token",
        title: "Slack token",
        markers: ["xox"],
        pattern: #"(?<![0-9A-Za-z])xox[abprs]-[0-9A-Za-z]{1,64}-[0-9A-Za-z-]{8,256}"#
    )

    /// A PEM private key block: reported by its header, `-----BEGIN PRIVATE KEY-----`, `-----BEGIN RSA PRIVATE KEY-----`,
    /// `-----BEGIN OPENSSH PRIVATE KEY-----`, `-----BEGIN ENCRYPTED PRIVATE KEY-----`, ….
    ///
    /// Source: RFC 7468 §10 and §11 (PKCS #8 labels `PRIVATE KEY` and `ENCRYPTED PRIVATE KEY`) and the legacy
    /// OpenSSL and OpenSSH labels; the gitleaks rule `private-key` matches `-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE
    /// KEY( BLOCK)?-----`. `-----BEGIN PUBLIC KEY-----` is not reported. Redaction replaces the whole block, through
    /// its `-----END … PRIVATE KEY-----` line (or to the end of the text when a truncated capture lacks it).
    package static let privateKey = TokenPattern(
        kind: "private-key",
        title: "private key",
        markers: ["-----BEGIN"],
        pattern: #"-----BEGIN[ A-Z0-9_-]{0,40}PRIVATE KEY(?: BLOCK)?-----"#,
        redactionPattern:
            #"-----BEGIN[ A-Z0-9_-]{0,40}PRIVATE KEY(?: BLOCK)?-----(?:[\s\S]*?-----END[ A-Z0-9_-]{0,40}PRIVATE KEY(?: BLOCK)?-----|[\s\S]*)"#
    )
}
