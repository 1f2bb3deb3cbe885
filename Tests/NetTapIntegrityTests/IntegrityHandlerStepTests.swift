import Foundation
import NetTapCore
import NetTapIntegrity
import NetTapTestSupport
import NetTapTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("IntegrityHandler stepped in the HandlerHarness: the whole body held until verified, the contract")
struct IntegrityHandlerStepTests {
    private typealias Fixture = IntegrityHandlerTests

    @Test(
        "keeps the handler contract with a good and a tampered body, for every mismatch action",
        arguments: [IntegrityRule.MismatchAction.report, .fail]
    )
    func contract(action: IntegrityRule.MismatchAction) async throws {
        let request = try Fixture.request("/static/app.\(try Fixture.hex(Fixture.good)).js")
        for body in [Fixture.good, Fixture.tampered] {
            let violations = await HandlerContract.violations(
                of: { Fixture.handler(action) },
                request: request,
                body: body
            )
            #expect(violations == [], "\(action)")
        }
    }

    @Test("keeps the handler contract when it serves a bundled fallback copy")
    func contractWithFallback() async throws {
        let name = "app.\(try Fixture.hex(Fixture.good)).js"
        let folder = try Fixture.bundledFolder(["static/\(name)": Fixture.good])
        defer { folder.remove() }
        let handler = IntegrityHandler(
            rules: [IntegrityRule(.any, expect: .fileName, onMismatch: .fallback(.directory(folder.url)))]
        )
        let violations = await HandlerContract.violations(
            of: { handler },
            request: try Fixture.request("/static/\(name)"),
            body: Fixture.tampered
        )
        #expect(violations == [])
    }

    @Test("a body from below in two chunks reaches the app as one verified chunk, only after its end")
    func holdsTheWholeBody() async throws {
        let harness = HandlerHarness(handler: Fixture.handler(.fail))
        let request = try Fixture.request("/static/app.\(try Fixture.hex(Fixture.good)).js")
        guard case .passedOn = await harness.start(request) else {
            Issue.record("the request was not passed on")
            return
        }
        try harness.sendHead(statusCode: 200, headers: ["Content-Type": "application/javascript"])
        let answered = Locked(false)
        let answer = Task {
            defer { answered.withLock { $0 = true } }
            return try await harness.answer()
        }
        harness.sendChunk(Fixture.good.prefix(5))
        harness.sendChunk(Fixture.good.dropFirst(5))
        #expect(!answered.current, "no answer before the body from below ended")
        harness.end()
        let response = try await answer.value
        #expect(response.body.expectedLength == Int64(Fixture.good.count))
        #expect(try await harness.readChunk() == Fixture.good)
        #expect(try await harness.readChunk() == nil)
        #expect(harness.context.annotations["integrity"] == "verified sha256 (file name)")
        try await harness.finish()
    }

    @Test("the app cancelling while the body is held cancels the body from below; nothing is verified")
    func cancelWhileHolding() async throws {
        let harness = HandlerHarness(handler: Fixture.handler(.fail))
        _ = await harness.start(try Fixture.request("/static/app.\(try Fixture.hex(Fixture.good)).js"))
        try harness.sendHead(statusCode: 200, headers: ["Content-Type": "application/javascript"])
        harness.sendChunk(Fixture.good.prefix(5))
        harness.cancel()
        await #expect(throws: CancellationError.self) { try await harness.answer() }
        try await harness.finish()
        #expect(harness.isBodyFromBelowCancelled)
        #expect(harness.context.annotations["integrity"] == nil)
        #expect(harness.context.findings.isEmpty)
    }
}
