import Foundation
import NetTapAudit
import NetTapCore
import NetTapTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A transport that reports a TLS session, as the libcurl transport does.
private struct TLSSessionTransport: Transport {
    let tls: TLSDetails

    func send(_ request: URLRequest, context: TransactionContext) async throws -> HandlerResponse {
        var wire = WireDetails(transport: WireDetails.libcurl)
        wire.tls = tls
        context.wire = wire
        return HandlerResponse(statusCode: 200, url: request.url)
    }
}

@Suite("Audit: TLS below 1.2 and certificates near their end")
struct TLSRuleTests {
    func findings(_ tls: TLSDetails, disabled: Set<AuditRule> = []) async throws -> [Finding] {
        let harness = PipelineHarness(
            handlers: [AuditHandler(disabledRules: disabled)],
            transport: TLSSessionTransport(tls: tls)
        )
        let url = try #require(URL(string: "https://legacy.example.com/v1/items"))
        return try await harness.send(URLRequest(url: url)).findings
    }

    func tls(_ version: String, validForDays days: Double) -> TLSDetails {
        TLSDetails(
            protocolVersion: version,
            cipher: "ECDHE-RSA-AES128-SHA",
            subject: "CN=legacy.example.com,O=Example",
            issuer: "CN=Example CA",
            validFrom: Date().addingTimeInterval(-86_400 * 300),
            validTo: Date().addingTimeInterval(86_400 * days)
        )
    }

    @Test(
        "TLS 1.0 and 1.1 and SSL 3 are high findings; TLS 1.2 and 1.3 are none",
        arguments: [
            ("TLSv1", true), ("TLSv1.1", true), ("SSLv3", true), ("TLSv1.2", false), ("TLSv1.3", false),
        ]
    )
    func version(version: String, reported: Bool) async throws {
        let found = try await findings(tls(version, validForDays: 90)).filter { $0.rule == AuditRule.tlsVersion.id }
        #expect(found.count == (reported ? 1 : 0))
        if let finding = found.first {
            #expect(finding.severity == .high)
            #expect(finding.message.contains(version) && finding.message.contains("legacy.example.com"))
            #expect(finding.details["url"] == "https://legacy.example.com/v1/items")
        }
    }

    @Test("a certificate ending within 14 days is medium, an expired one high, one ending in 15 days none")
    func expiry() async throws {
        let rule = AuditRule.tlsCertificateExpiry.id
        let soon = try await findings(tls("TLSv1.3", validForDays: 3.5)).filter { $0.rule == rule }
        #expect(soon.map(\.severity) == [.medium])
        #expect(soon.first?.message.contains("in 3 days") == true)
        #expect(soon.first?.details["subject"] == "legacy.example.com")
        let expired = try await findings(tls("TLSv1.3", validForDays: -1)).filter { $0.rule == rule }
        #expect(expired.map(\.severity) == [.high])
        #expect(expired.first?.message.contains("expired") == true)
        #expect(try await findings(tls("TLSv1.3", validForDays: 15)).filter { $0.rule == rule }.isEmpty)
    }

    @Test("disabled TLS rules stay silent")
    func disabled() async throws {
        let found = try await findings(
            tls("TLSv1", validForDays: 1),
            disabled: [.tlsVersion, .tlsCertificateExpiry]
        )
        #expect(found.isEmpty)
    }
}
