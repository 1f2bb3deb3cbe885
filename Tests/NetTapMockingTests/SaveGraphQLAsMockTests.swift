import Foundation
import NetTapCore
import NetTapHAR
import NetTapMocking
import NetTapTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Stubs saved from GraphQL transactions: every operation goes to `POST /graphql`, so each stub must also match its
/// operation, or the newest would answer them all.
@Suite("Save as mock: a GraphQL operation's stub answers only that operation")
struct SaveGraphQLAsMockTests {
    private static let url = URL(string: "https://api.example.com/graphql")!

    private static func body(_ document: String, name: String? = nil) -> Data {
        var object: [String: Any] = ["query": document]
        if let name { object["operationName"] = name }
        return (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
    }

    private static func transaction(_ body: Data, answer: String) -> CapturedTransaction {
        CapturedTransaction(
            request: CapturedRequest(
                method: "POST",
                url: url,
                headers: ["Content-Type": "application/json"],
                body: CapturedBody(data: body)
            ),
            response: CapturedResponse(
                statusCode: 200,
                headers: ["Content-Type": "application/json"],
                url: url,
                body: CapturedBody(data: Data(answer.utf8))
            ),
            timings: Timings(startDate: Date()),
            state: .completed
        )
    }

    private static func post(_ body: Data) -> URLRequest {
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = body
        return request
    }

    private static let getCart = body("query GetCart { cart { id } }")
    private static let addItem = body("mutation AddItem { addItem(sku: 1) { id } }", name: "AddItem")
    private static let transactions = [
        transaction(getCart, answer: #"{"data":{"cart":{"id":1}}}"#),
        transaction(addItem, answer: #"{"data":{"addItem":{"id":2}}}"#),
    ]

    /// Sends both operations and an unrecorded one through the stubs; returns the two bodies and the miss.
    private func answers(_ stubs: [Stub]) async throws -> [String] {
        let pipeline = harness(MockSet(stubs: stubs))
        let cart = try await pipeline.send(Self.post(Self.getCart)).text
        let added = try await pipeline.send(Self.post(Self.addItem)).text
        let other = await #expect(throws: URLError.self) {
            _ = try await pipeline.send(Self.post(Self.body("query GetUser { user { id } }")))
        }
        return [cart, added, other?.localizedDescription ?? "answered"]
    }

    @Test("from captured transactions: each stub matches its operation's name and type")
    func fromTransactions() async throws {
        let stubs = try Self.transactions.map { try Stub(recording: $0) }
        #expect(stubs.map(\.name) == ["POST /graphql GetCart", "POST /graphql AddItem"])
        #expect(stubs[0].matcher.description.contains("GraphQL query GetCart"), "\(stubs[0].matcher)")
        #expect(
            stubs[1].matcher.configuration?["graphql"] != nil,
            "\(String(describing: stubs[1].matcher.configuration))"
        )
        let got = try await answers(stubs)
        #expect(got[0] == #"{"data":{"cart":{"id":1}}}"#)
        #expect(got[1] == #"{"data":{"addItem":{"id":2}}}"#)
        #expect(got[2].contains("GetUser"), "\(got[2])")
    }

    @Test("from HAR entries: the same, and an anonymous operation keeps the plain matcher")
    func fromHAREntries() async throws {
        let entries = HARDocument(transactions: Self.transactions).log.entries
        let stubs = try entries.map { try Stub(recording: $0) }
        let got = try await answers(stubs)
        #expect(got[0] == #"{"data":{"cart":{"id":1}}}"#)
        #expect(got[1] == #"{"data":{"addItem":{"id":2}}}"#)
        let anonymous = try Stub(recording: Self.transaction(Self.body("{ cart { id } }"), answer: "{}"))
        #expect(!anonymous.matcher.description.contains("GraphQL"), "\(anonymous.matcher)")
    }
}
