import Foundation

/// A HAR file that cannot be read: it names the file, the place in it and what is wrong.
///
/// ```
/// broken.har:5:1: invalid JSON: unexpected character '"' after an array
/// export.har: $.log.entries[0].request: missing required field "url"
/// ```
public struct HARError: Error, CustomStringConvertible, Sendable {
    /// The input's name, usually the file name, for example `broken.har`.
    public var source: String
    /// The JSON path of the offending value, for example `$.log.entries[3].response.status`; `$` for the
    /// whole document, empty for an error about the file itself (`gone.har: cannot read file: no such file`).
    public var path: String
    /// What is wrong, for example `missing required field "url"`.
    public var message: String
    /// The 1-based line of a JSON syntax error, when known.
    public var line: Int?
    /// The 1-based column (in characters) of a JSON syntax error, when known.
    public var column: Int?

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - source: The input's name.
    ///   - path: The JSON path of the offending value.
    ///   - message: What is wrong.
    ///   - line: The 1-based line, for syntax errors.
    ///   - column: The 1-based column, for syntax errors.
    public init(source: String, path: String = "$", message: String, line: Int? = nil, column: Int? = nil) {
        self.source = source
        self.path = path
        self.message = message
        self.line = line
        self.column = column
    }

    /// One line: `source:line:column: message` for syntax errors, `source: path: message` otherwise, and
    /// `source: message` for an error about the file itself (an empty ``path``).
    public var description: String {
        if let line, let column {
            return "\(source):\(line):\(column): \(message)"
        }
        if path.isEmpty { return "\(source): \(message)" }
        return "\(source): \(path): \(message)"
    }
}

extension HARError: LocalizedError {
    /// The same text as `description`, so `localizedDescription` (what apps and test reports show) names
    /// the input and the place too.
    public var errorDescription: String? { description }
}
