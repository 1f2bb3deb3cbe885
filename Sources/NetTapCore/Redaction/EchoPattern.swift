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
struct EchoPattern {
    private let expression: NSRegularExpression

    /// The pattern for these secrets, or `nil` when none is long enough to look for.
    init?(_ secrets: Set<String>) {
        let searched = secrets.filter { $0.count >= Redactor.minimumEchoLength }
            .sorted { ($0.count, $0) > ($1.count, $1) }
        guard !searched.isEmpty else { return nil }
        let alternatives = searched.map { secret in secret.map(Self.characterPattern).joined() }
        guard let expression = try? NSRegularExpression(pattern: alternatives.joined(separator: "|")) else {
            return nil
        }
        self.expression = expression
    }

    /// The text with every copy replaced by `replacement` (inserted literally).
    func replacing(in text: String, with replacement: String) -> String {
        let range = NSRange(text.startIndex..., in: text)
        guard expression.firstMatch(in: text, range: range) != nil else { return text }
        return expression.stringByReplacingMatches(
            in: text,
            range: range,
            withTemplate: NSRegularExpression.escapedTemplate(for: replacement)
        )
    }

    /// One character: itself, or its UTF-8 bytes percent-encoded in either hex case; a space also `+`, a `/`
    /// also `\/`.
    private static func characterPattern(_ character: Character) -> String {
        let literal = NSRegularExpression.escapedPattern(for: String(character))
        let encoded = String(character).utf8.map { String(format: "%%(?i:%02X)", $0) }.joined()
        var choices = [literal, encoded]
        if character == " " { choices.append("\\+") }
        if character == "/" { choices.append("\\\\/") }
        return "(?:" + choices.joined(separator: "|") + ")"
    }
}
