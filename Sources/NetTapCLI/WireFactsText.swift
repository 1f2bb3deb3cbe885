import Foundation
import NetTapCore

/// The lines `nettap fetch -v` prints about what went over the wire: the transport, the protocol, the
/// connection, each phase, the TLS session and certificate, then the request head as sent (curl's `>` lines).
///
/// ```
/// wire: transport libcurl, HTTP/1.1
/// wire: remote 127.0.0.1 port 8080
/// wire: local port 51234, new connection
/// wire: phases dns 0.1 ms, connect 0.2 ms, ssl -, send 0.0 ms, wait 1.9 ms, receive 0.1 ms
/// wire: TLS none
/// > GET /get HTTP/1.1
/// > Host: 127.0.0.1:8080
/// ```
enum WireFactsText {
    /// The lines for a transaction, each ending with a newline.
    ///
    /// - Parameter transaction: The captured (and redacted) transaction.
    /// - Returns: The wire facts, or one line saying there are none, then the request head.
    static func text(for transaction: CapturedTransaction) -> String {
        var lines: [String]
        if let wire = transaction.wire {
            lines = connectionLines(wire) + [phasesLine(wire.phases)] + tlsLines(wire.tls)
        } else {
            lines = ["wire: none (answered by \(transaction.answeredBy), not sent by a transport)"]
        }
        lines += requestHead(transaction)
        return lines.map { $0 + "\n" }.joined()
    }

    /// Transport and protocol, remote address and port, local port and connection reuse.
    private static func connectionLines(_ wire: WireDetails) -> [String] {
        let reuse =
            wire.isNewConnection.map { $0 ? "new connection" : "reused connection" } ?? "connection reuse unknown"
        return [
            "wire: transport \(wire.transport), \(wire.httpVersion ?? "HTTP version unknown")",
            "wire: remote \(wire.remoteAddress ?? "unknown") port \(wire.remotePort.map(String.init) ?? "unknown")",
            "wire: local port \(wire.localPort.map(String.init) ?? "unknown"), \(reuse)",
        ]
    }

    /// Each phase in milliseconds, `-` for one that did not happen.
    private static func phasesLine(_ phases: WirePhases?) -> String {
        guard let phases else { return "wire: phases unknown" }
        let all = [
            ("dns", phases.dns), ("connect", phases.connect), ("ssl", phases.ssl), ("send", phases.send),
            ("wait", phases.wait), ("receive", phases.receive),
        ]
        let parts = all.map { name, value in value < 0 ? "\(name) -" : "\(name) \(Formatting.milliseconds(value)) ms" }
        return "wire: phases " + parts.joined(separator: ", ")
    }

    /// The TLS version and cipher, and the certificate's subject, issuer and validity; `TLS none` without TLS.
    private static func tlsLines(_ tls: TLSDetails?) -> [String] {
        guard let tls else { return ["wire: TLS none"] }
        let formatter = ISO8601DateFormatter()
        let validity = [tls.validFrom, tls.validTo].map { $0.map(formatter.string(from:)) ?? "?" }
        return [
            "wire: TLS \(tls.protocolVersion), cipher \(tls.cipher ?? "unknown")",
            "wire: certificate subject \(tls.subject ?? "unknown")",
            "wire: certificate issuer \(tls.issuer ?? "unknown")",
            "wire: certificate valid from \(validity[0]) to \(validity[1])",
        ]
    }

    /// The request line and header fields as sent (libcurl's header block when it sent the request).
    private static func requestHead(_ transaction: CapturedTransaction) -> [String] {
        let request = transaction.request
        var target = request.url.path.isEmpty ? "/" : request.url.path
        if let query = request.url.query { target += "?" + query }
        let version = transaction.negotiatedHTTPVersion ?? "HTTP/1.1"
        return ["> \(request.method) \(target) \(version)"] + request.headers.map { "> \($0.name): \($0.value)" }
    }
}
