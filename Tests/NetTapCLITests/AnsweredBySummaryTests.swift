import Foundation
import NetTapCLI
import NetTapCore
import NetTapHAR
import Testing

/// `nettap report` says who answered: the network, which stubs (and scenarios), a cassette.
@Suite("Report: who answered")
struct AnsweredBySummaryTests {
    static func transaction(
        _ path: String,
        answeredBy: String,
        annotations: [String: String] = [:],
        redirects: [RedirectHop] = []
    ) -> CapturedTransaction {
        let url = URL(string: "https://api.nettap.example" + path) ?? URL(fileURLWithPath: "/")
        return CapturedTransaction(
            request: CapturedRequest(method: "GET", url: url, headers: [:]),
            response: CapturedResponse(
                statusCode: 200,
                headers: [:],
                url: url,
                body: CapturedBody(data: Data("x".utf8))
            ),
            redirects: redirects,
            timings: Timings(
                startDate: Date(timeIntervalSince1970: 1_700_000_000),
                requestSent: 1,
                firstByte: 2,
                end: 3
            ),
            answeredBy: answeredBy,
            annotations: annotations,
            state: .completed
        )
    }

    static func document() throws -> HARDocument {
        let hop = RedirectHop(
            method: "GET",
            url: URL(string: "https://api.nettap.example/old")!,
            statusCode: 301,
            headers: ["Location": "/cart"],
            elapsedMilliseconds: 1,
            answeredBy: "mock"
        )
        let transactions = [
            transaction("/cart", answeredBy: "mock", annotations: ["stub": "cart", "scenario": "sale"]),
            transaction(
                "/cart",
                answeredBy: "mock",
                annotations: ["stub": "cart", "scenario": "sale"],
                redirects: [hop]
            ),
            transaction("/config", answeredBy: "mock", annotations: ["stub": "config"]),
            transaction("/profile", answeredBy: "cassette", annotations: ["cassette.entry": "0"]),
            transaction("/live", answeredBy: "network"),
        ]
        // Through HAR text and back, as `nettap report` reads it.
        return try HARDocument.decode(try HARDocument(transactions: transactions).encoded(), source: "answered.har")
    }

    @Test("a request a handler refused (status 0) counts under that handler, as a failure, not under network")
    func refusedRequestsCountUnderTheHandler() throws {
        let url = URL(string: "https://api.nettap.example/missing") ?? URL(fileURLWithPath: "/")
        let refused = CapturedTransaction(
            request: CapturedRequest(method: "GET", url: url, headers: [:]),
            response: nil,
            timings: Timings(startDate: Date(timeIntervalSince1970: 1_700_000_000), requestSent: 1, end: 2),
            error: TransactionError(URLError(.resourceUnavailable)),
            answeredBy: "mock",
            annotations: ["unmatched": "no stub matched GET https://api.nettap.example/missing"],
            state: .failed
        )
        let text = try HARDocument(transactions: [refused, Self.transaction("/live", answeredBy: "network")]).encoded()
        let entries = try HARDocument.decode(text, source: "refused.har").log.entries
        #expect(entries.first?.response.status == 0)
        #expect(entries.first?.comment?.contains("answered by mock") == true)
        let summary = HARSummary(entries: entries)
        #expect(
            summary.answeredBy == [
                HARSummary.SourceCount(source: "mock", count: 1, stubs: []),
                HARSummary.SourceCount(source: "network", count: 1, stubs: []),
            ]
        )
        #expect(summary.total.failed == 1)
    }

    @Test("the summary counts transactions per source (a redirect hop with its transaction) and stub answers")
    func summary() throws {
        let summary = HARSummary(entries: try Self.document().log.entries)
        #expect(
            summary.answeredBy == [
                HARSummary.SourceCount(
                    source: "mock",
                    count: 3,
                    stubs: [
                        HARSummary.NamedCount(name: "sale/cart", count: 2),
                        HARSummary.NamedCount(name: "config", count: 1),
                    ]
                ),
                HARSummary.SourceCount(source: "cassette", count: 1, stubs: []),
                HARSummary.SourceCount(source: "network", count: 1, stubs: []),
            ]
        )
    }

    @Test("the text report lists who answered when anything but the network did")
    func text() throws {
        let text = ReportCommand.text(HARSummary(entries: try Self.document().log.entries), file: "answered.har")
        #expect(text.contains("ANSWERED BY  COUNT  STUBS"))
        #expect(text.contains("mock             3  sale/cart ×2, config ×1"))
        #expect(text.contains("cassette         1"))
        let plain = ReportCommand.text(
            HARSummary(
                entries: HARDocument(transactions: [Self.transaction("/a", answeredBy: "network")]).log.entries
            ),
            file: "plain.har"
        )
        #expect(!plain.contains("ANSWERED BY"))
    }
}
