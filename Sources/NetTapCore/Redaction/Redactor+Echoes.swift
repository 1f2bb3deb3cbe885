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

    /// The values redacting headers removed.
    static func removedHeaderValues(original: HeaderFields, redacted: HeaderFields) -> Set<String> {
        var found: Set<String> = []
        for (before, after) in zip(original, redacted) where before.value != after.value {
            found.formUnion(removedTokens(original: before.value, redacted: after.value))
        }
        return found
    }

    /// Replaces every copy of a secret in a body: inside JSON strings (the JSON stays valid), or anywhere in
    /// other UTF-8 text; binary bodies are left alone.
    ///
    /// Each secret is found in any spelling an encoder may give it (see ``EchoPattern``): as is, with any of its
    /// characters percent-encoded (either hex case), a space as `+`, `/` escaped as `\/`.
    /// - Returns: The new bytes, or `nil` when no copy was found.
    static func removingEchoes(of secrets: Set<String>, from body: Data) -> Data? {
        guard !secrets.isEmpty, !body.isEmpty, let forms = EchoPattern(secrets), forms.mayContainCopy(json: body)
        else { return nil }
        if let value = try? JSONValue(data: body) {
            let swept = sweep(value, forms: forms, secrets: secrets)
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
    static func removingEchoes(of secrets: Set<String>, from url: URL) -> URL? {
        guard !secrets.isEmpty, let pattern = EchoPattern(secrets) else { return nil }
        let text = url.absoluteString
        let swept = pattern.replacing(in: text, with: encodedPlaceholder)
        return swept == text ? nil : URL(string: swept)
    }

    /// Replaces every copy of a secret in a header value.
    static func removingEchoes(of secrets: Set<String>, from value: String) -> String? {
        guard !secrets.isEmpty, let pattern = EchoPattern(secrets) else { return nil }
        let swept = sweep(value, forms: pattern)
        return swept == value ? nil : swept
    }

    private static func sweep(_ value: JSONValue, forms: EchoPattern, secrets: Set<String>) -> JSONValue {
        switch value {
        case .string(let text): .string(sweep(text, forms: forms))
        case .integer(let number) where secrets.contains(String(number)): .string(placeholder)
        case .array(let elements): .array(elements.map { sweep($0, forms: forms, secrets: secrets) })
        case .object(let members): .object(members.mapValues { sweep($0, forms: forms, secrets: secrets) })
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
