import Foundation
import NetTapCore
import NetTapHAR
import NetTapTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("HARResponder stepped in the HandlerHarness: recorded answers without the network, misses passed on")
struct HARResponderStepTests {
    private static let document = HARDocument(
        log: HARLog(entries: [
            HAREntry(
                startedDateTime: "2024-01-01T00:00:00.000Z",
                time: 0,
                request: HARRequest(method: "GET", url: "https://api.example.com/v1/profile"),
                response: HARResponse(
                    status: 200,
                    statusText: "OK",
                    headers: [HARHeader(name: "Content-Type", value: "application/json")],
                    content: HARContent(size: 13, mimeType: "application/json", text: #"{"name":"an"}"#)
                )
            )
        ])
    )

    @Test("keeps the handler contract for a recorded request and one it does not hold")
    func contract() async throws {
        for url in ["https://api.example.com/v1/profile", "https://api.example.com/v1/other"] {
            let request = URLRequest(url: try #require(URL(string: url)))
            #expect(
                await HandlerContract.violations(of: { HARResponder(document: Self.document) }, request: request) == []
            )
        }
    }

    @Test("a recorded request is answered with the entry's status, headers and body; another is passed on")
    func answersOrPassesOn() async throws {
        let recorded = HandlerHarness(handler: HARResponder(document: Self.document))
        guard
            case .answered(let answer) = await recorded.start(
                URLRequest(url: URL(string: "https://api.example.com/v1/profile")!)
            )
        else {
            Issue.record("the recorded request was not answered")
            return
        }
        #expect(answer.statusCode == 200)
        #expect(answer.headers["content-type"] == "application/json")
        #expect(try await recorded.readBody() == Data(#"{"name":"an"}"#.utf8))
        #expect(recorded.context.answeredBy == "har")
        try await recorded.finish()

        let other = HandlerHarness(handler: HARResponder(document: Self.document))
        guard case .passedOn = await other.start(URLRequest(url: URL(string: "https://api.example.com/v1/other")!))
        else {
            Issue.record("a request the file does not hold was not passed on")
            return
        }
        try await other.respond(statusCode: 404)
        #expect(try await other.readBody().isEmpty)
        try await other.finish()
    }
}
