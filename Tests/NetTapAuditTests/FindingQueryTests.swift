import Foundation
import NetTapAudit
import NetTapCore
import NetTapTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Findings queries over captured transactions, and auditing a capture after the fact")
struct FindingQueryTests {
    static func transaction(_ url: String, findings: [Finding]) throws -> CapturedTransaction {
        CapturedTransaction(
            request: CapturedRequest(method: "GET", url: try #require(URL(string: url)), headers: [:]),
            timings: Timings(startDate: Date()),
            state: .completed,
            findings: findings
        )
    }

    static let transactions: [CapturedTransaction] = {
        let first = Finding(
            rule: "plaintext.credentials",
            severity: .high,
            location: "header Authorization",
            message: "a"
        )
        let second = Finding(rule: "pii.email", severity: .info, location: "query email", message: "b")
        let third = Finding(rule: "pii.card", severity: .medium, location: "body $.pan", message: "c")
        let fourth = Finding(rule: "integrity.mismatch", severity: .high, location: "body", message: "d")
        return [
            (try? transaction("http://a.example/1", findings: [first, second])),
            (try? transaction("https://b.example/2", findings: [])),
            (try? transaction("https://c.example/3", findings: [third, fourth])),
        ]
        .compactMap { $0 }
    }()

    @Test("all findings in transaction order, then filtered by severity")
    func severity() {
        #expect(Self.transactions.findings().map(\.finding.message) == ["a", "b", "c", "d"])
        #expect(Self.transactions.findings(minimumSeverity: .medium).map(\.finding.message) == ["a", "c", "d"])
        #expect(
            Self.transactions.findings(minimumSeverity: .high).map(\.transaction.request.url.host) == [
                "a.example", "c.example",
            ]
        )
    }

    @Test("by rule: an exact identifier, a dotted prefix, an AuditRule; a partial word is no prefix")
    func rules() {
        #expect(Self.transactions.findings(rule: "pii").map(\.finding.message) == ["b", "c"])
        #expect(Self.transactions.findings(rule: "pii.card").map(\.finding.message) == ["c"])
        #expect(Self.transactions.findings(of: .plaintextCredentials).map(\.finding.message) == ["a"])
        #expect(Self.transactions.findings(of: .piiEmail, minimumSeverity: .low).isEmpty)
        #expect(Self.transactions.findings(rule: "pi").isEmpty)
    }

    @Test("a summary line names the request and the finding")
    func summary() throws {
        let item = try #require(Self.transactions.findings().first)
        #expect(item.summary == "GET http://a.example/1 [high] plaintext.credentials at header Authorization: a")
    }

    @Test("findings(for:) audits a captured transaction like the live handler")
    func afterTheFact() throws {
        let image = try Fixture.data("tiny.png")
        let transaction = CapturedTransaction(
            request: CapturedRequest(
                method: "GET",
                url: try #require(URL(string: "http://cdn.example.com/a.png?password=\(Planted.password)")),
                headers: ["Authorization": "Bearer \(Planted.bearer)"]
            ),
            response: CapturedResponse(
                statusCode: 200,
                httpVersion: "HTTP/1.1",
                headers: ["Content-Type": "image/png", "Set-Cookie": "s=\(Planted.cookieValue); HttpOnly"],
                url: try #require(URL(string: "http://cdn.example.com/a.png")),
                body: CapturedBody(data: image, totalByteCount: 900_000)
            ),
            timings: Timings(startDate: Date()),
            state: .completed
        )
        let findings = AuditHandler().findings(for: transaction)
        expectNoSecrets(in: findings)
        #expect(
            findings.keys == [
                "plaintext.credentials@header Authorization", "query.password@query password",
                "plaintext.credentials@query password", "plaintext.credentials@cookie s",
                "image.oversized@response body",
            ]
        )
        let oversized = try #require(findings.last)
        #expect(oversized.details["bytes"] == "900000")
        #expect(oversized.details["complete"] == "false")
        #expect(oversized.details["width"] == "37")
    }

    @Test("findings added by the live handler land on the capture log's transactions through URLSession")
    func captureLog() async throws {
        let interceptor = NetTapInterceptor()
        interceptor.handlers = [
            AuditHandler(),
            MockHandlerStandIn(),
        ]
        let session = URLSession(configuration: interceptor.makeConfiguration())
        defer { session.invalidateAndCancel() }
        let url = try #require(URL(string: "http://api.example.com/login?password=\(Planted.password)"))
        let (data, _) = try await session.data(from: url)
        #expect(data == Data("ok".utf8))
        let transaction = await interceptor.captureLog.waitForFinished { _ in true }
        #expect(
            Set(transaction.findings.keys) == ["query.password@query password", "plaintext.credentials@query password"]
        )
        #expect(interceptor.captureLog.transactions.findings(of: .queryPassword).count == 1)
    }
}

/// Answers every request with `ok`, standing in for a mock.
private struct MockHandlerStandIn: TransactionHandler {
    let name = "stand-in"

    func handle(_ request: URLRequest, context: TransactionContext, next: Next) async throws -> HandlerResponse {
        context.answer(by: name)
        return HandlerResponse(
            statusCode: 200,
            headers: ["Content-Type": "text/plain"],
            url: request.url,
            body: .string("ok")
        )
    }
}
