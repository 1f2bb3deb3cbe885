import Foundation
import NetTapCore
import NetTapReport
import NetTapTestSupport
import Testing

/// GraphQL operations and handler notes in the HTML report: the data block, then the page in headless Chromium.
@Suite("HTML report: GraphQL operations in the table and the detail pane, handler notes", .serialized)
struct GraphQLReportTests {
    /// A labelled mock answer, an unlabelled GraphQL request (another tool's entry) and a REST request.
    static let transactions: [CapturedTransaction] = {
        var labelled = Samples.transaction("POST", "https://api.example.com/graphql", offset: 0, end: 8)
        labelled.annotations = [
            "graphql.operation": "AddItem", "graphql.type": "mutation", "stub": "add item",
            "state": "cart: Started → item added",
        ]
        labelled.answeredBy = "mock"
        var unlabelled = Samples.transaction(
            "POST",
            "https://api.example.com/graphql",
            offset: 0.01,
            end: 9,
            requestHeaders: ["Content-Type": "application/json"]
        )
        unlabelled.request.body = CapturedBody(data: Data(#"{"query":"query GetCart { cart { id } }"}"#.utf8))
        let rest = Samples.transaction("GET", "https://api.example.com/v1/cart", offset: 0.02, end: 4)
        return [labelled, unlabelled, rest]
    }()

    /// The rows and details of the page's data block.
    private func payload(_ html: String) throws -> (rows: [[String: Any]], details: [[String: Any]]) {
        let start = try #require(html.range(of: #"<script type="application/json" id="nettap-data">"#))
        let end = try #require(html.range(of: "</script>", range: start.upperBound..<html.endIndex))
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(html[start.upperBound..<end.lowerBound].utf8))
                as? [String: Any]
        )
        return (try #require(json["rows"] as? [[String: Any]]), try #require(json["details"] as? [[String: Any]]))
    }

    @Test("each GraphQL row carries its operation, read from the label or the request; notes leave graphql out")
    func dataBlock() throws {
        let (rows, details) = try payload(HTMLReport(transactions: Self.transactions).render())
        #expect(rows.map { $0["graphql"] as? String } == ["mutation AddItem", "query GetCart", nil])
        let notes = try #require(details.first?["notes"] as? [[String]])
        #expect(notes == [["state", "cart: Started → item added"], ["stub", "add item"]])
    }

    @Test(
        "the table shows the operation beside the path, the search finds it, the detail pane names it",
        .enabled(if: !Chromium.isSkipped, "NETTAP_SKIP_BROWSER=1")
    )
    func inBrowser() async throws {
        try FileManager.default.createDirectory(at: HARFixtures.buildFolder, withIntermediateDirectories: true)
        let file = HARFixtures.buildFolder.appendingPathComponent("graphql-report.html")
        try HTMLReport(transactions: Self.transactions, title: "graphql").write(to: file)
        let searched = try await BrowserTests.open(file, fragment: "q=additem")
        #expect(searched.rowIDs == [Self.transactions[0].id.uuidString.lowercased()])
        #expect(searched.html.contains("/graphql · mutation AddItem"))
        let detail = try await BrowserTests.open(
            file,
            fragment: "id=\(Self.transactions[1].id.uuidString.lowercased())"
        )
        let pane = try #require(detail.text(id: "detail", closing: "aside"))
        #expect(pane.contains("GraphQL  query GetCart"), "\(pane)")
        let first = try await BrowserTests.open(file, fragment: "id=\(Self.transactions[0].id.uuidString.lowercased())")
        let notes = try #require(first.text(id: "detail", closing: "aside"))
        #expect(notes.contains("Note: stub  add item"), "\(notes)")
        #expect(notes.contains("GraphQL  mutation AddItem"))
    }
}
