import Foundation

extension Redactor {
    /// Secret values shorter than this many characters are not searched for elsewhere: a cookie value `1` or
    /// `true` would replace harmless text everywhere.
    public static let minimumEchoLength = 6

    /// The values a redaction removed from a piece of text: tokens of `original` (split at white space and
    /// `;`, `,`, `=`, `&`, `?`, `:`, `/` is kept) that are gone from `redacted`, percent-decoded.
    static func removedTokens(original: String, redacted: String) -> Set<String> {
        guard original != redacted else { return [] }
        let kept = Set(tokens(of: redacted))
        return Set(tokens(of: original).filter { !kept.contains($0) && $0.count >= minimumEchoLength })
    }

    /// The string leaves of `original` that `redacted` replaced by the placeholder, at any depth.
    static func removedJSONValues(original: JSONValue, redacted: JSONValue) -> Set<String> {
        switch (original, redacted) {
        case (.object(let before), .object(let after)):
            return before.reduce(into: Set<String>()) { found, member in
                guard let replacement = after[member.key] else { return }
                found.formUnion(removedJSONValues(original: member.value, redacted: replacement))
            }
        case (.array(let before), .array(let after)):
            return zip(before, after).reduce(into: Set<String>()) { found, pair in
                found.formUnion(removedJSONValues(original: pair.0, redacted: pair.1))
            }
        case (_, .string(placeholder)) where original != .string(placeholder):
            return leaves(of: original).filter { $0.count >= minimumEchoLength }
        default:
            return []
        }
    }

    /// The values a body redaction removed (JSON leaves, or form values).
    static func removedBodyValues(original: Data, redacted: Data) -> Set<String> {
        guard original != redacted else { return [] }
        if let before = try? JSONValue(data: original), let after = try? JSONValue(data: redacted) {
            return removedJSONValues(original: before, redacted: after)
        }
        guard let before = String(data: original, encoding: .utf8), let after = String(data: redacted, encoding: .utf8)
        else { return [] }
        return removedTokens(original: before, redacted: after)
    }

    /// The values redacting headers removed: each whole value replaced (a cookie's value, quoted or not, `=` and
    /// all; a credential after its scheme; a secret field's value) and the tokens of it that are gone.
    static func removedHeaderValues(original: HeaderFields, redacted: HeaderFields) -> Set<String> {
        var found: Set<String> = []
        for (before, after) in zip(original, redacted) where before.value != after.value {
            found.formUnion(removedTokens(original: before.value, redacted: after.value))
            let name = before.name.lowercased()
            if name == "cookie" || name == "set-cookie" {
                found.formUnion(
                    removedCookieValues(
                        original: before.value,
                        redacted: after.value,
                        isSetCookie: name == "set-cookie"
                    )
                )
            } else if let value = removedWholeValue(original: before.value, redacted: after.value) {
                found.insert(value)
            }
        }
        return found
    }

    /// The value a secret field's redaction replaced whole (`[redacted]`, or `scheme [redacted]` for credentials).
    private static func removedWholeValue(original: String, redacted: String) -> String? {
        let value = original.trimmingCharacters(in: .whitespaces)
        if redacted == placeholder { return value }
        guard redacted.hasSuffix(" " + placeholder), let space = value.firstIndex(of: " ") else { return nil }
        return value[value.index(after: space)...].trimmingCharacters(in: .whitespaces)
    }

    /// The cookie values a `Cookie` or `Set-Cookie` redaction replaced, line by line and cookie by cookie: each
    /// whole value (`a=b` of `sid=a=b`) and, for a quoted one, also without its quotes (RFC 6265 §4.1.1).
    private static func removedCookieValues(original: String, redacted: String, isSetCookie: Bool) -> Set<String> {
        var found: Set<String> = []
        for (before, after) in zip(cookieLines(original), cookieLines(redacted)) {
            for (cookie, redactedCookie) in zip(cookiePairs(before, isSetCookie), cookiePairs(after, isSetCookie))
            where cookie != redactedCookie {
                let value = cookie.firstIndex(of: "=").map { cookie[cookie.index(after: $0)...] } ?? cookie[...]
                let trimmed = value.trimmingCharacters(in: .whitespaces)
                found.insert(trimmed)
                if trimmed.count > 2, trimmed.hasPrefix("\""), trimmed.hasSuffix("\"") {
                    found.insert(String(trimmed.dropFirst().dropLast()))
                }
            }
        }
        return found
    }

