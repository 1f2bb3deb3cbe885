import Foundation

/// Why the inspector server refused a request head, and the status it answers with before closing the
/// connection.
package struct HTTPRequestError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The HTTP status to answer: 400 (malformed), 413 (a body), 431 (head too large), 501 (not implemented),
    /// 505 (version).
    package var status: Int
    /// What was wrong, in a few words.
    package var reason: String
    /// The line of the head it was found on, from 1; 0 when it concerns the whole head.
    package var line: Int

    /// Creates an error.
    package init(status: Int, reason: String, line: Int) {
        self.status = status
        self.reason = reason
        self.line = line
    }

    /// `line 3: whitespace between the field name and the colon (RFC 9112 §5.1)`.
    package var description: String { line > 0 ? "line \(line): \(reason)" : reason }

    static func malformed(_ reason: String, line: Int) -> HTTPRequestError {
        HTTPRequestError(status: 400, reason: reason, line: line)
    }
}
