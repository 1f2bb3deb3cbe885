import Foundation
import NetTapCore

extension HARNetTapRecord {
    /// What the transport saw on the wire (`CapturedTransaction.wire`) that the standard fields cannot carry, in the
    /// record's `wire` object, so that importing NetTap's own export restores it exactly.
    ///
    /// The server address and the local port travel in the entry's standard `serverIPAddress` and `connection`;
    /// everything else is here:
    ///
    /// ```json
    /// "wire": {"transport": "libcurl", "httpVersion": "HTTP/2", "remotePort": 443, "isNewConnection": true,
    ///          "phases": {"dns": 1.2, "connect": 20.5, "ssl": 12.1, "send": 0, "wait": 40.2, "receive": 3.3},
    ///          "tls": {"protocol": "TLSv1.3", "cipher": "TLS_AES_256_GCM_SHA384", "subject": "CN=example.com",
    ///                  "issuer": "CN=Example CA", "validFrom": 1714000000, "validTo": 1745536000}}
    /// ```
    ///
    /// Reading is lenient: a field of the wrong type is left out, and a `wire` that is not an object reads as
    /// one without a transport, which ``HAREntry/transaction()`` ignores.
    public struct Wire: Codable, Sendable, Hashable {
        /// The transport that sent the request: `libcurl` or `urlsession`.
        public var transport: String?
        /// The negotiated protocol, for example `HTTP/2`.
        public var httpVersion: String?
        /// The server's port.
        public var remotePort: Int?
        /// Whether the request opened a new connection.
        public var isNewConnection: Bool?
        /// Milliseconds each phase took, `-1` for a phase that did not happen.
        public var phases: WirePhases?
        /// The TLS session of an HTTPS request.
        public var tls: TLS?

        /// Creates an empty record.
        public init() {}

        /// Records a transaction's wire details (all but the address and local port, which HAR has fields for).
        ///
        /// - Parameter details: The wire details.
        public init(details: WireDetails) {
            transport = details.transport
            httpVersion = details.httpVersion
            remotePort = details.remotePort
            isNewConnection = details.isNewConnection
            phases = details.phases
            tls = details.tls.map(TLS.init(details:))
        }

        /// Decodes what it can.
        ///
        /// - Parameter decoder: The decoder.
        /// - Throws: Nothing: a field that cannot be read is left out.
        public init(from decoder: any Decoder) throws {
            self.init()
            guard let container = try? decoder.container(keyedBy: HARCodingKey.self) else { return }
            transport = (try? container.lenientString("transport")) ?? nil
            httpVersion = (try? container.lenientString("httpVersion")) ?? nil
            remotePort = (try? container.lenientInt("remotePort")) ?? nil
            isNewConnection = (try? container.lenientBool("isNewConnection")) ?? nil
            phases = (try? container.optional(WirePhases.self, "phases")) ?? nil
            tls = (try? container.optional(TLS.self, "tls")) ?? nil
        }

        /// The wire details of an entry whose server address and local port are given.
        ///
        /// - Parameters:
        ///   - remoteAddress: The entry's `serverIPAddress`.
        ///   - localPort: The entry's `connection` as a port.
        /// - Returns: The details, or `nil` without a transport.
        public func details(remoteAddress: String?, localPort: Int?) -> WireDetails? {
            guard let transport, !transport.isEmpty else { return nil }
            var details = WireDetails(transport: transport)
            details.httpVersion = httpVersion
            details.remoteAddress = remoteAddress
            details.remotePort = remotePort
            details.localPort = localPort
            details.isNewConnection = isNewConnection
            details.phases = phases
            details.tls = tls?.details
            return details
        }
    }
}
