import Foundation
import NetTapCore
import Testing

@testable import NetTapStore

@Suite("StoreQuery: filters, order and argument errors")
struct StoreQueryTests {
    /// A store holding six varied transactions, one second apart.
    private static func makeStore() async throws -> (TransactionStore, [CapturedTransaction]) {
        let base = Date(timeIntervalSince1970: 1_750_000_000)
        let finding = Finding(rule: "integrity.mismatch", severity: .high, message: "digest differs")
        let transactions = [
            makeTransaction(url: "https://api.example.com/v1/users/1", start: base),
            makeTransaction(method: "POST", url: "https://api.example.com/v1/orders", status: 201, start: base + 1),
            makeTransaction(url: "https://cdn.example.com/app.js", status: 200, start: base + 2, findings: [finding]),
            makeTransaction(url: "https://example.com/", status: 404, start: base + 3, answeredBy: "mock"),
            makeTransaction(url: "https://other.test/v1/users", status: 503, start: base + 4, answeredBy: "cassette"),
            makeTransaction(
                url: "https://api.example.com/slow",
                status: nil,
                start: base + 5,
                state: .failed,
                error: TransactionError(domain: NSURLErrorDomain, code: -1001, message: "The request timed out.")
            ),
        ]
        let store = try TransactionStore(url: try makeStoreURL(), now: { base })
        for transaction in transactions { store.record(transaction) }
        try await store.flush()
        return (store, transactions)
    }

    private func paths(_ store: TransactionStore, _ query: StoreQuery) async throws -> [String] {
        try await store.transactions(matching: query).map { $0.request.url.host.map { "\($0)" } ?? "" }
    }

    @Test("every filter selects what it names, newest first")
    func filters() async throws {
        let (store, all) = try await Self.makeStore()
        let ids = { (query: StoreQuery) async throws -> [UUID] in
            try await store.transactions(matching: query).map(\.id)
        }
        #expect(try await ids(.all) == all.reversed().map(\.id))
        #expect(try await ids(StoreQuery(host: "API.example.com")) == [all[5].id, all[1].id, all[0].id])
        #expect(try await ids(StoreQuery(host: "*.example.com")) == [all[5].id, all[2].id, all[1].id, all[0].id])
        #expect(try await ids(StoreQuery(method: "post")) == [all[1].id])
        #expect(try await ids(StoreQuery(statusClass: .success)) == [all[2].id, all[1].id, all[0].id])
        #expect(try await ids(StoreQuery(statusClass: .clientError)) == [all[3].id])
        #expect(try await ids(StoreQuery(statusClass: .serverError)) == [all[4].id])
        #expect(try await ids(StoreQuery(statusClass: .failed)) == [all[5].id])
        #expect(try await ids(StoreQuery(pathContains: "/users")) == [all[4].id, all[0].id])
        #expect(try await ids(StoreQuery(hasFinding: true)) == [all[2].id])
        #expect(try await ids(StoreQuery(hasFinding: false)).count == 5)
        #expect(try await ids(StoreQuery(answeredBy: "cassette")) == [all[4].id])
        let base = all[0].timings.startDate
        #expect(try await ids(StoreQuery(since: base + 2, until: base + 4)) == [all[3].id, all[2].id])
        #expect(try await ids(StoreQuery(host: "*.example.com", pathContains: "/v1/")) == [all[1].id, all[0].id])
        #expect(try await ids(StoreQuery(limit: 2, offset: 1)) == [all[4].id, all[3].id])
        #expect(try await store.count(matching: StoreQuery(host: "*.example.com")) == 4)
        #expect(try await store.count(matching: StoreQuery(offset: 4)) == 2)
    }

    @Test("a malformed argument is an invalidQuery error naming it")
    func invalidArguments() async throws {
        let (store, _) = try await Self.makeStore()
        let cases: [(StoreQuery, String)] = [
            (StoreQuery(host: "api.*.com"), "host \"api.*.com\""),
            (StoreQuery(host: "*."), "host \"*.\""),
            (StoreQuery(method: ""), "method \"\""),
            (StoreQuery(pathContains: ""), "path \"\""),
            (StoreQuery(limit: -1), "limit \"-1\""),
            (StoreQuery(since: Date(timeIntervalSince1970: 10), until: Date(timeIntervalSince1970: 5)), "until"),
        ]
        for (query, input) in cases {
            let error = await #expect(throws: StoreError.self) { try await store.transactions(matching: query) }
            #expect(error?.code == .invalidQuery)
            #expect(error?.input?.hasPrefix(input) == true, "\(String(describing: error))")
        }
        let error = #expect(throws: StoreError.self) { try StoreQuery.StatusClass.parse("7xx") }
        #expect(error?.description == "status \"7xx\": must be one of 1xx, 2xx, 3xx, 4xx, 5xx, failed")
        #expect(try StoreQuery.StatusClass.parse("FAILED") == .failed)
    }
}
