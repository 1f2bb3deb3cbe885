import Foundation
import NetTapCore

/// Reads an HTTP/1.x request head from bytes as they arrive (RFC 9112), strictly: the inspector server faces any
/// local program, so whatever is not plainly valid is refused with the status to answer.
///
/// ```swift
/// var parser = HTTPRequestParser()
/// switch try parser.consume(bytes) {
/// case .needMore: break                                  // read more
/// case .head(let head, let remainder): …                 // remainder: bytes after the head
/// }
/// ```
///
/// Accepted: the request line `METHOD SP target SP HTTP/1.1` (or `HTTP/1.0`), header fields `name: value`,
/// lines ending in CRLF or a bare LF (RFC 9112 §2.2), an origin-form (`/path?query`) or absolute-form target.
/// Refused: a head over ``maximumHeadBytes`` or with more than ``maximumFieldCount`` fields (431), a version other
/// than 1.0 and 1.1 (505), a request body or `Transfer-Encoding` (413, 501: the server only answers GETs and
/// WebSocket upgrades), and with 400: a bare CR, line folding, whitespace before a field's colon, a method or
/// field name that is not a token, control characters in a value, a target with whitespace or control
/// characters, a missing or repeated `Host` in HTTP/1.1.
package struct HTTPRequestParser: Sendable {
    /// The largest head accepted, in bytes.
    package static let maximumHeadBytes = 16 * 1024
    /// The most header fields accepted.
    package static let maximumFieldCount = 100

    /// What ``consume(_:)`` found.
    package enum Outcome: Sendable, Equatable {
        /// The head is not complete yet.
        case needMore
        /// The head, and the bytes that followed it.
        case head(HTTPRequestHead, remainder: [UInt8])
    }

    private var buffer: [UInt8] = []
    private var scanned = 0

    /// Creates a parser for one request head.
    package init() {}

    /// Adds bytes and reads the head once it is complete.
    ///
    /// - Parameter bytes: The next bytes from the connection.
    /// - Returns: ``Outcome/needMore``, or the head and what followed it.
    /// - Throws: ``HTTPRequestError`` with the status to answer.
    package mutating func consume(_ bytes: some Sequence<UInt8>) throws(HTTPRequestError) -> Outcome {
        buffer.append(contentsOf: bytes)
        guard let end = endOfHead() else {
            if buffer.count > Self.maximumHeadBytes {
                throw HTTPRequestError(status: 431, reason: "the request head is over 16 KiB", line: 0)
            }
            return .needMore
        }
        guard end.body <= Self.maximumHeadBytes else {
            throw HTTPRequestError(status: 431, reason: "the request head is over 16 KiB", line: 0)
        }
        let head = try Self.head(of: buffer[..<end.head])
        return .head(head, remainder: Array(buffer[end.body...]))
    }

    /// Where the head's text ends (before its empty line) and what follows starts, once the empty line is in.
    private mutating func endOfHead() -> (head: Int, body: Int)? {
        var index = max(0, scanned - 1)
        while index < buffer.count {
            if buffer[index] == UInt8(ascii: "\n") {
                var next = index + 1
                if next < buffer.count, buffer[next] == UInt8(ascii: "\r") { next += 1 }
                if next < buffer.count, buffer[next] == UInt8(ascii: "\n") { return (index + 1, next + 1) }
                if next >= buffer.count { break }
            }
            index += 1
        }
        scanned = max(scanned, index)
        return nil
    }

    /// The head of the complete head text (every line with its line ending).
    private static func head(of text: ArraySlice<UInt8>) throws(HTTPRequestError) -> HTTPRequestHead {
        let lines = try HTTPHeadLines.split(text)
        guard let requestLine = lines.first, !requestLine.isEmpty else {
            throw .malformed("the request line is empty", line: 1)
        }
        var head = try HTTPRequestLine.parse(requestLine)
        guard lines.count - 1 <= maximumFieldCount else {
            throw HTTPRequestError(status: 431, reason: "more than \(maximumFieldCount) header fields", line: 0)
        }
        for (offset, line) in lines.dropFirst().enumerated() {
            let field = try HTTPHeadLines.field(line, line: offset + 2)
            head.fields.add(name: field.name, value: field.value)
        }
        try HTTPRequestRules.check(head)
        return head
    }
}
