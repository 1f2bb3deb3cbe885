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
/// has a `/`) can only hold a copy spelled as is; such text is searched for every secret at once in a trie of their
/// bytes (``LiteralTrie``); text with escapes tries at each byte the secrets that can begin there. The search itself
/// walks the UTF-8 bytes with no regular expression: on Linux, swift-corelibs-foundation's (Swift 6.3.1)
/// `NSRegularExpression` leaks its pattern's UTF-16 copy when the pattern is over 256 units long, which an
/// expression per secret list (a group of alternatives per character) almost always was.
struct EchoPattern {
    /// The secrets looked for, longest first, as UTF-8.
    private let searched: [String]
    /// Whether a secret has a space (which may be spelled `+`).
    private let hasSpace: Bool
    /// Whether a secret has a `/` (which may be spelled `\/`).
    private let hasSlash: Bool
    /// ``searched`` as the UTF-8 bytes of each character (grapheme cluster), which is spelled as a whole.
    private let characters: [[[UInt8]]]
    /// By byte value: the secrets (indices into ``characters``, longest first) whose copy may start with that byte:
    /// those beginning with it as is, and every secret for `%` (and `+`, `\` when a secret starts with a space or
    /// `/`), which may begin a spelled copy.
    private let candidates: [[Int]]
    /// The secrets as they are: what text without escapes can hold.
    private let literal: LiteralTrie
    /// ``searched`` as a set, to tell whether a whole value is a secret.
    private let secrets: Set<String>

    /// The pattern for these secrets, or `nil` when none is long enough to look for.
    init?(_ secrets: Set<String>) {
        searched = secrets.filter { $0.count >= Redactor.minimumEchoLength }
            .sorted { ($0.count, $0) > ($1.count, $1) }
        guard !searched.isEmpty else { return nil }
        self.secrets = Set(searched)
        hasSpace = searched.contains { $0.utf8.contains(UInt8(ascii: " ")) }
        hasSlash = searched.contains { $0.utf8.contains(UInt8(ascii: "/")) }
        characters = searched.map { secret in secret.map { Array(String($0).utf8) } }
        var candidates = [[Int]](repeating: [], count: 256)
        let all = Array(characters.indices)
        candidates[Int(UInt8(ascii: "%"))] = all
        for (index, first) in characters.map(\.first).enumerated() {
            guard let first, let byte = first.first else { continue }
            if byte != UInt8(ascii: "%") { candidates[Int(byte)].append(index) }
            if first == [UInt8(ascii: " ")] { candidates[Int(UInt8(ascii: "+"))] = all }
            if first == [UInt8(ascii: "/")] { candidates[Int(UInt8(ascii: "\\"))] = all }
        }
        self.candidates = candidates
        literal = LiteralTrie(searched.map { Array($0.utf8) })
    }

    /// Whether `value` is, as a whole, one of the secrets looked for.
    func isSecret(_ value: String) -> Bool {
        secrets.contains(value)
    }

    /// The text with every copy replaced by `replacement` (inserted literally).
    ///
    /// The text is scanned once from the start; at each place the secrets are tried longest first, and a copy
    /// found is replaced and skipped, as a regular expression `secret1|secret2|…` would replace its matches.
    /// - Complexity: O(*n* × *s*) in the worst case, for *n* bytes of text and *s* bytes of secrets.
    func replacing(in text: String, with replacement: String) -> String {
        guard mayContainCopy(text) else { return text }
        let bytes = Array(text.utf8)
        // Without escapes a copy is spelled as is, and the trie finds it whatever the secrets share.
        let isLiteral = !bytes.contains(where: escapes.contains)
        var output: [UInt8] = []
        var copied = 0
        var position = 0
        while position < bytes.count {
            let end =
                isLiteral
                ? bytes.withUnsafeBufferPointer { literal.longestMatchEnd(in: $0, at: position) }
                : copyEnd(of: candidates[Int(bytes[position])], in: bytes, at: position)
            guard let end else {
                position += 1
                continue
            }
            if output.isEmpty { output.reserveCapacity(bytes.count) }
            output.append(contentsOf: bytes[copied..<position])
            output.append(contentsOf: replacement.utf8)
            position = end
            copied = end
        }
        guard copied > 0 else { return text }
        output.append(contentsOf: bytes[copied...])
        return String(decoding: output, as: UTF8.self)
    }

    /// Where the first secret of `tried` (longest first) of which a copy starts at `start` ends, or `nil`.
    private func copyEnd(of tried: [Int], in bytes: [UInt8], at start: Int) -> Int? {
        for index in tried {
            if let end = Self.copyEnd(of: characters[index], in: bytes, at: start) { return end }
        }
        return nil
    }

    /// Where a copy of `secret` (the UTF-8 bytes of each of its characters) that starts at `start` ends, or `nil`.
    ///
    /// A `%` may be spelled `%` or `%25`, so a spelling that leads nowhere is undone and the next one tried.
    private static func copyEnd(of secret: [[UInt8]], in bytes: [UInt8], at start: Int) -> Int? {
        // Depth first: (character to match next, where, first spelling to try).
        var choices: [(character: Int, position: Int, spelling: Spelling)] = [(0, start, .literal)]
        while var choice = choices.popLast() {
            if choice.character == secret.count { return choice.position }
            while choice.spelling != .none {
                let spelling = choice.spelling
                choice.spelling = spelling.next
                if let end = spelling.end(of: secret[choice.character], in: bytes, at: choice.position) {
                    choices.append(choice)
                    choices.append((choice.character + 1, end, .literal))
                    break
                }
            }
        }
        return nil
    }

    /// The ways one character may be written, in the order they are tried.
    private enum Spelling {
        /// Its own bytes.
        case literal
        /// Each UTF-8 byte as `%` and two hex digits in either case.
        case percentEncoded
        /// A space as `+`.
        case plus
        /// A `/` as `\/`.
        case escapedSlash
        /// No spelling left.
        case none

        var next: Spelling {
            switch self {
            case .literal: .percentEncoded
            case .percentEncoded: .plus
            case .plus: .escapedSlash
            case .escapedSlash, .none: .none
            }
        }

        /// Where `character` (UTF-8) written this way at `start` of `bytes` ends, or `nil`.
        func end(of character: [UInt8], in bytes: [UInt8], at start: Int) -> Int? {
            switch self {
            case .literal:
                guard start + character.count <= bytes.count else { return nil }
                for (offset, byte) in character.enumerated() where bytes[start + offset] != byte { return nil }
                return start + character.count
            case .percentEncoded:
                guard start + 3 * character.count <= bytes.count else { return nil }
                var position = start
                for byte in character {
                    guard bytes[position] == UInt8(ascii: "%"), let high = Self.hexValue(bytes[position + 1]),
                        let low = Self.hexValue(bytes[position + 2]), high << 4 | low == byte
                    else { return nil }
                    position += 3
                }
                return position
            case .plus:
                guard character == [UInt8(ascii: " ")], start < bytes.count, bytes[start] == UInt8(ascii: "+") else {
                    return nil
                }
                return start + 1
            case .escapedSlash:
                guard character == [UInt8(ascii: "/")], start + 2 <= bytes.count, bytes[start] == UInt8(ascii: "\\"),
                    bytes[start + 1] == UInt8(ascii: "/")
                else { return nil }
                return start + 2
            case .none:
                return nil
            }
        }

        private static func hexValue(_ byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
            default: nil
            }
        }
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
        return literal.occurs(in: bytes)
    }
}
