import Foundation

/// A response head the inspector server writes: status line and fields, serialized as RFC 9112 §4 says.
package struct HTTPResponseHead: Sendable, Equatable {
    /// The status code.
    package var status: Int
    /// The header fields, in order.
    package var fields: [(name: String, value: String)]

    /// Creates a head.
    package init(status: Int, fields: [(name: String, value: String)] = []) {
        self.status = status
        self.fields = fields
    }

    /// A response head the server closes the connection after: `Content-Type`, `Content-Length`,
    /// `Cache-Control: no-store` and `Connection: close`.
    package static func closing(_ status: Int, _ contentType: String, count: Int) -> HTTPResponseHead {
        HTTPResponseHead(
            status: status,
            fields: [
                ("Content-Type", contentType), ("Content-Length", "\(count)"), ("Cache-Control", "no-store"),
                ("Connection", "close"),
            ]
        )
    }

    /// `HTTP/1.1 101 Switching Protocols` CRLF, each field CRLF, then an empty line.
    package var bytes: [UInt8] {
        var text = "HTTP/1.1 \(status) \(Self.reasonPhrase(for: status))\r\n"
        for field in fields { text += "\(field.name): \(field.value)\r\n" }
        return Array((text + "\r\n").utf8)
    }

    /// The RFC 9110 §15 reason phrase of the statuses the server uses; `Status` for others.
    package static func reasonPhrase(for status: Int) -> String {
        switch status {
        case 101: "Switching Protocols"
        case 200: "OK"
        case 204: "No Content"
        case 400: "Bad Request"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 409: "Conflict"
        case 413: "Content Too Large"
        case 426: "Upgrade Required"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 505: "HTTP Version Not Supported"
        default: "Status"
        }
    }

    package static func == (lhs: HTTPResponseHead, rhs: HTTPResponseHead) -> Bool {
        lhs.status == rhs.status && lhs.fields.map { [$0.name, $0.value] } == rhs.fields.map { [$0.name, $0.value] }
    }
}
