import Foundation
import NetTapCore
import NetTapHAR
import Testing

@testable import NetTapCLI

/// `nettap report` names GraphQL operations, from NetTap's labels or read from other tools' requests.
@Suite("Report: GraphQL operations")
struct GraphQLReportSummaryTests {
    /// A POST to /graphql with a JSON body, its duration and status; labelled when `labels` are given.
    static func transaction(
        _ body: String,
        milliseconds: Double,
        status: Int = 200,
        labels: [String: String] = [:]
    ) -> CapturedTransaction {
        let url = URL(string: "https://api.nettap.example/graphql") ?? URL(fileURLWithPath: "/")
        return CapturedTransaction(
            request: CapturedRequest(
                method: "POST",
                url: url,
                headers: ["Content-Type": "application/json"],
                body: CapturedBody(data: Data(body.utf8))
            ),
            response: CapturedResponse(statusCode: status, headers: [:], url: url, body: CapturedBody(data: Data())),
            timings: Timings(startDate: Date(timeIntervalSince1970: 1_700_000_000), end: milliseconds),
            answeredBy: labels.isEmpty ? CapturedTransaction.answeredByNetwork : "mock",
            annotations: labels,
            state: .completed
        )
    }

    static let transactions = [
        transaction(
            #"{"query":"mutation AddItem { addItem { id } }"}"#,
            milliseconds: 40,
            labels: ["graphql.operation": "AddItem", "graphql.type": "mutation", "stub": "add"]
        ),
        transaction(#"{"query":"query GetCart { cart { id } }"}"#, milliseconds: 10),
        transaction(#"{"query":"query GetCart { cart { id } }"}"#, milliseconds: 30, status: 500),
        transaction(#"{"operationName":"GetCart","query":"query GetCart { cart { id } }"}"#, milliseconds: 20),
    ]

    @Test("the summary counts requests per operation with the figures of the host table")
    func summary() throws {
        let document = HARDocument(transactions: Self.transactions)
        let summary = HARSummary(entries: document.log.entries)
        let operations = summary.graphQLOperations.map {
            "\($0.operation) \($0.type ?? "-") \($0.statistics.requests) \($0.statistics.httpErrors)"
                + " \($0.statistics.p50Milliseconds.map { String(Int($0)) } ?? "-")"
        }
        #expect(operations == ["GetCart query 3 1 20", "AddItem mutation 1 0 40"])
        #expect(summary.slowest.first?.graphQLOperation == "mutation AddItem")
        #expect(summary.slowest.map(\.graphQLOperation).allSatisfy { $0 != nil })
    }

    @Test("a query and a mutation of one name are two rows")
    func keyedByNameAndType() {
        let document = HARDocument(
            transactions: [
                Self.transaction(#"{"query":"query GetCart { cart { id } }"}"#, milliseconds: 10),
                Self.transaction(#"{"query":"mutation GetCart { cart { id } }"}"#, milliseconds: 20, status: 500),
                Self.transaction(#"{"query":"query GetCart { cart { id } }"}"#, milliseconds: 30),
            ]
        )
        let rows = HARSummary(entries: document.log.entries).graphQLOperations.map {
            "\($0.operation) \($0.type ?? "-") \($0.statistics.requests) \($0.statistics.httpErrors)"
        }
        #expect(rows == ["GetCart query 2 0", "GetCart mutation 1 1"])
    }

    @Test("the text report has a GraphQL table and names operations in the slowest list; the HAR comment leads with it")
    func text() async throws {
        let document = HARDocument(transactions: Self.transactions)
        #expect(
            document.log.entries[0].comment?.hasPrefix("NetTap: GraphQL mutation AddItem; answered by mock") == true
        )
        #expect(document.log.entries[0].comment?.contains("graphql.operation=") == false)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("nettap-gql-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try document.write(to: directory.appendingPathComponent("g.har"))
        let run = await runCLI(["report", "g.har"], workingDirectory: directory)
        #expect(run.exitCode == .success, "\(run.standardError)")
        let lines = run.standardOutput.components(separatedBy: "\n")
        #expect(lines.contains { $0.hasPrefix("GRAPHQL OPERATION") && $0.contains("P95 MS") })
        #expect(
            lines.contains { $0.wholeMatch(of: /GetCart +query +3 +0 +1 +20.0 +30.0/) != nil },
            "\(run.standardOutput)"
        )
        #expect(lines.contains { $0.hasSuffix("https://api.nettap.example/graphql (GraphQL mutation AddItem)") })
        let json = await runCLI(["report", "g.har", "--json"], workingDirectory: directory)
        #expect(json.standardOutput.contains(#""graphQLOperations" : ["#))
    }
}
