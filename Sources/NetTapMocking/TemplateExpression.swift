/// The inside of one `{{…}}`: a placeholder path (or `jsonPath request.body '$…'`) and `name=value` arguments.
struct TemplateExpression {
    /// What is inserted.
    var placeholder: TemplatePlaceholder
    /// The `default` argument, or empty.
    var fallback = ""

    /// Reads an expression such as `request.query.page default="1"`.
    ///
    /// - Throws: A message naming what is wrong.
    init(parsing text: String) throws(TemplatePlaceholder.Failure) {
        var words = try Self.words(of: text)
        guard let head = words.first else { throw TemplatePlaceholder.Failure("empty placeholder") }
        words.removeFirst()
        if head.text == "jsonPath" {
            guard words.count >= 2, words[0].text == "request.body", words[1].isQuoted else {
                throw TemplatePlaceholder.Failure("expected jsonPath request.body '$.field'")
            }
            do {
                placeholder = .bodyField(try TemplateJSONPath(parsing: words[1].text))
            } catch {
                throw TemplatePlaceholder.Failure(error.message)
            }
            words.removeFirst(2)
        } else {
            guard !head.isQuoted else { throw TemplatePlaceholder.Failure("expected a placeholder, found a string") }
            placeholder = try TemplatePlaceholder(path: head.text)
        }
        for word in words { try apply(argument: word) }
    }

    /// Applies `default=…` or, for `now`, `format=…`.
    private mutating func apply(argument word: Word) throws(TemplatePlaceholder.Failure) {
        guard let name = word.argumentName else {
            throw TemplatePlaceholder.Failure("unexpected \"\(word.text)\"; arguments are written name=\"value\"")
        }
        switch name {
        case "default":
            fallback = word.text
        case "format":
            guard case .now = placeholder else { throw TemplatePlaceholder.Failure("only now takes format") }
            guard let format = TemplatePlaceholder.DateFormat(rawValue: word.text) else {
                let formats = TemplatePlaceholder.DateFormat.allCases.map { "\"\($0.rawValue)\"" }
                throw TemplatePlaceholder.Failure(
                    "unknown format \"\(word.text)\"; expected " + formats.joined(separator: ", ")
                )
            }
            placeholder = .now(format)
        default:
            throw TemplatePlaceholder.Failure("unknown argument \"\(name)\"; expected default or, for now, format")
        }
    }

    /// One word of an expression: `request.path.1`, `'$.a b'`, or `default="x"` (name and value).
    struct Word {
        /// The word, or the argument's value, without quotes.
        var text: String
        /// Whether the text was in quotes.
        var isQuoted: Bool
        /// The argument's name for `name=value`, else `nil`.
        var argumentName: String?
    }

    /// Splits at white space outside quotes (`'…'` or `"…"`, no escapes); `name=` before a word makes it an
    /// argument.
    private static func words(of text: String) throws(TemplatePlaceholder.Failure) -> [Word] {
        var words: [Word] = []
        var rest = Substring(text)
        while true {
            rest = rest.drop(while: \.isWhitespace)
            guard !rest.isEmpty else { return words }
            var name: String?
            let letters = rest.prefix { $0.isASCII && $0.isLetter }
            if !letters.isEmpty, rest.dropFirst(letters.count).first == "=" {
                name = String(letters)
                rest = rest.dropFirst(letters.count + 1)
            }
            if let quote = rest.first, quote == "'" || quote == "\"" {
                let inside = rest.dropFirst().prefix { $0 != quote }
                guard rest.dropFirst(1 + inside.count).first == quote else {
                    throw TemplatePlaceholder.Failure("missing closing \(quote) in \"\(text)\"")
                }
                words.append(Word(text: String(inside), isQuoted: true, argumentName: name))
                rest = rest.dropFirst(inside.count + 2)
            } else {
                let word = try bareWord(rest, in: text)
                words.append(Word(text: String(word), isQuoted: false, argumentName: name))
                rest = rest.dropFirst(word.count)
            }
        }
    }

    /// The word at the start of `rest`: up to white space that is not inside quotes (`$['odd key']`).
    private static func bareWord(_ rest: Substring, in text: String) throws(TemplatePlaceholder.Failure) -> Substring {
        var quote: Character?
        var end = rest.startIndex
        while end < rest.endIndex {
            let character = rest[end]
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "'" || character == "\"" {
                quote = character
            } else if character.isWhitespace {
                break
            }
            end = rest.index(after: end)
        }
        if let quote { throw TemplatePlaceholder.Failure("missing closing \(quote) in \"\(text)\"") }
        return rest[..<end]
    }
}
