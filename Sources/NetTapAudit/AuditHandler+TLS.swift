import Foundation
import NetTapCore

extension AuditHandler {
    /// How long before a certificate's end `tls.certificate-expiry` warns: 14 days.
    public static let certificateExpiryWarning: TimeInterval = 14 * 24 * 3600

    /// The protocol versions `tls.version` reports (RFC 8996 deprecates TLS 1.0 and 1.1; SSL 3 by RFC 7568).
    static let deprecatedTLSVersions: Set<String> = ["SSLv2", "SSLv3", "TLSv1", "TLSv1.0", "TLSv1.1"]

    /// Findings about an HTTPS exchange's TLS session: an old protocol version, a certificate near its end.
    /// - Parameters:
    ///   - url: The response's URL.
    ///   - tls: The session, as the transport reported it.
    ///   - now: The moment to measure the certificate's remaining validity from.
    /// - Returns: The findings, none for a current protocol and a certificate valid for more than 14 days.
    func tlsFindings(url: URL, tls: TLSDetails, now: Date) -> [Finding] {
        var list = FindingList(disabled: disabledRules, url: url)
        if Self.deprecatedTLSVersions.contains(tls.protocolVersion) {
            list.add(
                .tlsVersion,
                .high,
                at: "tls",
                "\(list.host) negotiated \(tls.protocolVersion), below TLS 1.2: deprecated (RFC 8996) and open to "
                    + "downgrade attacks",
                ["protocol": tls.protocolVersion]
            )
        }
        if let end = tls.validTo, end.timeIntervalSince(now) < Self.certificateExpiryWarning {
            let days = Int((end.timeIntervalSince(now) / 86_400).rounded(.down))
            let expired = end <= now
            list.add(
                .tlsCertificateExpiry,
                expired ? .high : .medium,
                at: "tls certificate",
                expired
                    ? "the certificate of \(list.host) expired on \(Self.day(end))"
                    : "the certificate of \(list.host) expires on \(Self.day(end)), in \(days) days",
                ["validTo": Self.day(end), "subject": tls.subjectName ?? ""]
            )
        }
        return list.findings
    }

    /// A day in ISO 8601 (`2027-01-15`), UTC.
    private static func day(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        return formatter.string(from: date)
    }
}
