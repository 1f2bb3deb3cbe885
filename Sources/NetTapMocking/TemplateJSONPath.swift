import NetTapCore

/// A JSON path into a request body, as templates write it: `$`, then `.name`, `['name']` or `["name"]`, and `[N]`
/// (0-based), for example `$.items[0].id` or `$['user name']`.
struct TemplateJSONPath: Sendable, Hashable {
    /// One step of the path.
    enum Step: Sendable, Hashable {
        /// An object member.
        case member(String)
        /// An array element, 0-based.
        case element(Int)
    }

    /// The path as written.
    let text: String
    /// The steps after `$`.
    let steps: [Step]

    /// Parses a path.
    ///
    /// - Throws: A message naming the fault (the caller places it in a ``TemplateError``).
    init(parsing text: String) throws(TemplateJSONPath.Failure) {
        self.text = text
        var characters = Substring(text)
        guard characters.first == "$" else { throw Failure("a JSON path starts with \"$\", found \"\(text)\"") }
        characters = characters.dropFirst()
        var steps: [Step] = []
        while let first = characters.first {
            if first == "." {
                let name = characters.dropFirst().prefix { $0 != "." && $0 != "[" }
                guard !name.isEmpty else { throw Failure("empty member name in JSON path \"\(text)\"") }
                steps.append(.member(String(name)))
                characters = characters.dropFirst(1 + name.count)
            } else if first == "[" {
                guard let close = characters.firstIndex(of: "]") else {
                    throw Failure("missing \"]\" in JSON path \"\(text)\"")
                }
                steps.append(try Self.bracket(characters[characters.index(after: characters.startIndex)..<close], text))
                characters = characters[characters.index(after: close)...]
            } else {
                throw Failure("expected \".\" or \"[\" in JSON path \"\(text)\", found \"\(first)\"")
            }
        }
        self.steps = steps
    }

    /// The step inside `[…]`: a quoted member name or an index.
    private static func bracket(_ inside: Substring, _ text: String) throws(Failure) -> Step {
        if let quote = inside.first, quote == "'" || quote == "\"" {
            guard inside.count >= 2, inside.last == quote else {
                throw Failure("unterminated member name in JSON path \"\(text)\"")
            }
            return .member(String(inside.dropFirst().dropLast()))
        }
        guard let index = Int(inside), index >= 0 else {
            throw Failure("expected an index from 0 or a quoted name in \"[\(inside)]\" of JSON path \"\(text)\"")
        }
        return .element(index)
    }

    /// The value at this path in `root`, or `nil` when a step finds nothing.
    func value(in root: JSONValue) -> JSONValue? {
        var current = root
        for step in steps {
            switch (step, current) {
            case (.member(let name), .object(let members)):
                guard let member = members[name] else { return nil }
                current = member
            case (.element(let index), .array(let elements)):
                guard elements.indices.contains(index) else { return nil }
                current = elements[index]
            default:
                return nil
            }
        }
        return current
    }

    /// Why a path cannot be read.
    struct Failure: Error {
        let message: String

        init(_ message: String) {
            self.message = message
        }
    }
}
