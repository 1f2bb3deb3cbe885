import Foundation
import NetTapCore

extension HAREntry {
    /// The HAR fields of what the transport saw on the wire: `serverIPAddress`, `connection` (the local port),
    /// the phases from libcurl's clocks, and `_securityDetails` with the field names and units Chrome's DevTools
    /// Protocol uses (`protocol`, `cipher`, `subjectName`, `issuer`, `validFrom` and `validTo` in seconds since
    /// 1970).
    /// - Parameters:
    ///   - wire: The transaction's wire details.
    ///   - blocked: The entry's `blocked` phase (time before the request reached the network).
    mutating func apply(_ wire: WireDetails, blocked: Double) {
        serverIPAddress = wire.remoteAddress
        connection = wire.localPort.map(String.init)
        if let phases = wire.phases {
            timings = HARTimings(
                blocked: blocked,
                dns: phases.dns,
                connect: phases.connect,
                send: phases.send,
                wait: phases.wait,
                receive: phases.receive,
                ssl: phases.ssl
            )
            time = timings.total
        }
        if let tls = wire.tls { customFields["_securityDetails"] = Self.securityDetails(tls) }
    }

    /// Chrome's `SecurityDetails` object for a TLS session.
    static func securityDetails(_ tls: TLSDetails) -> HARValue {
        var object: [String: HARValue] = ["protocol": .string(tls.protocolVersion)]
        if let cipher = tls.cipher { object["cipher"] = .string(cipher) }
        if let name = tls.subjectName { object["subjectName"] = .string(name) }
        if let issuer = tls.issuer { object["issuer"] = .string(issuer) }
        if let from = tls.validFrom { object["validFrom"] = .integer(Int64(from.timeIntervalSince1970)) }
        if let to = tls.validTo { object["validTo"] = .integer(Int64(to.timeIntervalSince1970)) }
        return .object(object)
    }
}
