import Foundation
import NetTapCore
import NetTapCrypto
import NetTapTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Trust rules for development hosts on the libcurl transport, against the TLS front's listener whose certificate
/// an untrusted CA signed: without a rule the request fails as it does direct; with the CA or the key pinned it
/// goes through; nothing else is trusted more.
@Suite("Trust rules: HTTPS to a development host with a certificate the system does not trust")
struct TrustRuleTests {
    func status(_ rules: [TrustRule], gate: ActivationGate? = nil, url: URL) async -> Result<Int, URLError> {
        let interceptor = gate.map { NetTapInterceptor(gate: $0) } ?? NetTapInterceptor()
        interceptor.transport = CurlTransport.shared
        interceptor.trustRules = rules
        let session = interceptor.makeSession()
        defer { session.invalidateAndCancel() }
        do {
            let (_, response) = try await session.data(for: URLRequest(url: url))
            return .success((response as? HTTPURLResponse)?.statusCode ?? 0)
        } catch {
            return .failure(error as? URLError ?? URLError(.unknown))
        }
    }

    func pin(_ front: TLSFront) throws -> String {
        let key = try front.authority.subjectPublicKeyInfo(of: front.authority.untrustedServer.certificate)
        return try StreamingDigest.hash(key, using: .sha256).base64EncodedString()
    }

    @Test("without a rule the untrusted certificate fails; with its CA or its pinned key the request succeeds")
    func trusted() async throws {
        try #require(CurlTransport.shared.isAvailable)
        let front = try await TLSFront.shared()
        let url = front.untrustedURL("/get?trust=1")
        guard case .failure(let refused) = await status([], url: url) else {
            Issue.record("the untrusted certificate was accepted without a rule")
            return
        }
        #expect(refused.localizedDescription.contains("SSL certificate problem"))
        let authority = try TrustRule(host: "127.0.0.1", certificateAuthority: front.authority.untrustedCertificate)
        #expect(try await status([authority], url: url).get() == 200)
        let pinned = try TrustRule(host: "127.0.0.1", publicKeySHA256: "sha256//" + pin(front))
        #expect(try await status([pinned], url: url).get() == 200)
    }

    @Test("a wrong pin, a rule for another host and a release build all leave the certificate refused")
    func notTrusted() async throws {
        try #require(CurlTransport.shared.isAvailable)
        let front = try await TLSFront.shared()
        let url = front.untrustedURL("/get?trust=2")
        let wrongPin = try TrustRule(
            host: "127.0.0.1",
            publicKeySHA256: Data(repeating: 7, count: 32).base64EncodedString()
        )
        #expect(wrongPin.applies(to: url))
        guard case .failure = await status([wrongPin], url: url) else {
            Issue.record("a wrong pin was accepted")
            return
        }
        let otherHost = try TrustRule(
            host: "dev.example.com",
            certificateAuthority: front.authority.untrustedCertificate
        )
        guard case .failure = await status([otherHost], url: url) else {
            Issue.record("a rule for another host trusted 127.0.0.1")
            return
        }
        let notices = Locked<[String]>([])
        let release = ActivationGate(
            isDebugBuild: false,
            environmentValue: { "1" },
            isEnabledInReleaseBuilds: { true },
            write: { line in notices.withLock { $0.append(line) } }
        )
        let authority = try TrustRule(host: "127.0.0.1", certificateAuthority: front.authority.untrustedCertificate)
        guard case .failure = await status([authority], gate: release, url: url) else {
            Issue.record("a release build applied a trust rule")
            return
        }
        #expect(notices.withLock { $0 }.contains { $0.contains("trust rules are ignored in release builds") })
    }

    @Test("bad rules are refused with the input named")
    func badRules() throws {
        let missing = URL(fileURLWithPath: "/nonexistent/dev-ca.pem")
        let noFile = #expect(throws: TrustRuleError.self) {
            try TrustRule(host: "dev.local", certificateAuthority: missing)
        }
        #expect(noFile?.description == "cannot read the CA file /nonexistent/dev-ca.pem: no such file")
        let short = #expect(throws: TrustRuleError.self) {
            try TrustRule(host: "dev.local", publicKeySHA256: "sha256//abc")
        }
        #expect(short?.description.contains("\"abc\" is not a SHA-256 digest") == true)
        #expect(throws: TrustRuleError.self) {
            try TrustRule(host: "regex:(", publicKeySHA256: String(repeating: "A", count: 43) + "=")
        }
    }
}
