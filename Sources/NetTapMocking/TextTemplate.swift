/// A text with `{{…}}` placeholders, compiled once: literal pieces and placeholders, never evaluated as code.
///
/// `{{expression}}` inserts a value escaped for the body's content type, `{{{expression}}}` inserts it as it is.
/// An expression is a placeholder path (``TemplatePlaceholder``) or `jsonPath request.body '$.a'`, then optional
/// arguments: `default="…"` (what a missing value renders as; empty otherwise) and, for `now`,
/// `format="iso8601" | "epoch" | "unix"`. `\{{` writes `{{` literally.
struct TextTemplate: Sendable, Hashable {
    /// One piece of the text.
    enum Part: Sendable, Hashable {
        /// Text written as it is, as UTF-8 (answers are built in bytes).
        case literal([UInt8])
        /// A value to insert.
        case value(Insertion)
    }

    /// A placeholder where it stands.
    struct Insertion: Sendable, Hashable {
        /// What is inserted.
        var placeholder: TemplatePlaceholder
        /// What a missing value renders as; empty when not given.
        var fallback: String
        /// Whether it was written `{{{…}}}`: never escaped.
        var isRaw: Bool
        /// Whether it stands inside a JSON string of the text before it (an odd number of unescaped `"`), where a
        /// JSON body escapes it.
        var isInJSONString: Bool
    }

    /// The template as written.
    let source: String
    /// The pieces, in order.
    let parts: [Part]

    /// Whether a `{{randomId}}` is among the placeholders.
    var usesRandomId: Bool {
        parts.contains { part in
            guard case .value(let insertion) = part else { return false }
            return insertion.placeholder == .randomId
        }
    }

    /// Compiles a template.
    ///
    /// - Parameter source: The text.
    /// - Throws: ``TemplateError`` naming the placeholder and its position: an unknown placeholder, a `{{` not
    ///   closed, an empty `{{}}`, an unknown argument, or a bad index or JSON path.
    init(parsing source: String) throws(TemplateError) {
        self.source = source
        var parts: [Part] = []
        var literal = ""
        var inString = false
        var rest = Substring(source)
        while let open = rest.range(of: "{{") {
            var before = rest[..<open.lowerBound]
            if before.hasSuffix("\\") {
                before = before.dropLast()
                literal += before + "{{"
                inString = Self.jsonStringState(after: before + "{{", from: inString)
                rest = rest[open.upperBound...]
                continue
            }
            literal += before
            inString = Self.jsonStringState(after: before, from: inString)
            let offset = source.distance(from: source.startIndex, to: open.lowerBound)
            let (insertion, end) = try Self.insertion(at: open.lowerBound, in: source, offset: offset)
            if !literal.isEmpty { parts.append(.literal(Array(literal.utf8))) }
            literal = ""
            parts.append(.value(Insertion(insertion, isInJSONString: inString)))
            rest = source[end...]
        }
        literal += rest
        if !literal.isEmpty { parts.append(.literal(Array(literal.utf8))) }
        self.parts = parts
    }

    /// Whether the template has any placeholder (a template without one is plain text).
    var hasPlaceholders: Bool {
        parts.contains { if case .value = $0 { true } else { false } }
    }

    /// The one placeholder when the whole text is exactly one `{{…}}`, else `nil`.
    var soleInsertion: Insertion? {
        guard parts.count == 1, case .value(let insertion) = parts[0] else { return nil }
        return insertion
    }

    /// Whether a JSON text is inside a string after `text`, starting inside one when `inString`.
    private static func jsonStringState(after text: Substring, from inString: Bool) -> Bool {
        var inside = inString
        var escaped = false
        for character in text {
            if escaped {
                escaped = false
            } else if inside && character == "\\" {
                escaped = true
            } else if character == "\"" {
                inside.toggle()
            }
        }
        return inside
    }

    /// Reads the `{{…}}` or `{{{…}}}` at `start`: its insertion and where the text goes on.
    private static func insertion(
        at start: String.Index,
        in source: String,
        offset: Int
    ) throws(TemplateError) -> (Insertion, String.Index) {
        let isRaw = source[start...].hasPrefix("{{{")
        let opener = source.index(start, offsetBy: isRaw ? 3 : 2)
        let closer = isRaw ? "}}}" : "}}"
        guard let close = source[opener...].range(of: closer) else {
            throw TemplateError(template: source, message: "\"\(isRaw ? "{{{" : "{{")\" is not closed", offset: offset)
        }
        let expression = String(source[opener..<close.lowerBound])
        do {
            let parsed = try TemplateExpression(parsing: expression)
            return (Insertion(parsed, isRaw: isRaw), close.upperBound)
        } catch {
            throw TemplateError(template: source, message: error.message, offset: offset)
        }
    }
}

extension TextTemplate.Insertion {
    fileprivate init(_ expression: TemplateExpression, isRaw: Bool) {
        self.init(
            placeholder: expression.placeholder,
            fallback: expression.fallback,
            isRaw: isRaw,
            isInJSONString: false
        )
    }

    fileprivate init(_ insertion: TextTemplate.Insertion, isInJSONString: Bool) {
        self = insertion
        self.isInJSONString = isInJSONString
    }
}