    /// The lines of a header value (several cookies one per line, as Firefox's HAR export writes them).
    private static func cookieLines(_ value: String) -> [Substring] {
        value.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
    }

    /// The `name=value` pairs of one cookie line: every `;`-separated piece of a `Cookie` line, the first piece of
    /// each cookie of a `Set-Cookie` line.
    private static func cookiePairs(_ line: Substring, _ isSetCookie: Bool) -> [Substring] {
        guard isSetCookie else { return line.split(separator: ";", omittingEmptySubsequences: false) }
        return SetCookieReader.splitJoined(String(line)).map { cookie in cookie.prefix { $0 != ";" } }
    }

    /// Replaces every copy of a secret in a body: inside JSON strings (the JSON stays valid), or anywhere in
    /// other UTF-8 text; binary bodies are left alone.
    ///
    /// Each secret is found in any spelling an encoder may give it (see ``EchoPattern``): as is, with any of its
    /// characters percent-encoded (either hex case), a space as `+`, `/` escaped as `\/`.
    /// - Parameters:
    ///   - forms: The secrets' pattern, built once for every place swept (`nil` when no secret is long enough).
    ///   - body: The body.
    /// - Returns: The new bytes, or `nil` when no copy was found.
    static func removingEchoes(of forms: EchoPattern?, from body: Data) -> Data? {
        guard let forms, !body.isEmpty, forms.mayContainCopy(json: body) else { return nil }
        if let value = try? JSONValue(data: body) {
            let swept = sweep(value, forms: forms)
            guard swept != value else { return nil }
            return try? swept.data()
        }
        guard let text = String(data: body, encoding: .utf8) else { return nil }
        let swept = sweep(text, forms: forms)
        return swept == text ? nil : Data(swept.utf8)
    }

    /// Replaces every copy of a secret in a URL (its text, the secret also percent-encoded) by the
    /// percent-encoded placeholder.
    /// - Returns: The new URL, or `nil` when no copy was found (or the result would not parse).
    static func removingEchoes(of forms: EchoPattern?, from url: URL) -> URL? {
        guard let forms else { return nil }
        let text = url.absoluteString
        let swept = forms.replacing(in: text, with: encodedPlaceholder)
        return swept == text ? nil : URL(string: swept)
    }

    /// Replaces every copy of a secret in a header value or other text.
    static func removingEchoes(of forms: EchoPattern?, from value: String) -> String? {
        guard let forms else { return nil }
        let swept = sweep(value, forms: forms)
        return swept == value ? nil : swept
    }

    private static func sweep(_ value: JSONValue, forms: EchoPattern) -> JSONValue {
        switch value {
        case .string(let text): .string(sweep(text, forms: forms))
        case .integer(let number) where forms.isSecret(String(number)): .string(placeholder)
        case .array(let elements): .array(elements.map { sweep($0, forms: forms) })
        case .object(let members): .object(members.mapValues { sweep($0, forms: forms) })
        default: value
        }
    }

    private static func sweep(_ text: String, forms: EchoPattern) -> String {
        forms.replacing(in: text, with: placeholder)
    }

    private static func tokens(of text: String) -> [String] {
        let pieces: [String]
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            // ASCII text (most URLs and header values): split its bytes, skipping Character's Unicode
            // properties; the separators are the same.
            pieces = text.utf8.split { tokenSeparators.contains($0) }.map { String(decoding: $0, as: UTF8.self) }
        } else {
            pieces = text.split { $0.isWhitespace || ";,=&?:".contains($0) }.map(String.init)
        }
        return pieces.map { raw in
            raw.utf8.contains(UInt8(ascii: "%")) ? raw.removingPercentEncoding ?? raw : raw
        }
    }

    /// The ASCII bytes ``tokens(of:)`` splits at: white space (as `Character.isWhitespace` has it in ASCII)
    /// and `;,=&?:`.
    private static let tokenSeparators: Set<UInt8> = Set(" \t\n\r\u{0B}\u{0C};,=&?:".utf8)

    private static func leaves(of value: JSONValue) -> Set<String> {
        switch value {
        case .string(let text): [text]
        case .integer(let number): [String(number)]
        case .number(let number): [String(number)]
        case .array(let elements): elements.reduce(into: []) { $0.formUnion(leaves(of: $1)) }
        case .object(let members): members.values.reduce(into: []) { $0.formUnion(leaves(of: $1)) }
        default: []
        }
    }
}
