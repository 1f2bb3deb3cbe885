import Foundation
import NetTapCore
import NetTapTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("RequestJournal stepped in the HandlerHarness: written down before anything answers, passed on unchanged")
struct RequestJournalStepTests {
    @Test("keeps the handler contract")
    func contract() async {
        var request = URLRequest(url: SampleHandlers.url)
        request.httpMethod = "POST"
        request.httpBody = Data("a=1".utf8)
        #expect(await HandlerContract.violations(of: { RequestJournal() }, request: request) == [])
    }

    @Test("the request is in the journal as soon as it is passed on, before an answer comes back")
    func writtenBeforeTheAnswer() async throws {
        let journal = RequestJournal()
        let harness = HandlerHarness(handler: journal)
        var request = URLRequest(url: SampleHandlers.url)
        request.setValue("Bearer t", forHTTPHeaderField: "Authorization")
        guard case .passedOn(let sent) = await harness.start(request) else {
            Issue.record("the request was not passed on")
            return
        }
        #expect(sent.value(forHTTPHeaderField: "Authorization") == "Bearer t")
        #expect(journal.count(matching: .path("/v1/items")) == 1)
        try await harness.respond(statusCode: 200, body: Data("ok".utf8))
        #expect(try await harness.readBody() == Data("ok".utf8))
        try await harness.finish()
    }
}
