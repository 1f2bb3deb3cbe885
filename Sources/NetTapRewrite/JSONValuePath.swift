/// A path to values in a JSON document, in the JSONPath notation RFC 9535 uses for single values and wildcards.
///
/// `$` is the document; `.name` or `["name"]` (also `['name']`) an object member; `[2]` an array element from 0,
/// `[-1]` the last; `[*]` or `.*` every element or member. `$.user.name`, `$.items[0].price`,
/// `$.items[*].price`, `$["content-type"]`.
struct JSONValuePath: Sendable, Hashable, CustomStringConvertible {
    /// One step from a value to the values inside it.
    enum Step: Sendable, Hashable {
        /// An object member by name.
        case member(String)
        /// An array element by index; a negative index counts from the end (`-1` is the last).
        case index(Int)
        /// Every member of an object or element of an array.
        case wildcard
    }

    /// The path as written.
    let description: String
    /// The steps from the document.
    let steps: [Step]

    /// Reads a path.
    ///
    /// - Parameter text: The path, starting with `$`.
    /// - Throws: ``RewriteRuleError`` naming the character where the path stops making sense.
    init(parsing text: String) throws(RewriteRuleError) {
        description = text
        let characters = Array(text)
        guard characters.first == "$" else {
            throw Self.failure(text, "a JSON path starts with \"$\" (the document), as in \"$.user.name\"", at: 0)
        }
        var steps: [Step] = []
        var index = 1
        while index < characters.count {
            let (step, next) = try Self.step(in: characters, at: index, text: text)
            steps.append(step)
            index = next
        }
        self.steps = steps
    }

    /// The step starting at `index` (a `.` or a `[`) and the index after it.
    private static func step(
        in characters: [Character],
        at index: Int,
        text: String
    ) throws(RewriteRuleError) -> (Step, Int) {
        switch characters[index] {
        case ".":
            var end = index + 1
            while end < characters.count, characters[end] != ".", characters[end] != "[" { end += 1 }
            let name = String(characters[(index + 1)..<end])
            guard !name.isEmpty else {
                throw failure(text, "a name must follow \".\" at character \(index + 2)", at: index + 1)
            }
            return (name == "*" ? .wildcard : .member(name), end)
        case "[":
            return try bracketStep(in: characters, at: index, text: text)
        default:
            throw failure(
                text,
                "expected \".\" or \"[\" at character \(index + 1), found \"\(characters[index])\"",
                at: index
            )
        }
    }

    /// The step of a `[…]` at `index`: `[*]`, `[3]`, `[-1]`, `["name"]` or `['name']`.
    private static func bracketStep(
        in characters: [Character],
        at index: Int,
        text: String
    ) throws(RewriteRuleError) -> (Step, Int) {
        var cursor = index + 1
        guard cursor < characters.count else { throw failure(text, "unclosed \"[\"", at: index) }
        let first = characters[cursor]
        if first == "\"" || first == "'" {
            var name = ""
            cursor += 1
            while cursor < characters.count, characters[cursor] != first {
                if characters[cursor] == "\\", cursor + 1 < characters.count { cursor += 1 }
                name.append(characters[cursor])
                cursor += 1
            }
            guard cursor + 1 < characters.count, characters[cursor + 1] == "]" else {
                throw failure(
                    text,
                    "a quoted name must end with \(first)] (character \(index + 1) opens it)",
                    at: index
                )
            }
            return (.member(name), cursor + 2)
        }
        guard let close = characters[cursor...].firstIndex(of: "]") else {
            throw failure(text, "unclosed \"[\" at character \(index + 1)", at: index)
        }
        let inside = String(characters[cursor..<close])
        if inside == "*" { return (.wildcard, close + 1) }
        guard let number = Int(inside), inside.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "-") }) else {
            throw failure(
                text,
                "expected an index, * or a quoted name in brackets at character \(index + 1), found \"[\(inside)]\"",
                at: index
            )
        }
        return (.index(number), close + 1)
    }

    private static func failure(_ text: String, _ message: String, at offset: Int) -> RewriteRuleError {
        RewriteRuleError(kind: .jsonPath, input: text, message: message, offset: offset)
    }
}
