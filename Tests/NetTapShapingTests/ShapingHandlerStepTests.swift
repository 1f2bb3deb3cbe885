import Foundation
import NetTapCore
import NetTapShaping
import NetTapTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("ShapingHandler stepped in the HandlerHarness: latency, pacing each piece, conditions, the contract")
struct ShapingHandlerStepTests {
    private static let url = URL(string: "http://127.0.0.1:9/data")!

    @Test(
        "keeps the handler contract with every profile (the timeout condition and a stall hang by design: not here)",
        arguments: [
            NetworkProfile.threeG, .edge, .veryBadNetwork, .totalLoss, .offline, .dnsFailure, .serverDown,
            .unrestricted, NetworkProfile(latency: .milliseconds(20), downloadBytesPerSecond: 100),
            NetworkProfile(fault: .dropConnection(afterBytes: 1)),
            NetworkProfile(downloadBytesPerSecond: 100, fault: .truncate(afterBytes: 2)),
        ]
    )
    func contract(profile: NetworkProfile) async {
        var upload = URLRequest(url: Self.url)
        upload.httpMethod = "POST"
        upload.httpBody = Data(repeating: 1, count: 4096)
        for request in [URLRequest(url: Self.url), upload] {
            let violations = await HandlerContract.violations(
                of: { ShapingHandler(shaper: NetworkShaper(profile: profile), random: SeededRandom(seed: 7)) },
                request: request
            )
            #expect(violations == [], "\(profile)")
        }
    }

    @Test("the request leaves after the latency, and each 50 ms piece of the body comes when the clock says")
    func latencyThenPieces() async throws {
        let profile = NetworkProfile(latency: .milliseconds(200), downloadBytesPerSecond: 1000)
        let harness = HandlerHarness(handler: ShapingHandler(shaper: NetworkShaper(profile: profile)))
        async let step = harness.start(URLRequest(url: Self.url))
        await harness.clock.waitForSleepers(count: 1)
        harness.advance(by: .milliseconds(199))
        #expect(harness.clock.sleeperCount == 1, "still waiting out the latency")
        harness.advance(by: .milliseconds(1))
        guard case .passedOn = await step else {
            Issue.record("the request was not passed on")
            return
        }
        try harness.sendHead(statusCode: 200, headers: ["Content-Length": "120"], expectedLength: 120)
        let answer = try await harness.answer()
        #expect(answer.body.expectedLength == 120)
        harness.sendChunk(Data(repeating: 7, count: 120))
        harness.end()
        // 1,000 bytes per second in 50 ms pieces: 50 bytes at 50 ms, 50 at 100 ms, the last 20 at 120 ms.
        for (after, size) in [(50, 50), (50, 50), (20, 20)] {
            async let piece = harness.readChunk()
            await harness.clock.waitForSleepers(count: 1)
            harness.advance(by: .milliseconds(after - 1))
            #expect(harness.clock.sleeperCount == 1, "a piece came early")
            harness.advance(by: .milliseconds(1))
            #expect(try await piece?.count == size)
        }
        #expect(try await harness.readChunk() == nil)
        #expect(harness.clock.now.offset == .milliseconds(320))
        try await harness.finish()
    }

    @Test("the app cancelling between pieces stops the pacing and cancels the body from below")
    func cancelBetweenPieces() async throws {
        let profile = NetworkProfile(downloadBytesPerSecond: 1000)
        let harness = HandlerHarness(handler: ShapingHandler(shaper: NetworkShaper(profile: profile)))
        _ = await harness.start(URLRequest(url: Self.url))
        try harness.sendHead(statusCode: 200)
        _ = try await harness.answer()
        harness.sendChunk(Data(repeating: 7, count: 500))
        async let first = harness.readChunk()
        await harness.clock.waitForSleepers(count: 1)
        harness.advance(by: .milliseconds(50))
        #expect(try await first?.count == 50)
        await harness.clock.waitForSleepers(count: 1)
        harness.cancel()
        try await harness.finish()
        #expect(harness.isBodyFromBelowCancelled)
    }

    @Test("a condition fails at once and passes nothing on")
    func conditionPassesNothingOn() async {
        let harness = HandlerHarness(handler: ShapingHandler(shaper: NetworkShaper(profile: .serverDown)))
        guard case .failed(let error) = await harness.start(URLRequest(url: Self.url)) else {
            Issue.record("the condition did not fail the request")
            return
        }
        #expect((error as? URLError)?.code == .cannotConnectToHost)
        #expect(harness.context.answeredBy == "shaping")
        await #expect(throws: Never.self) { try await harness.finish() }
    }

    @Test("a body fault lets the paced bytes before it through, then fails, and cancels the body from below")
    func faultAfterPacedBytes() async throws {
        let profile = NetworkProfile(downloadBytesPerSecond: 1000, fault: .dropConnection(afterBytes: 70))
        let harness = HandlerHarness(handler: ShapingHandler(shaper: NetworkShaper(profile: profile)))
        _ = await harness.start(URLRequest(url: Self.url))
        try harness.sendHead(statusCode: 200, headers: ["Content-Length": "500"], expectedLength: 500)
        let answer = try await harness.answer()
        #expect(answer.body.expectedLength == 500, "the head still promises the whole body")
        #expect(harness.context.annotations["shaping"] == "connection dropped after 70 bytes")
        harness.sendChunk(Data(repeating: 7, count: 500))
        var received = 0
        for _ in 0..<2 {
            async let piece = harness.readChunk()
            await harness.clock.waitForSleepers(count: 1)
            harness.advance(by: .milliseconds(50))
            received += try await piece?.count ?? 0
        }
        #expect(received == 70)
        let error = await #expect(throws: URLError.self) { _ = try await harness.readChunk() }
        #expect(error?.code == .networkConnectionLost)
        try await harness.finish()
        #expect(harness.isBodyFromBelowCancelled)
    }

    @Test("a stall passes its bytes, then waits for the request's own timeout with no timer of its own")
    func stallSetsNoTimer() async throws {
        let harness = HandlerHarness(
            handler: ShapingHandler(shaper: NetworkShaper(profile: NetworkProfile(fault: .stall(afterBytes: 3))))
        )
        _ = await harness.start(URLRequest(url: Self.url))
        try harness.sendHead(statusCode: 200, headers: ["Content-Length": "10"], expectedLength: 10)
        _ = try await harness.answer()
        harness.sendChunk(Data("0123456789".utf8))
        #expect(try await harness.readChunk() == Data("012".utf8))
        let stalled = Task { try await harness.readChunk() }
        harness.advance(by: .seconds(3600))
        #expect(harness.clock.sleeperCount == 0)
        harness.cancel()
        await #expect(throws: (any Error).self) { _ = try await stalled.value }
        try await harness.finish()
        #expect(harness.isBodyFromBelowCancelled)
    }
}
