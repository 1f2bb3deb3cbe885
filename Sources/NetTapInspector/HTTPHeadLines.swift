import Foundation
import NetTapCore

/// Splitting a request head into lines and reading header fields (RFC 9112 §2.2 and §5).
enum HTTPHeadLines {
    /// The lines of a head text, line endings removed (CRLF, or a bare LF); a bare CR is refused.
    static func split(_ text: ArraySlice<UInt8>) throws(HTTPRequestError) -> [ArraySlice<UInt8>] {
        var lines: [ArraySlice<UInt8>] = []
        var start = text.startIndex
        for index in text.indices where text[index] == UInt8(ascii: "\n") {
            var end = index
            if end > start, text[end - 1] == UInt8(ascii: "\r") { end -= 1 }
            lines.append(text[start..<end])
            start = index + 1
        }
        if start < text.endIndex { lines.append(text[start...]) }
        for (number, line) in lines.enumerated() where line.contains(UInt8(ascii: "\r")) {
            throw .malformed("a CR that does not end the line (RFC 9112 §2.2)", line: number + 1)
        }
        return lines
    }

    /// One `name: value` field line; the value without surrounding spaces and tabs.
    static func field(
        _ line: ArraySlice<UInt8>,
        line number: Int
    ) throws(HTTPRequestError) -> (
        name: String, value: String
    ) {
        guard let first = line.first else { throw .malformed("an empty field line", line: number) }
        if first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") {
            throw .malformed("a folded field line (obs-fold, RFC 9112 §5.2)", line: number)
        }
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
            throw .malformed("a field line without a colon", line: number)
        }
        let name = line[line.startIndex..<colon]
        if let last = name.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") {
            throw .malformed("whitespace between the field name and the colon (RFC 9112 §5.1)", line: number)
        }
        guard HTTPToken.isToken(name) else {
            throw .malformed("the field name is not a token (RFC 9110 §5.1)", line: number)
        }
        let value = line[(colon + 1)...].drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        let trimmed = value.reversed().drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }.reversed()
        if trimmed.contains(where: { ($0 < 0x20 && $0 != UInt8(ascii: "\t")) || $0 == 0x7F }) {
            throw .malformed(
                "a control character in the value of \(String(decoding: name, as: UTF8.self))",
                line: number
            )
        }
        return (String(decoding: name, as: UTF8.self), String(decoding: trimmed, as: UTF8.self))
    }
}
