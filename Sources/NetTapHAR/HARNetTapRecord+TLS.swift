import Foundation
import NetTapCore

extension HARNetTapRecord.Wire {
    /// A TLS session (`TLSDetails`) in the record: the full certificate subject, which Chrome's
    /// `_securityDetails` shortens to its common name, and the validity in seconds since 1970.
    public struct TLS: Codable, Sendable, Hashable {
        /// The protocol version, for example `TLSv1.3`.
        public var protocolVersion: String?
        /// The cipher suite.
        public var cipher: String?
        /// The certificate's subject (RFC 2253).
        public var subject: String?
        /// The certificate's issuer (RFC 2253).
        public var issuer: String?
        /// The start of the certificate's validity, in seconds since 1970.
        public var validFrom: Double?
        /// The end of the certificate's validity, in seconds since 1970.
        public var validTo: Double?

        private enum CodingKeys: String, CodingKey {
            case protocolVersion = "protocol"
            case cipher, subject, issuer, validFrom, validTo
        }

        /// Records a TLS session.
        ///
        /// - Parameter details: The session.
        public init(details: TLSDetails) {
            protocolVersion = details.protocolVersion
            cipher = details.cipher
            subject = details.subject
            issuer = details.issuer
            validFrom = details.validFrom?.timeIntervalSince1970
            validTo = details.validTo?.timeIntervalSince1970
        }

        /// Decodes what it can.
        ///
        /// - Parameter decoder: The decoder.
        /// - Throws: Nothing: a field that cannot be read is left out.
        public init(from decoder: any Decoder) throws {
            guard let container = try? decoder.container(keyedBy: HARCodingKey.self) else { return }
            protocolVersion = (try? container.lenientString("protocol")) ?? nil
            cipher = (try? container.lenientString("cipher")) ?? nil
            subject = (try? container.lenientString("subject")) ?? nil
            issuer = (try? container.lenientString("issuer")) ?? nil
            validFrom = (try? container.lenientDouble("validFrom")) ?? nil
            validTo = (try? container.lenientDouble("validTo")) ?? nil
        }

        /// The session, or `nil` without a protocol version.
        public var details: TLSDetails? {
            guard let protocolVersion, !protocolVersion.isEmpty else { return nil }
            return TLSDetails(
                protocolVersion: protocolVersion,
                cipher: cipher,
                subject: subject,
                issuer: issuer,
                validFrom: validFrom.map(Date.init(timeIntervalSince1970:)),
                validTo: validTo.map(Date.init(timeIntervalSince1970:))
            )
        }
    }
}
