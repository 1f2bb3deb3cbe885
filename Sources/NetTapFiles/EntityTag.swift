import Foundation

/// An HTTP entity tag (RFC 9110 §8.8.3): an opaque quoted string, optionally marked weak with `W/`.
struct EntityTag: Sendable, Equatable {
    /// The characters between the quotes.
    var opaque: String
    /// Whether the tag is weak (`W/"…"`).
    var isWeak: Bool

    /// The field value: `"opaque"` or `W/"opaque"`.
    var headerValue: String { (isWeak ? "W/" : "") + "\"" + opaque + "\"" }

    /// Weak comparison (RFC 9110 §8.8.3.2): the opaque parts are equal, whatever either tag's weakness.
    func weaklyMatches(_ other: EntityTag) -> Bool { opaque == other.opaque }

    /// Strong comparison (RFC 9110 §8.8.3.2): both tags strong and their opaque parts equal.
    func stronglyMatches(_ other: EntityTag) -> Bool { !isWeak && !other.isWeak && opaque == other.opaque }

    /// A parsed `If-None-Match` or `If-Match` value (RFC 9110 §13.1.1, §13.1.2).
    enum List: Equatable {
        /// `*`: any current representation.
        case any
        /// The tags listed.
        case tags([EntityTag])
    }

    /// Parses `*` or a comma-separated list of entity tags (`"a", W/"b"`); empty list elements are skipped.
    ///
    /// - Parameter value: The field value (repeated fields joined with `,`).
    /// - Returns: The list, or `nil` when the value is not valid (a tag without quotes, a stray character).
    static func parseList(_ value: String) -> List? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if trimmed == "*" { return .any }
        var tags: [EntityTag] = []
        var rest = Substring(trimmed)
        while true {
            rest = rest.drop { $0 == " " || $0 == "\t" || $0 == "," }
            if rest.isEmpty { break }
            guard let (tag, after) = parseTag(rest) else { return nil }
            tags.append(tag)
            rest = after.drop { $0 == " " || $0 == "\t" }
            guard rest.isEmpty || rest.first == "," else { return nil }
        }
        return tags.isEmpty ? nil : .tags(tags)
    }

    /// Parses one entity tag at the start of `text`; returns it and the text after it.
    static func parseTag(_ text: Substring) -> (EntityTag, Substring)? {
        var rest = text
        var isWeak = false
        if rest.hasPrefix("W/") {
            isWeak = true
            rest = rest.dropFirst(2)
        }
        guard rest.first == "\"" else { return nil }
        rest = rest.dropFirst()
        guard let close = rest.firstIndex(of: "\"") else { return nil }
        let opaque = rest[..<close]
        // etagc = %x21 / %x23-7E / obs-text: no spaces, quotes or controls inside.
        guard opaque.unicodeScalars.allSatisfy({ $0.value == 0x21 || ($0.value >= 0x23 && $0.value != 0x7F) })
        else { return nil }
        return (EntityTag(opaque: String(opaque), isWeak: isWeak), rest[rest.index(after: close)...])
    }
}
