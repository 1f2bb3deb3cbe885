import Foundation

/// Finds copies of secret values in text whatever spelling an encoder gave them.
///
/// A server that echoes a request (httpbin's `/anything`, a debug endpoint, an error page quoting the URL) may
/// write a secret as the app sent it — percent-encoded by the app, by `URLComponents`, by a browser's
/// `encodeURIComponent`, or form-encoded — or decoded, or JSON-escaped. Rather than listing spellings, the
/// pattern lets every character of a secret match itself or its UTF-8 bytes percent-encoded (`%2B`, `%2b`), a
/// space also `+`, and `/` also `\/`. So `QREFRESH+_a8` is found as `QREFRESH%2B_a8`, `QREFRESH%2b%5Fa8` or
/// `QREFRESH+_a8`, and `PCT SECRET/v1` as `PCT%20SECRET%2Fv1` or `PCT+SECRET\/v1`.
///
/// Secrets shorter than ``Redactor/minimumEchoLength`` are not looked for. Longer secrets are tried first, so a
/// secret that contains another is replaced whole.
///
/// Speed: most text holds no copy, and text without `%` (nor `+` when a secret has a space, nor `\` when one
/// has a `/`) can only hold a copy spelled as is; such text is searched byte for byte and the regular
/// expression is not needed. The expression is compiled on first use and kept (``ExpressionCache``), since one
/// transaction's secrets are searched in each of its header values, URLs and bodies.
struct EchoPattern {
    /// The secrets looked for, longest first, as UTF-8.
    private let searched: [String]
    /// Whether a secret has a space (which may be spelled `+`).
    private let hasSpace: Bool
    /// Whether a secret has a `/` (which may be spelled `\/`).
    private let hasSlash: Bool

    /// The pattern for these secrets, or `nil` when none is long enough to look for.
    init?(_ secrets: Set<String>) {
        searched = secrets.filter { $0.count >= Redactor.minimumEchoLength }
            .sorted { ($0.count, $0) > ($1.count, $1) }
        guard !searched.isEmpty else { return nil }
        hasSpace = searched.contains { $0.utf8.contains(UInt8(ascii: " ")) }
        hasSlash = searched.contains { $0.utf8.contains(UInt8(ascii: "/")) }
    }

    /// The text with every copy replaced by `replacement` (inserted literally).
    func replacing(in text: String, with replacement: String) -> String {
        guard mayContainCopy(text), let expression = Self.cache.expression(for: searched) else { return text }
        let range = NSRange(text.startIndex..., in: text)
        guard expression.firstMatch(in: text, range: range) != nil else { return text }
        return expression.stringByReplacingMatches(
            in: text,
            range: range,
            withTemplate: NSRegularExpression.escapedTemplate(for: replacement)
        )
    }

    /// Whether `text` may hold a copy: `false` only when no spelling of any secret can be in it.
    ///
    /// Every spelling other than the secret as is needs a `%`, a `+` (for a space) or a `\` (for `/`); without
    /// them, a copy is the secret's own bytes, searched for as such.
    func mayContainCopy(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { mayContainCopy(utf8: $0, escapes: escapes) }
    }

    /// Whether the UTF-8 bytes of a JSON document may hold a copy in one of its strings: as ``mayContainCopy(_:)``,
    /// but any `\` counts, since JSON may escape any character (`\u0074`).
    func mayContainCopy(json data: Data) -> Bool {
        data.withUnsafeBytes { raw in
            mayContainCopy(utf8: raw.bindMemory(to: UInt8.self), escapes: escapes + [UInt8(ascii: "\\")])
        }
    }

    /// The bytes besides a secret's own that some spelling of a secret needs.
    private var escapes: [UInt8] {
        [UInt8(ascii: "%")] + (hasSpace ? [UInt8(ascii: "+")] : []) + (hasSlash ? [UInt8(ascii: "\\")] : [])
    }

    private func mayContainCopy(utf8 bytes: UnsafeBufferPointer<UInt8>, escapes: [UInt8]) -> Bool {
        if bytes.contains(where: escapes.contains) { return true }
        return searched.contains { secret in
            var secret = secret
            return secret.withUTF8 { Self.contains(bytes, $0) }
        }
    }

    /// Whether `haystack` has `needle` as a run of bytes.
    private static func contains(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = needle.first, needle.count <= haystack.count else { return needle.isEmpty }
        var start = 0
        let last = haystack.count - needle.count
        while start <= last {
            if haystack[start] == first {
                var offset = 1
                while offset < needle.count, haystack[start + offset] == needle[offset] { offset += 1 }
                if offset == needle.count { return true }
            }
            start += 1
        }
        return false
    }

    /// One character: itself, or its UTF-8 bytes percent-encoded in either hex case; a space also `+`, a `/`
    /// also `\/`.
    fileprivate static func characterPattern(_ character: Character) -> String {
        let literal = NSRegularExpression.escapedPattern(for: String(character))
        let hexDigits = Array("0123456789ABCDEF")
        let encoded = String(character).utf8.map { byte in
            "%(?i:" + String(hexDigits[Int(byte >> 4)]) + String(hexDigits[Int(byte & 0x0F)]) + ")"
        }.joined()
        var choices = [literal, encoded]
        if character == " " { choices.append("\\+") }
        if character == "/" { choices.append("\\\\/") }
        return "(?:" + choices.joined(separator: "|") + ")"
    }

    /// The compiled expressions of recent secret lists, shared by every redaction in the process.
    private static let cache = ExpressionCache()
}

/// Compiled echo expressions by secret list; at most ``capacity`` are kept (the cache empties when full).
private final class ExpressionCache: Sendable {
    /// The most expressions kept.
    static let capacity = 256

    private let expressions = Locked<[[String]: NSRegularExpression]>([:])

    /// The expression matching any spelling of any of `secrets` (longest first), compiled on first use.
    func expression(for secrets: [String]) -> NSRegularExpression? {
        if let known = expressions.withLock({ $0[secrets] }) { return known }
        let alternatives = secrets.map { secret in secret.map(EchoPattern.characterPattern).joined() }
        guard let expression = try? NSRegularExpression(pattern: alternatives.joined(separator: "|")) else {
            return nil
        }
        expressions.withLock { cached in
            if cached.count >= Self.capacity { cached.removeAll(keepingCapacity: true) }
            cached[secrets] = expression
        }
        return expression
    }
}
