#if canImport(CNetTapCurl)
import Foundation
import FoundationNetworking

/// One response head as libcurl hands it over, a line at a time, parsed by FoundationNetworking 6.3.1's rules
/// (`_ParsedResponseHeader`, `_HTTPMessage` in `Message.swift` and `HTTPMessage.swift`), so a head the platform
/// rejects is rejected here too.
///
/// The rules: every line ends in CRLF and is UTF-8; the status line is `VERSION SP CODE SP REASON` with a code
/// from 100 to 999 (libcurl writes HTTP/2 heads as `HTTP/2 200 `); a field is a token, a colon and, unless the
/// value is empty, at least one space or tab before the value; a line starting with a space or tab continues
/// the previous field. Repeated names are joined with `", "` in the platform response, by exact name.
struct CurlResponseHead {
    /// Why a head was refused (the transfer is then aborted, as the platform aborts it).
    struct Malformed: Error {}

    private(set) var lines: [String] = []

    /// Adds one raw header line (with its CRLF).
    /// - Returns: `true` when the line was the empty line that ends the head.
    /// - Throws: ``Malformed`` for a line that does not end in CRLF or is not UTF-8.
    mutating func append(_ raw: UnsafeRawBufferPointer) throws -> Bool {
        guard raw.count >= 2, raw[raw.count - 2] == 0x0D, raw[raw.count - 1] == 0x0A else { throw Malformed() }
        let content = UnsafeRawBufferPointer(rebasing: raw[0..<(raw.count - 2)])
        if content.isEmpty { return true }
        guard let line = String(validating: content, as: UTF8.self) else { throw Malformed() }
        lines.append(line)
        return false
    }

    /// Forgets the lines (an interim 1xx head, or a head already used).
    mutating func reset() { lines = [] }

    /// The parsed head: version, status and the fields in order.
    /// - Throws: ``Malformed`` when the platform would not accept it.
    func parsed() throws -> (version: String, statusCode: Int, fields: [(name: String, value: String)]) {
        guard let statusLine = lines.first else { throw Malformed() }
        let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, let code = Int(parts[1]), (100...999).contains(code) else { throw Malformed() }
        var fields: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            if let first = line.utf8.first, first == 0x20 || first == 0x09 {
                guard let last = fields.popLast(), let piece = Self.trimmingLeadingBlanks(Substring(line)) else {
                    throw Malformed()
                }
                fields.append((last.name, last.value.isEmpty ? String(piece) : last.value + " " + piece))
                continue
            }
            fields.append(try Self.field(line))
        }
        return (String(parts[0]), code, fields)
    }

    /// `name: value`, by the platform's rules (see the type's documentation).
    private static func field(_ line: String) throws -> (name: String, value: String) {
        guard let colon = line.firstIndex(of: ":"), colon != line.startIndex,
            line[..<colon].unicodeScalars.allSatisfy(HTTPToken.isTokenCharacter)
        else { throw Malformed() }
        let rest = line[line.index(after: colon)...]
        if rest.isEmpty || rest == " " || rest == "\t" { return (String(line[..<colon]), "") }
        guard let value = trimmingLeadingBlanks(rest) else { throw Malformed() }
        return (String(line[..<colon]), String(value))
    }

    /// The text after one or more leading spaces or tabs; `nil` when there are none or nothing follows them.
    private static func trimmingLeadingBlanks(_ text: Substring) -> Substring? {
        guard let start = text.firstIndex(where: { $0 != " " && $0 != "\t" }), start != text.startIndex else {
            return nil
        }
        return text[start...]
    }

    /// The platform response for a parsed head (`HTTPURLResponse(message:URL:)`).
    static func platformResponse(
        url: URL,
        version: String,
        statusCode: Int,
        fields: [(name: String, value: String)]
    ) -> HTTPURLResponse? {
        var joined: [String: String] = [:]
        for (name, value) in fields {
            if let existing = joined[name] { joined[name] = existing + ", " + value } else { joined[name] = value }
        }
        return HTTPURLResponse(url: url, statusCode: statusCode, httpVersion: version, headerFields: joined)
    }
}
#endif
