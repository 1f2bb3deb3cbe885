import Foundation
import NetTap
import NetTapTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The README's "Audit what the app sends, and choose what NetTap sees" example, compiled and run.
@Suite("README audit and scope example")
struct ReadmeAuditExampleTests {
    /// The example, line for line (checked by ``auditMatchesReadme()``), with `print` collected.
    private func auditExample(interceptor: NetTapInterceptor, session: URLSession) async throws -> [String] {
        var printed: [String] = []
        func print(_ line: String) { printed.append(line) }
        // README-BEGIN audit
        interceptor.scope = try HostScope.parsing(denyHosts: [
            "*.bank.example", "regex:^telemetry[0-9]*\\.example\\.com$",
        ])
        interceptor.handlers = [AuditHandler(firstPartyHosts: ["api.nettap.example", "*.nettap.example"])]

        var login = URLRequest(url: URL(string: "http://api.nettap.example/v1/login?password=hunter2")!)
        login.setValue("Basic YWRhOmh1bnRlcjI=", forHTTPHeaderField: "Authorization")
        _ = try? await session.data(for: login)
        for item in interceptor.captureLog.transactions.findings(minimumSeverity: .medium) {
            print(item.summary)  // GET http://api.nettap.example/v1/login [high] plaintext.basic-auth at header …
        }

        // The same login to a server on this machine: the plaintext finding is low, and its text says why.
        login.url = URL(string: "http://127.0.0.1:8080/v1/login")!
        _ = try? await session.data(for: login)
        for item in interceptor.captureLog.transactions.findings(rule: "plaintext.basic-auth")
        where item.finding.severity == .low {
            print(item.finding.message)  // … to 127.0.0.1; 127.0.0.1 is this machine (loopback), so this is low: …
        }
        // README-END audit
        return printed
    }

    @Test("the example runs: plaintext Basic auth and a password in the query are found, the secret is not printed")
    func auditRuns() async throws {
        let interceptor = NetTapInterceptor()
        let transport = FakeTransport()  // answers 200 itself: the example's host is never resolved
        interceptor.transport = transport
        let session = interceptor.makeSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }
        let printed = try await auditExample(interceptor: interceptor, session: session)
        #expect(
            transport.requests.map(\.url?.host) == ["api.nettap.example", "127.0.0.1"],
            "the audit changed nothing it sent"
        )
        #expect(
            printed.contains {
                $0.hasPrefix("Basic credentials") && $0.contains("127.0.0.1 is this machine (loopback), so this is low")
            },
            "\(printed)"
        )
        #expect(printed.filter { $0.contains("127.0.0.1") }.count == 1, "the medium loop printed only the remote one")
        #expect(printed.contains { $0.contains("[high] plaintext.basic-auth at header Authorization") }, "\(printed)")
        #expect(printed.contains { $0.contains("query.password") }, "\(printed)")
        #expect(!printed.joined().contains("hunter2"))
        #expect(!printed.joined().contains("YWRhOmh1bnRlcjI="))
        #expect(interceptor.scope.includes(host: "app.bank.example") == false)
        #expect(interceptor.scope.includes(host: "telemetry2.example.com") == false)
        #expect(interceptor.scope.includes(host: "api.nettap.example"))
    }

    @Test("the example is the README's code")
    func auditMatchesReadme() throws {
        let readme = try ReadmeBlocks.block(containing: "interceptor.scope = try HostScope", from: "interceptor.scope")
        #expect(!readme.isEmpty)
        #expect(ReadmeBlocks.compact(readme) == ReadmeBlocks.compact(try ReadmeBlocks.marked("audit", in: #filePath)))
    }
}
