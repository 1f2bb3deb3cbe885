import Foundation
import NetTapAudit
import NetTapCore
import NetTapTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("AuditHandler stepped in the HandlerHarness: findings at the moment each part is seen, bytes untouched")
struct AuditHandlerStepTests {
    private static let url = URL(string: "http://api.example.com/login?password=\(Planted.password)")!

    @Test("keeps the handler contract for a request it flags and one it does not")
    func contract() async {
        var login = URLRequest(url: Self.url)
        login.httpMethod = "POST"
        login.httpBody = Data(#"{"password":"\#(Planted.password)"}"#.utf8)
        let plain = URLRequest(url: URL(string: "https://api.example.com/items")!)
        for request in [login, plain] {
            #expect(await HandlerContract.violations(of: { AuditHandler() }, request: request) == [])
        }
    }

    @Test("request findings before it is passed on, cookie findings with the head, a token in the body at its end")
    func findingsAsEachPartArrives() async throws {
        let harness = HandlerHarness(handler: AuditHandler())
        guard case .passedOn(let sent) = await harness.start(URLRequest(url: Self.url)) else {
            Issue.record("the request was not passed on")
            return
        }
        #expect(sent.url == Self.url, "the audit changes nothing")
        let afterRequest = harness.context.findings.map(\.rule)
        #expect(!afterRequest.isEmpty, "the password over plain http is found before anything comes back")
        try harness.sendHead(
            statusCode: 200,
            headers: ["Content-Type": "application/json", "Set-Cookie": "session=\(Planted.cookieValue); Path=/"]
        )
        let answer = try await harness.answer()
        #expect(answer.headers["set-cookie"] == "session=\(Planted.cookieValue); Path=/")
        let afterHead = harness.context.findings.map(\.rule)
        #expect(afterHead.count > afterRequest.count, "the insecure cookie is found with the head")
        let body = Data(#"{"key":"\#(Planted.awsKeyID)"}"#.utf8)
        harness.sendChunk(body.prefix(10))
        #expect(try await harness.readChunk() == body.prefix(10))
        harness.sendChunk(body.dropFirst(10))
        #expect(try await harness.readChunk() == body.dropFirst(10))
        #expect(harness.context.findings.of(.tokenPattern).isEmpty, "nothing is concluded before the body ends")
        harness.end()
        #expect(try await harness.readChunk() == nil)
        #expect(harness.context.findings.of(.tokenPattern).count == 1)
        #expect(!harness.context.findings.contains { $0.message.contains(Planted.awsKeyID) })
        try await harness.finish()
    }

    @Test("a body the app cancels midway gives no body finding, and the body from below is cancelled")
    func cancelledBody() async throws {
        let harness = HandlerHarness(handler: AuditHandler())
        _ = await harness.start(URLRequest(url: URL(string: "https://api.example.com/avatar.png")!))
        try harness.sendHead(statusCode: 200, headers: ["Content-Type": "application/json"])
        _ = try await harness.answer()
        harness.sendChunk(Data(#"{"partial":"#.utf8))
        #expect(try await harness.readChunk() != nil)
        harness.cancel()
        try await harness.finish()
        #expect(harness.isBodyFromBelowCancelled)
        #expect(harness.context.findings.isEmpty)
    }
}
