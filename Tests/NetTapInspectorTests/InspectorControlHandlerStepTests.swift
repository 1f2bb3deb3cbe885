import Foundation
import NetTapCore
import NetTapShaping
import NetTapTesting
import Testing

@testable import NetTapInspector

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("InspectorControlHandler stepped in the HandlerHarness: DevTools' blocking and throttling, the contract")
struct InspectorControlHandlerStepTests {
    private static let url = URL(string: "https://api.example.com/v1/ads/banner.js")!

    private static func controls(blocking pattern: String? = nil, preset: String? = nil) throws -> InspectorControls {
        let controls = InspectorControls(appShaper: nil)
        if let pattern { controls.setBlockedURLs(["urlPatterns": [["urlPattern": pattern, "block": true]]]) }
        try controls.setPreset(preset)
        return controls
    }

    @Test("keeps the handler contract: untouched, blocked, and throttled by a preset")
    func contract() async throws {
        let cases: [InspectorControls] = [
            try Self.controls(), try Self.controls(blocking: "*/ads/*"), try Self.controls(preset: "slow-3g"),
        ]
        for controls in cases {
            let violations = await HandlerContract.violations(
                of: { InspectorControlHandler(controls: controls) },
                request: URLRequest(url: Self.url)
            )
            #expect(violations == [])
        }
    }

    @Test("a blocked URL fails before it is passed on, as a refused connection naming the pattern")
    func blocked() async throws {
        let harness = HandlerHarness(handler: InspectorControlHandler(controls: try Self.controls(blocking: "*/ads/*")))
        guard case .failed(let error) = await harness.start(URLRequest(url: Self.url)) else {
            Issue.record("the blocked request was not failed")
            return
        }
        #expect((error as? URLError)?.code == .cannotConnectToHost)
        #expect(error.localizedDescription.contains("*/ads/*"))
        #expect(harness.context.annotations[InspectorControlHandler.blockedAnnotation] == "*/ads/*")
        try await harness.finish()
    }

    @Test("a throttling preset delays the request on the clock before it is passed on")
    func throttled() async throws {
        let harness = HandlerHarness(handler: InspectorControlHandler(controls: try Self.controls(preset: "slow-3g")))
        async let step = harness.start(URLRequest(url: Self.url))
        await harness.clock.waitForSleepers(count: 1)
        #expect(harness.clock.sleeperCount == 1, "waiting out the preset's latency")
        harness.advance(by: NetworkProfile.slow3G.latency)
        guard case .passedOn = await step else {
            Issue.record("the request was not passed on after the latency")
            return
        }
        try harness.fail(URLError(.timedOut))
        await #expect(throws: URLError(.timedOut)) { try await harness.answer() }
        try await harness.finish()
    }
}
