import Foundation

/// A rewrite rule that cannot be built: it names what was given and what is wrong with it.
///
/// ```
/// invalid map remote URL "api.example.com/v1": missing scheme; write "https://api.example.com/v1"
/// invalid JSON path "$.user.": a name must follow "." at character 8
/// invalid header name "X Debug": a header name is a token (letters, digits and !#$%&'*+-.^_`|~)
/// ```
public struct RewriteRuleError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What kind of input the rule was given.
    public enum InputKind: String, Sendable, Equatable {
        /// The `from` or `to` URL of a ``MapRemote``.
        case mapRemoteURL = "map remote URL"
        /// The JSON path of a ``BodyReplacement``, such as `$.user.name`.
        case jsonPath = "JSON path"
        /// The JSON value a ``BodyReplacement`` sets.
        case jsonValue = "JSON value"
        /// The name of a ``HeaderEdit``.
        case headerName = "header name"
        /// The value of a ``HeaderEdit``.
        case headerValue = "header value"
        /// The text a ``BodyReplacement`` searches for.
        case searchText = "search text"
    }

    /// The kind of input.
    public var kind: InputKind
    /// The input as given.
    public var input: String
    /// What is wrong, for example `missing scheme`.
    public var message: String
    /// The 0-based offset in characters of the fault in ``input``, when known.
    public var offset: Int?

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - kind: The kind of input.
    ///   - input: The input as given.
    ///   - message: What is wrong; it names the 1-based character position when there is one.
    ///   - offset: The 0-based character offset of the fault, when known.
    public init(kind: InputKind, input: String, message: String, offset: Int? = nil) {
        self.kind = kind
        self.input = input
        self.message = message
        self.offset = offset
    }

    /// `invalid <kind> "<input>": <message>`, on one line: control characters in the input are escaped (`\r`, `\n`,
    /// `\u{1B}`).
    public var description: String {
        let shown = input.unicodeScalars.map { scalar in
            switch scalar {
            case "\r": "\\r"
            case "\n": "\\n"
            case "\t": "\\t"
            default:
                scalar.value < 0x20 || scalar.value == 0x7F ? "\\u{\(String(scalar.value, radix: 16))}" : String(scalar)
            }
        }
        return "invalid \(kind.rawValue) \"\(shown.joined())\": \(message)"
    }
}

extension RewriteRuleError: LocalizedError {
    /// The same text as `description`, so `localizedDescription` names the input too.
    public var errorDescription: String? { description }
}
