/// Finds the likely fault in a regular expression that `NSRegularExpression` rejected.
///
/// Foundation on Linux (and often on Apple platforms) reports only "the value is invalid", without a
/// reason or position, so this scans the pattern for the common mistakes: an unclosed group or character
/// class, an unmatched `)`, a quantifier with nothing to repeat and a trailing backslash.
enum RegularExpressionDiagnosis {
    /// The reason and 0-based character offset of the first fault found, or a general reason without an
    /// offset.
    static func diagnose(_ pattern: String) -> (message: String, offset: Int?) {
        let characters = Array(pattern)
        var openGroups: [Int] = []
        var canRepeat = false
        var index = 0
        while index < characters.count {
            let character = characters[index]
            switch character {
            case "\\":
                guard index + 1 < characters.count else {
                    return ("trailing \"\\\" escapes nothing at character \(index + 1)", index)
                }
                index += 1
                canRepeat = true
            case "[":
                guard let end = closingBracket(ofClassAt: index, in: characters) else {
                    return ("missing \"]\" to close \"[\" at character \(index + 1)", index)
                }
                index = end
                canRepeat = true
            case "(":
                openGroups.append(index)
                canRepeat = false
                if index + 1 < characters.count, characters[index + 1] == "?" { index += 1 }
            case ")":
                guard openGroups.popLast() != nil else {
                    return ("unmatched \")\" at character \(index + 1)", index)
                }
                canRepeat = true
            case "|":
                canRepeat = false
            case "*", "+", "?":
                guard canRepeat else {
                    return ("\"\(character)\" has nothing to repeat at character \(index + 1)", index)
                }
                // A lazy (`*?`) or possessive (`*+`) suffix belongs to the quantifier.
                if index + 1 < characters.count, "?+".contains(characters[index + 1]) { index += 1 }
                canRepeat = false
            default:
                canRepeat = true
            }
            index += 1
        }
        if let start = openGroups.last {
            return ("missing \")\" to close \"(\" at character \(start + 1)", start)
        }
        // The standard library's regex parser reads nearly the same syntax and says what is wrong in words.
        do {
            _ = try Regex(pattern)
        } catch {
            return ("\(error) (ICU syntax)", nil)
        }
        return ("not a valid regular expression (ICU syntax)", nil)
    }

    /// The offset of the `]` that closes the character class opened at `start`, or `nil` when the pattern ends
    /// first; a `]` right after `[` or `[^` is a literal, and a backslash escapes the character after it.
    private static func closingBracket(ofClassAt start: Int, in characters: [Character]) -> Int? {
        var index = start + 1
        while index < characters.count {
            let isFirst = index == start + 1 || (index == start + 2 && characters[start + 1] == "^")
            if characters[index] == "\\" {
                index += 1
            } else if characters[index] == "]" && !isFirst {
                return index
            }
            index += 1
        }
        return nil
    }
}
