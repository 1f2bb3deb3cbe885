import Foundation
import NetTapCore
import NetTapMocking
import NetTapTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("MockHandler stepped in the HandlerHarness: answers, latency and pacing on the clock, unmatched policies")
struct MockHandlerStepTests {
    private static let url = URL(string: "https://api.example.com/v1/cart")!

    private static func handler(_ unmatched: MockHandler.UnmatchedPolicy = .passThrough) -> MockHandler {
        MockHandler(
            mocks: MockSet(stubs: [
                Stub("cart", matching: .path("/v1/cart"), response: .text("cart").withLatency(.milliseconds(150))),
                Stub(
                    "video",
                    matching: .path("/v1/video"),
                    response: .data(Data(repeating: 9, count: 300)).withBandwidth(bytesPerSecond: 1000)
                ),
                Stub("down", matching: .path("/v1/down"), response: .failure(.cannotConnectToHost)),
            ]),
            unmatched: unmatched
        )
    }

    @Test(
        "keeps the handler contract for a stub, a paced stub, a failure stub, and each unmatched policy",
        arguments: [MockHandler.UnmatchedPolicy.passThrough, .fail, .record]
    )
    func contract(unmatched: MockHandler.UnmatchedPolicy) async throws {
        for path in ["/v1/cart", "/v1/video", "/v1/down", "/v1/other"] {
            let request = URLRequest(url: try #require(URL(string: "https://api.example.com\(path)")))
            let violations = await HandlerContract.violations(of: { Self.handler(unmatched) }, request: request)
            #expect(violations == [], "\(path), \(unmatched)")
        }
    }

    @Test("a stub answers only once its latency has passed on the clock, and nothing is passed on")
    func latency() async throws {
        let harness = HandlerHarness(handler: Self.handler())
        async let step = harness.start(URLRequest(url: Self.url))
        await harness.clock.waitForSleepers(count: 1)
        harness.advance(by: .milliseconds(149))
        #expect(harness.clock.sleeperCount == 1)
        harness.advance(by: .milliseconds(1))
        guard case .answered(let answer) = await step else {
            Issue.record("the stub did not answer")
            return
        }
        #expect(answer.statusCode == 200)
        #expect(try await harness.readBody() == Data("cart".utf8))
        #expect(harness.context.answeredBy == "mock")
        #expect(harness.context.annotations[MockHandler.stubAnnotation] == "cart")
        try await harness.finish()
    }

    @Test("a paced stub body comes in 50 ms pieces as the clock moves")
    func pacedBody() async throws {
        let harness = HandlerHarness(handler: Self.handler())
        guard case .answered = await harness.start(URLRequest(url: URL(string: "https://api.example.com/v1/video")!))
        else {
            Issue.record("the stub did not answer")
            return
        }
        var received = 0
        while received < 300 {
            async let piece = harness.readChunk()
            await harness.clock.waitForSleepers(count: 1)
            harness.advance(by: .milliseconds(50))
            received += try await piece?.count ?? 0
        }
        #expect(received == 300)
        #expect(try await harness.readChunk() == nil)
        #expect(harness.clock.now.offset == .milliseconds(300))
        try await harness.finish()
    }

    @Test("unmatched: passThrough passes the request on unchanged; fail answers resourceUnavailable naming it")
    func unmatched() async throws {
        let other = URLRequest(url: URL(string: "https://api.example.com/v1/other")!)
        let passing = HandlerHarness(handler: Self.handler(.passThrough))
        guard case .passedOn(let sent) = await passing.start(other) else {
            Issue.record("an unmatched request was not passed on")
            return
        }
        #expect(sent.url == other.url)
        try await passing.respond(statusCode: 200, body: Data("net".utf8))
        #expect(try await passing.readBody() == Data("net".utf8))
        try await passing.finish()

        let failing = HandlerHarness(handler: Self.handler(.fail))
        guard case .failed(let error) = await failing.start(other) else {
            Issue.record("an unmatched request did not fail")
            return
        }
        #expect((error as? URLError)?.code == .resourceUnavailable)
        #expect(error.localizedDescription.contains("/v1/other"))
        try await failing.finish()
    }
}
