import Foundation
import NetTapCore

/// The request line: `METHOD SP request-target SP HTTP-version` (RFC 9112 §3), one space between each.
enum HTTPRequestLine {
    /// A head with the request line's parts and no fields yet.
    static func parse(_ line: ArraySlice<UInt8>) throws(HTTPRequestError) -> HTTPRequestHead {
        let parts = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty }) else {
            throw .malformed("the request line is not METHOD SP target SP version (RFC 9112 §3)", line: 1)
        }
        guard HTTPToken.isToken(parts[0]) else { throw .malformed("the method is not a token", line: 1) }
        let version = try self.version(parts[2])
        let target = String(decoding: parts[1], as: UTF8.self)
        guard parts[1].allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw .malformed("the request target holds whitespace, control or non-ASCII bytes", line: 1)
        }
        var head = HTTPRequestHead(
            method: String(decoding: parts[0], as: UTF8.self),
            target: target,
            path: "/",
            query: nil,
            targetAuthority: nil,
            version: version,
            fields: HeaderFields()
        )
        try locate(target, in: &head)
        return head
    }

    /// `HTTP/1.1` or `HTTP/1.0`; 505 for another HTTP version, 400 for text that is not one.
    private static func version(_ bytes: ArraySlice<UInt8>) throws(HTTPRequestError) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        if text == "HTTP/1.1" || text == "HTTP/1.0" { return text }
        let digits = text.dropFirst(5)
        if text.hasPrefix("HTTP/"), digits.count == 3, digits.dropFirst().first == ".",
            digits.allSatisfy({ $0 == "." || $0.isASCII && $0.isNumber })
        {
            throw HTTPRequestError(status: 505, reason: "\(text) is not supported; use HTTP/1.1", line: 1)
        }
        throw .malformed("the version is not HTTP/1.1", line: 1)
    }

    /// The path, query and authority of an origin-form or absolute-form target.
    private static func locate(_ target: String, in head: inout HTTPRequestHead) throws(HTTPRequestError) {
        if target.hasPrefix("/") {
            let pieces = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
            head.path = String(pieces[0])
            head.query = pieces.count > 1 ? String(pieces[1]) : nil
            return
        }
        guard let components = URLComponents(string: target),
            let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = components.percentEncodedHost, !host.isEmpty
        else {
            throw .malformed("the request target is neither a path nor an http URL", line: 1)
        }
        head.path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        head.query = components.percentEncodedQuery
        head.targetAuthority = components.port.map { "\(host):\($0)" } ?? host
    }
}
