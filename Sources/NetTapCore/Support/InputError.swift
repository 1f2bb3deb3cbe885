import Foundation

/// A user's input file that cannot be used — a `nettap.json`, a mocks file, a HAR file or cassette — naming the
/// file, the place in it and what is wrong.
///
/// ```
/// nettap.json:3:7: invalid JSON: unexpected "}" where the value of "port" should be
/// nettap.json: $.mocks.scenarios[0].stubs[2].match.pathRgex: unknown key "pathRgex"; did you mean "pathRegex"?
/// export.har: $.log.entries[0].request: missing required field "url"
/// ```
///
/// Syntax errors carry a ``line`` and ``column``; every other error carries the JSON ``path`` of the value
/// at fault. ``ConfigurationError`` and `HARError` are this type under the names of the inputs they describe.
public struct InputError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The input's name, usually the file name such as `nettap.json`; `nil` for input built in code.
    public var source: String?
    /// The JSON path of the offending value, for example `$.mocks.scenarios[0].stubs[2].match.pathRegex`;
    /// `$` for the whole document, empty for an error about the file itself (`nope.json: no such file`).
    public var path: String
    /// What is wrong, for example `expected a string, found a number`.
    public var message: String
    /// The 1-based line of a JSON syntax error, when known.
    public var line: Int?
    /// The 1-based column (in characters) of a JSON syntax error, when known.
    public var column: Int?

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - source: The input's name, or `nil`.
    ///   - path: The JSON path of the offending value.
    ///   - message: What is wrong.
    ///   - line: The 1-based line, for syntax errors.
    ///   - column: The 1-based column, for syntax errors.
    public init(source: String? = nil, path: String = "$", message: String, line: Int? = nil, column: Int? = nil) {
        self.source = source
        self.path = path
        self.message = message
        self.line = line
        self.column = column
    }

    /// One line: `source:line:column: message` for syntax errors, `source: path: message` otherwise, and
    /// `source: message` for an error about the file itself (an empty ``path``).
    ///
    /// Without a ``source`` the name and its separator are left out: `3:7: message` or `$.a.b: message`.
    public var description: String {
        let place: String
        if let line, let column {
            place = source.map { "\($0):\(line):\(column)" } ?? "\(line):\(column)"
        } else if path.isEmpty {
            return source.map { "\($0): \(message)" } ?? message
        } else {
            place = source.map { "\($0): \(path)" } ?? path
        }
        return "\(place): \(message)"
    }
}

extension InputError: LocalizedError {
    /// The same text as `description`, so `localizedDescription` (what apps and test reports show) names
    /// the input and the place too.
    public var errorDescription: String? { description }
}
