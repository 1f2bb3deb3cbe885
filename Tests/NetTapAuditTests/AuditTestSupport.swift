import Foundation
import NetTapAudit
import NetTapCore
import NetTapTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Secrets planted in requests; no finding may repeat them.
enum Planted {
    static let jwt =
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkFubiJ9."
        + "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
    /// The example key ID from the AWS documentation.
    static let awsKeyID = "AKIAIOSFODNN7EXAMPLE"
    static let googleKey = "AIzaSyA1b2C3d4E5f6G7h8I9j0K_L-mNoPqRsTu"
    static let slackToken = "xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx"
    static let privateKey = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAx4Jm\n-----END RSA PRIVATE KEY-----"
    static let password = "hunter2-correct-horse"
    static let bearer = "opaque-bearer-0123456789abcdef"
    static let basic = Data("ann:\(password)".utf8).base64EncodedString()
    static let cookieValue = "sess-5f4dcc3b5aa765d61d8327deb882cf99"
    static let email = "ann.example@mail.example.org"
    /// A Visa test number that passes the Luhn check.
    static let card = "4111 1111 1111 1111"

    static let all = [
        jwt, awsKeyID, googleKey, slackToken, privateKey, password, bearer, basic, cookieValue, email,
        card, "4111111111111111", "hunter2",
    ]
}

/// Sends requests through an `AuditHandler` in the pipeline harness.
struct Audit {
    var handler = AuditHandler()
    var response: @Sendable (URLRequest) -> HandlerResponse = { request in
        HandlerResponse(statusCode: 200, url: request.url, body: .empty)
    }

    /// The harness result of one request.
    func send(_ request: URLRequest) async throws -> PipelineHarness.Result {
        let respond = response
        let harness = PipelineHarness(handlers: [handler], transport: FakeTransport { respond($0) })
        let result = try await harness.send(request)
        expectNoSecrets(in: result.findings)
        return result
    }

    /// The findings for a request to `url` with optional headers and body.
    func findings(
        _ url: String,
        method: String = "GET",
        headers: [String: String] = [:],
        body: Data? = nil
    ) async throws -> [Finding] {
        var request = URLRequest(url: try #require(URL(string: url)))
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = body
        return try await send(request).findings
    }
}

/// Checks that no finding's location, message or detail contains a planted secret.
func expectNoSecrets(in findings: [Finding], sourceLocation: SourceLocation = #_sourceLocation) {
    for finding in findings {
        let texts = [finding.location ?? "", finding.message, finding.summary] + Array(finding.details.values)
        for secret in Planted.all {
            #expect(
                !texts.contains { $0.contains(secret) },
                "\(finding.summary) repeats a secret",
                sourceLocation: sourceLocation
            )
        }
    }
}

extension Array where Element == Finding {
    /// The findings of one rule.
    func of(_ rule: AuditRule) -> [Finding] { filter { $0.rule == rule.id } }

    /// `rule@location` strings, for compact comparisons.
    var keys: [String] { map { "\($0.rule)@\($0.location ?? "")" } }
}
