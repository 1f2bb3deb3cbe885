import Foundation

/// The checks on a whole request head: `Host` (RFC 9112 §3.2) and no request body.
enum HTTPRequestRules {
    static func check(_ head: HTTPRequestHead) throws(HTTPRequestError) {
        let hosts = head.fields.values(for: "Host")
        if head.version == "HTTP/1.1", hosts.count != 1 {
            throw .malformed(hosts.isEmpty ? "no Host field (RFC 9112 §3.2)" : "more than one Host field", line: 0)
        }
        if hosts.count > 1 { throw .malformed("more than one Host field", line: 0) }
        if !head.fields.values(for: "Transfer-Encoding").isEmpty {
            throw HTTPRequestError(status: 501, reason: "Transfer-Encoding: request bodies are not accepted", line: 0)
        }
        let lengths = Set(head.fields.values(for: "Content-Length"))
        guard let length = lengths.first else { return }
        guard lengths.count == 1, !length.isEmpty, length.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw .malformed("an invalid Content-Length", line: 0)
        }
        if length.contains(where: { $0 != "0" }) {
            throw HTTPRequestError(status: 413, reason: "a request body: the inspector accepts none", line: 0)
        }
    }
}
