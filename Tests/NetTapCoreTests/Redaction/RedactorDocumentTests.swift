import Foundation
import NetTapCore
import Testing

/// A value redacted in one transaction of a capture or HAR document is redacted wherever it appears in the others.
@Suite("Redactor: secrets across the transactions of one document")
struct RedactorDocumentTests {
    static let sessionID = "a8f3c0de55e1"
    static let refreshID = "r7-9c0ffee-42"

    /// A login whose response sets two cookies on two lines of one `Set-Cookie` value (as Firefox exports them).
    static func login() throws -> CapturedTransaction {
        let url = try #require(URL(string: "https://shop.example/login"))
        return CapturedTransaction(
            request: CapturedRequest(method: "POST", url: url, headers: [:]),
            response: CapturedResponse(
                statusCode: 302,
                headers: [
                    "Set-Cookie": "sid=\(sessionID); Path=/; HttpOnly\nrefresh=\(refreshID); Secure",
                    "Location": "/home",
                ],
                url: url
            ),
            timings: Timings(startDate: Date(timeIntervalSince1970: 1_700_000_000))
        )
    }

    /// A later request that carries both values under names no rule covers, and a response that points at one.
    static func later() throws -> CapturedTransaction {
        let url = try #require(URL(string: "https://shop.example/track?visit=\(sessionID)&page=2"))
        return CapturedTransaction(
            request: CapturedRequest(method: "GET", url: url, headers: ["X-Trace": "refresh \(refreshID)"]),
            response: CapturedResponse(
                statusCode: 301,
                headers: ["Location": "https://cdn.shop.example/t?v=\(sessionID)"],
                url: url,
                body: CapturedBody(data: Data("moved for \(refreshID)".utf8))
            ),
            timings: Timings(startDate: Date(timeIntervalSince1970: 1_700_000_001))
        )
    }

    private func encoded(_ transactions: [CapturedTransaction]) throws -> String {
        String(decoding: try JSONEncoder().encode(transactions), as: UTF8.self)
    }

    @Test("values a response's cookies revealed are gone from later requests' URLs, headers and Location")
    func laterTransactionsAreSwept() throws {
        let result = Redactor.default.redact(transactions: [try Self.login(), try Self.later()])
        let text = try encoded(result.map(\.value))
        #expect(!text.contains(Self.sessionID))
        #expect(!text.contains(Self.refreshID))
        let later = result[1].value
        #expect(later.request.url.query?.contains("page=2") == true, "non-secret query items stay")
        #expect(later.response?.headers["Location"]?.hasPrefix("https://cdn.shop.example/t?v=") == true)
        #expect(result[1].locations.contains { $0.kind == .echo }, "the sweep is reported")
    }

    @Test("the order does not matter: an earlier transaction is swept of a value a later one redacted")
    func orderDoesNotMatter() throws {
        let result = Redactor.default.redact(transactions: [try Self.later(), try Self.login()])
        let text = try encoded(result.map(\.value))
        #expect(!text.contains(Self.sessionID))
        #expect(!text.contains(Self.refreshID))
    }

    @Test("control: each transaction redacted on its own keeps the copies; with redaction off nothing changes")
    func control() throws {
        let alone = Redactor.default.redact(transaction: try Self.later()).value
        #expect(try encoded([alone]).contains(Self.sessionID))
        let both = [try Self.login(), try Self.later()]
        #expect(Redactor.disabled.redact(transactions: both).map(\.value) == both)
    }

    @Test("a transaction holding no other transaction's secret comes out as redacting it alone does")
    func unrelatedTransactionUnchanged() throws {
        let url = try #require(URL(string: "https://other.example/a?b=c"))
        let unrelated = CapturedTransaction(
            request: CapturedRequest(method: "GET", url: url, headers: ["Authorization": "Bearer tok-123456789"]),
            timings: Timings(startDate: Date(timeIntervalSince1970: 1_700_000_002))
        )
        let together = Redactor.default.redact(transactions: [try Self.login(), unrelated])
        let alone = Redactor.default.redact(transaction: unrelated)
        #expect(together[1].value == alone.value)
        #expect(together[1].locations == alone.locations)
    }
}
