import Foundation
import NetTapCore

extension ReportPayload {
    /// What the detail pane shows of `CapturedTransaction.wire`: the connection, the protocol, the phases and TLS.
    struct Wire: Encodable {
        var transport: String
        var httpVersion: String?
        /// `address:port` (`[address]:port` for IPv6), or the part known.
        var remote: String?
        var localPort: Int?
        var isNewConnection: Bool?
        /// `dns 0.3 ms, connect 3.5 ms, …`, the phases that happened.
        var phases: String?
        var tlsProtocol: String?
        var cipher: String?
        var subject: String?
        var issuer: String?
        /// Milliseconds since 1970.
        var validFrom: Double?
        /// Milliseconds since 1970.
        var validTo: Double?

        init(_ wire: WireDetails) {
            transport = wire.transport
            httpVersion = wire.httpVersion
            remote = Self.remote(address: wire.remoteAddress, port: wire.remotePort)
            localPort = wire.localPort
            isNewConnection = wire.isNewConnection
            phases = wire.phases.map { phases in
                WaterfallSegments.spans(of: phases).map { "\($0.0) \(ReportFormat.milliseconds($0.1))" }
                    .joined(separator: ", ")
            }
            tlsProtocol = wire.tls?.protocolVersion
            cipher = wire.tls?.cipher
            subject = wire.tls?.subject
            issuer = wire.tls?.issuer
            validFrom = wire.tls?.validFrom.map { $0.timeIntervalSince1970 * 1000 }
            validTo = wire.tls?.validTo.map { $0.timeIntervalSince1970 * 1000 }
        }

        /// `address:port`, `[address]:port` for an IPv6 address, or whichever is known.
        static func remote(address: String?, port: Int?) -> String? {
            guard let address else { return port.map { ":\($0)" } }
            guard let port else { return address }
            return address.contains(":") ? "[\(address)]:\(port)" : "\(address):\(port)"
        }
    }
}
