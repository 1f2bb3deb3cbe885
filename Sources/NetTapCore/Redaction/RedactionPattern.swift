import Foundation

/// A pattern for the names of header fields, cookies, query items and body fields that a ``Redactor``
/// treats as secret: an exact name, a wildcard or a regular expression, always compared case-insensitively.
///
/// ```swift
/// let exact: RedactionPattern = "password"          // a literal without `*` is exact
/// let wildcard: RedactionPattern = "*api-key*"      // `*` matches any run of characters
/// let regex = try RedactionPattern.regex("^x-(auth|csrf)-.*$")
/// wildcard.matches("X-Api-Key")                     // true
/// ```
public struct RedactionPattern: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// How the pattern's text is read.
    public enum Kind: String, Sendable, Hashable {
        /// The whole name, compared case-insensitively.
        case exact
        /// `*` matches any run of characters (also none); everything else is literal.
        case wildcard
        /// An `NSRegularExpression` pattern that must match the whole name.
        case regex
    }

    /// How ``source`` is read.
    public let kind: Kind
    /// The pattern as written.
    public let source: String
    /// The compiled expression of a regex pattern.
    private let expression: NSRegularExpression?
    /// The lowercased text of an exact pattern, or the lowercased pieces between the `*` of a wildcard.
    private let pieces: [String]

    private init(kind: Kind, source: String, expression: NSRegularExpression? = nil) {
        self.kind = kind
        self.source = source
        self.expression = expression
        switch kind {
        case .exact: pieces = [source.lowercased()]
        case .wildcard:
            pieces = source.lowercased().split(separator: "*", omittingEmptySubsequences: false).map(String.init)
        case .regex: pieces = []
        }
    }

    /// A pattern matching exactly `name`, ignoring case.
    ///
    /// - Parameter name: The name.
    /// - Returns: The pattern.
    public static func exact(_ name: String) -> RedactionPattern {
        RedactionPattern(kind: .exact, source: name)
    }

    /// A wildcard pattern: `*` matches any run of characters, the rest is literal; case is ignored.
    ///
    /// - Parameter pattern: The pattern, for example `*token*`.
    /// - Returns: The pattern.
    public static func wildcard(_ pattern: String) -> RedactionPattern {
        RedactionPattern(kind: .wildcard, source: pattern)
    }

    /// A regular expression (`NSRegularExpression` syntax) that must match the whole name; case is ignored.
    ///
    /// - Parameter pattern: The expression, for example `^x-(auth|csrf)-token$`; anchors are optional.
    /// - Returns: The pattern.
    /// - Throws: ``RedactionPatternError`` naming the pattern when it does not compile.
    public static func regex(_ pattern: String) throws(RedactionPatternError) -> RedactionPattern {
        // Compiled alone first, so a stray ")" is not hidden by the anchoring group.
        guard (try? NSRegularExpression(pattern: pattern)) != nil,
            let expression = try? NSRegularExpression(
                pattern: "^(?:" + pattern + ")$",
                options: [.caseInsensitive, .dotMatchesLineSeparators]
            )
        else {
            let diagnosis = RegularExpressionDiagnosis.diagnose(pattern)
            throw RedactionPatternError(
                pattern: pattern,
                message: "not a valid regular expression: \(diagnosis.message)"
            )
        }
        return RedactionPattern(kind: .regex, source: pattern, expression: expression)
    }

    /// A wildcard pattern when the literal contains `*`, otherwise an exact name.
    ///
    /// - Parameter value: The literal.
    public init(stringLiteral value: String) {
        self = value.contains("*") ? .wildcard(value) : .exact(value)
    }

    /// Whether `name` matches, ignoring case.
    ///
    /// - Parameter name: A header, cookie, query item or body field name.
    /// - Returns: `true` when the pattern matches the whole name.
    public func matches(_ name: String) -> Bool {
        matches(name, lowercased: name.lowercased())
    }

    /// ``matches(_:)`` with the name already lowercased, so a redactor lowercases each name once for all its
    /// rules.
    func matches(_ name: String, lowercased: String) -> Bool {
        switch kind {
        case .exact:
            return lowercased == pieces[0]
        case .wildcard:
            return Self.glob(pieces, matches: lowercased)
        case .regex:
            guard let expression else { return false }
            let range = NSRange(name.startIndex..<name.endIndex, in: name)
            return expression.firstMatch(in: name, options: [], range: range) != nil
        }
    }

    /// Text every name this pattern matches contains, lowercased: the exact name, or the longest piece of a wildcard.
    ///
    /// `nil` for a regex or a wildcard of only `*`. A body that contains none of these texts of its rules (ignoring
    /// ASCII case) cannot hold a secret field, so it need not be parsed.
    var requiredText: String? {
        switch kind {
        case .exact: return pieces[0].isEmpty ? nil : pieces[0]
        case .wildcard: return pieces.max { $0.count < $1.count }.flatMap { $0.isEmpty ? nil : $0 }
        case .regex: return nil
        }
    }

    /// Whether `name` is the pieces joined by runs of any characters: the first piece a prefix, the last a
    /// suffix, the others found in order in between (greedy leftmost search is enough for `*` alone).
    ///
    /// Pieces and name are compared by their UTF-8 bytes (both already lowercased by the caller), so a match
    /// costs no allocation and no Foundation string search.
    package static func glob(_ pieces: [String], matches name: String) -> Bool {
        guard let first = pieces.first, let last = pieces.last else { return name.isEmpty }
        if pieces.count == 1 { return name == first }
        var name = name
        return name.withUTF8 { bytes in
            let firstCount = first.utf8.count
            let lastCount = last.utf8.count
            guard bytes.count >= firstCount + lastCount, bytes.starts(with: first.utf8),
                bytes[(bytes.count - lastCount)...].elementsEqual(last.utf8)
            else { return false }
            var start = firstCount
            let end = bytes.count - lastCount
            for piece in pieces.dropFirst().dropLast() where !piece.isEmpty {
                guard let found = firstRange(of: piece, in: bytes, from: start, to: end) else { return false }
                start = found
            }
            return true
        }
    }

    /// The offset just past the first copy of `piece`'s UTF-8 bytes in `bytes[start..<end]`, or `nil`.
    private static func firstRange(
        of piece: String,
        in bytes: UnsafeBufferPointer<UInt8>,
        from start: Int,
        to end: Int
    ) -> Int? {
        var piece = piece
        return piece.withUTF8 { needle in
            guard let head = needle.first, end - start >= needle.count else { return nil }
            var index = start
            while index + needle.count <= end {
                if bytes[index] == head {
                    var offset = 1
                    while offset < needle.count, bytes[index + offset] == needle[offset] { offset += 1 }
                    if offset == needle.count { return index + needle.count }
                }
                index += 1
            }
            return nil
        }
    }

    /// `exact "name"`, `wildcard "*token*"` or `regex "…"`.
    public var description: String { "\(kind.rawValue) \"\(source)\"" }

    /// Compares kind and source.
    ///
    /// - Parameters:
    ///   - lhs: One pattern.
    ///   - rhs: Another pattern.
    /// - Returns: Whether both have the same kind and source.
    public static func == (lhs: RedactionPattern, rhs: RedactionPattern) -> Bool {
        lhs.kind == rhs.kind && lhs.source == rhs.source
    }

    /// Hashes kind and source.
    ///
    /// - Parameter hasher: The hasher.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(source)
    }
}

/// A ``RedactionPattern`` that cannot be used: it names the pattern and what is wrong.
public struct RedactionPatternError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The pattern as written.
    public var pattern: String
    /// What is wrong with it.
    public var message: String

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - pattern: The pattern.
    ///   - message: What is wrong.
    public init(pattern: String, message: String) {
        self.pattern = pattern
        self.message = message
    }

    /// `redaction pattern "(": not a valid regular expression: missing ")" to close "(" at character 1`.
    public var description: String { "redaction pattern \"\(pattern)\": \(message)" }
}

extension RedactionPatternError: LocalizedError {
    /// The same text as `description`, so `localizedDescription` (what apps and test reports show) names
    /// the input and the place too.
    public var errorDescription: String? { description }
}
