import Foundation
import NetTapCore
import NetTapTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Handlers written for these tests, each well-behaved or breaking one rule on purpose.
enum SampleHandlers {
    static let url = URL(string: "https://api.example.com/v1/items")!

    /// Adds a header and passes the request on; returns what comes back.
    struct AddsHeader: TransactionHandler {
        let name = "adds-header"
        func handle(_ request: URLRequest, context: TransactionContext, next: Next) async throws -> HandlerResponse {
            var request = request
            request.setValue("yes", forHTTPHeaderField: "X-Added")
            return try await next(request)
        }
    }

    /// Answers without passing the request on.
    struct Answers: TransactionHandler {
        let name = "answers"
        func handle(_ request: URLRequest, context: TransactionContext, next: Next) async throws -> HandlerResponse {
            context.answer(by: name)
            return HandlerResponse(statusCode: 201, headers: ["Content-Type": "text/plain"], body: .string("made"))
        }
    }

    /// Waits `delay` on the context's clock, then passes the request on.
    struct Delays: TransactionHandler {
        let name = "delays"
        var delay: Duration = .milliseconds(300)
        func handle(_ request: URLRequest, context: TransactionContext, next: Next) async throws -> HandlerResponse {
            try await context.clock.sleep(for: delay)
            return try await next(request)
        }
    }

    /// Retries once after a failure from below: calls `next` twice.
    struct Retries: TransactionHandler {
        let name = "retries"
        func handle(_ request: URLRequest, context: TransactionContext, next: Next) async throws -> HandlerResponse {
            do {
                return try await next(request)
            } catch {
                return try await next(request)
            }
        }
    }

    /// Fails with an error of its own instead of a `URLError`.
    struct OwnError: TransactionHandler {
        struct Broken: Error {}
        let name = "own-error"
        func handle(_ request: URLRequest, context: TransactionContext, next: Next) async throws -> HandlerResponse {
            _ = try await next(request)
            throw Broken()
        }
    }

    /// Copies the body from below into a body of its own without ever telling the copy's reader's cancellation
    /// to the body from below: the network transfer would go on after the app cancelled.
    struct CopiesWithoutCancelling: TransactionHandler {
        let name = "copies"
        func handle(_ request: URLRequest, context: TransactionContext, next: Next) async throws -> HandlerResponse {
            let below = try await next(request)
            var copy = below
            copy.body = .stream(expectedLength: below.body.expectedLength) { writer in
                Task.detached {
                    do {
                        for try await chunk in below.body { writer.write(chunk) }
                        writer.finish()
                    } catch {
                        writer.finish(throwing: error)
                    }
                }
            }
            return copy
        }
    }

    /// The same copy, done right: cancelling the copy cancels the reading of the body from below.
    struct CopiesAndCancels: TransactionHandler {
        let name = "copies-right"
        func handle(_ request: URLRequest, context: TransactionContext, next: Next) async throws -> HandlerResponse {
            let below = try await next(request)
            var copy = below
            copy.body = .stream(expectedLength: below.body.expectedLength) { writer in
                let pump = Task {
                    do {
                        for try await chunk in below.body { writer.write(chunk) }
                        writer.finish()
                    } catch {
                        writer.finish(throwing: error)
                    }
                }
                writer.onCancel { pump.cancel() }
            }
            return copy
        }
    }

    /// Leaves a task sleeping on the clock after it answered.
    struct LeavesASleep: TransactionHandler {
        let name = "leaves-a-sleep"
        func handle(_ request: URLRequest, context: TransactionContext, next: Next) async throws -> HandlerResponse {
            let clock = context.clock
            Task { try await clock.sleep(for: .seconds(60)) }
            return try await next(request)
        }
    }
}

@Suite("HandlerHarness: one handler stepped event by event, and finish() on leftovers")
struct HandlerHarnessTests {
    private let request = URLRequest(url: SampleHandlers.url)

    @Test("a pass-through handler: the request it passes on, the head, each chunk and the end, one at a time")
    func stepsThroughAPassThrough() async throws {
        let harness = HandlerHarness(handler: SampleHandlers.AddsHeader())
        guard case .passedOn(let sent) = await harness.start(request) else {
            Issue.record("the handler did not pass the request on")
            return
        }
        #expect(sent.value(forHTTPHeaderField: "X-Added") == "yes")
        #expect(harness.context.sentRequest?.value(forHTTPHeaderField: "X-Added") == "yes")
        try harness.sendHead(statusCode: 200, headers: ["Content-Type": "text/plain"], expectedLength: 10)
        let answer = try await harness.answer()
        #expect(answer.statusCode == 200)
        #expect(answer.headers["content-type"] == "text/plain")
        #expect(answer.body.expectedLength == 10)
        harness.sendChunk(Data("hello".utf8))
        #expect(try await harness.readChunk() == Data("hello".utf8))
        harness.sendChunk(Data("world".utf8))
        #expect(try await harness.readChunk() == Data("world".utf8))
        harness.end()
        #expect(try await harness.readChunk() == nil)
        try await harness.finish()
    }

    @Test("a handler that answers itself: no request passed on, its body read, who answered on the context")
    func answeringHandler() async throws {
        let harness = HandlerHarness(handler: SampleHandlers.Answers())
        guard case .answered(let answer) = await harness.start(request) else {
            Issue.record("the handler did not answer")
            return
        }
        #expect(answer.statusCode == 201)
        #expect(try await harness.readBody() == Data("made".utf8))
        #expect(harness.context.answeredBy == "answers")
        #expect(throws: HandlerHarnessError.nothingPassedOn) { try harness.sendHead(statusCode: 200) }
        try await harness.finish()
    }

    @Test("a delay on the clock: the request is passed on only once the test advances past it")
    func delayOnTheClock() async throws {
        let harness = HandlerHarness(handler: SampleHandlers.Delays(delay: .milliseconds(300)))
        async let step = harness.start(request)
        await harness.clock.waitForSleepers(count: 1)
        harness.advance(by: .milliseconds(299))
        #expect(harness.clock.sleeperCount == 1, "not yet due")
        harness.advance(by: .milliseconds(1))
        guard case .passedOn = await step else {
            Issue.record("the handler did not pass the request on")
            return
        }
        try await harness.respond(statusCode: 204)
        #expect(try await harness.readBody().isEmpty)
        try await harness.finish()
    }

    @Test("a failure from below reaches the handler, which rethrows it")
    func failureFromBelow() async throws {
        let harness = HandlerHarness(handler: SampleHandlers.AddsHeader())
        _ = await harness.start(request)
        try harness.fail(URLError(.networkConnectionLost))
        await #expect(throws: URLError(.networkConnectionLost)) { try await harness.answer() }
        #expect(throws: HandlerHarnessError.nothingPassedOn) { try harness.fail(URLError(.timedOut)) }
        try await harness.finish()
    }

    @Test("cancelling mid-body cancels the body from below through a pass-through handler")
    func cancelMidBody() async throws {
        let harness = HandlerHarness(handler: SampleHandlers.AddsHeader())
        _ = await harness.start(request)
        try harness.sendHead(statusCode: 200)
        _ = try await harness.answer()
        harness.sendChunk(Data("part".utf8))
        harness.cancel()
        #expect(harness.isBodyFromBelowCancelled)
        try await harness.finish()
    }

    @Test("finish() names a second call of next")
    func finishNamesSecondNext() async throws {
        let harness = HandlerHarness(handler: SampleHandlers.Retries())
        _ = await harness.start(request)
        try harness.fail(URLError(.timedOut))
        await #expect(throws: PipelineError.self) { try await harness.answer() }
        let error = await #expect(throws: HandlerHarnessError.self) { try await harness.finish() }
        #expect(error.map { "\($0)" }?.contains("called next 2 times") == true, "\(String(describing: error))")
    }

    @Test("finish() names an answer not read to its end and a body from below never ended")
    func finishNamesOpenBodies() async throws {
        let harness = HandlerHarness(handler: SampleHandlers.AddsHeader())
        _ = await harness.start(request)
        try harness.sendHead(statusCode: 200)
        _ = try await harness.answer()
        harness.sendChunk(Data("part".utf8))
        #expect(try await harness.readChunk() == Data("part".utf8))
        await #expect(
            throws: HandlerHarnessError.leftovers([
                "the body from below is still open: neither ended nor cancelled by the handler",
                "the handler's answer was not read to its end",
            ])
        ) {
            try await harness.finish(waitingUpTo: .milliseconds(50))
        }
        harness.end()
        #expect(try await harness.readChunk() == nil)
        try await harness.finish()
    }

    @Test("finish() names a request passed on and never answered, and a handler still running")
    func finishNamesUnansweredRequest() async throws {
        let harness = HandlerHarness(handler: SampleHandlers.AddsHeader())
        _ = await harness.start(request)
        await #expect(
            throws: HandlerHarnessError.leftovers([
                "handler \"adds-header\" has not returned",
                "the request passed on was never answered (sendHead or fail)",
            ])
        ) {
            try await harness.finish(waitingUpTo: .milliseconds(50))
        }
        try await harness.respond(statusCode: 200)
        _ = try await harness.readBody()
        try await harness.finish()
    }

    @Test("finish() names a sleep left pending on the clock")
    func finishNamesPendingSleep() async throws {
        let harness = HandlerHarness(handler: SampleHandlers.LeavesASleep())
        _ = await harness.start(request)
        try await harness.respond(statusCode: 200, body: Data("ok".utf8))
        _ = try await harness.readBody()
        await harness.clock.waitForSleepers(count: 1)
        await #expect(throws: HandlerHarnessError.leftovers(["1 sleep(s) still pending on the clock"])) {
            try await harness.finish(waitingUpTo: .milliseconds(50))
        }
        harness.advance(by: .seconds(60))
        try await harness.finish()
    }

    @Test("finish() names a handler whose copy of the body does not pass the app's cancellation down")
    func finishNamesUncancelledBodyFromBelow() async throws {
        let leaky = HandlerHarness(handler: SampleHandlers.CopiesWithoutCancelling())
        _ = await leaky.start(request)
        try leaky.sendHead(statusCode: 200)
        _ = try await leaky.answer()
        leaky.sendChunk(Data("part".utf8))
        leaky.cancel()
        await #expect(
            throws: HandlerHarnessError.leftovers([
                "the body from below is still open: neither ended nor cancelled by the handler"
            ])
        ) {
            try await leaky.finish(waitingUpTo: .milliseconds(200))
        }
        leaky.end()

        let right = HandlerHarness(handler: SampleHandlers.CopiesAndCancels())
        _ = await right.start(request)
        try right.sendHead(statusCode: 200)
        _ = try await right.answer()
        right.sendChunk(Data("part".utf8))
        right.cancel()
        try await right.finish()
        #expect(right.isBodyFromBelowCancelled)
    }
}

@Suite("HandlerContract: the rules every handler keeps, checked on any handler")
struct HandlerContractTests {
    private let request = URLRequest(url: SampleHandlers.url)

    @Test("well-behaved handlers pass: pass-through, answering, delaying, and a copy that passes cancellation on")
    func wellBehaved() async {
        #expect(await HandlerContract.violations(of: { SampleHandlers.AddsHeader() }, request: request) == [])
        #expect(await HandlerContract.violations(of: { SampleHandlers.Answers() }, request: request) == [])
        #expect(
            await HandlerContract.violations(of: { SampleHandlers.Delays(delay: .seconds(30)) }, request: request) == []
        )
        #expect(await HandlerContract.violations(of: { SampleHandlers.CopiesAndCancels() }, request: request) == [])
    }

    @Test("each broken rule is named with its case")
    func brokenRules() async {
        let quick = Duration.milliseconds(200)
        let retries = await HandlerContract.violations(
            of: { SampleHandlers.Retries() },
            request: request,
            waitingUpTo: quick
        )
        #expect(retries.contains { $0.hasPrefix("a failure from below:") && $0.contains("called next 2 times") })
        let ownError = await HandlerContract.violations(
            of: { SampleHandlers.OwnError() },
            request: request,
            waitingUpTo: quick
        )
        #expect(ownError.contains { $0.hasPrefix("an answer from below: failed with Broken()") }, "\(ownError)")
        // It also drops the response from below without reading or cancelling its body.
        #expect(
            ownError.contains {
                $0.hasSuffix("the body from below is still open: neither ended nor cancelled by the handler")
            }
        )
        let copies = await HandlerContract.violations(
            of: { SampleHandlers.CopiesWithoutCancelling() },
            request: request,
            waitingUpTo: quick
        )
        #expect(
            copies == [
                "the app cancelling while the body streams: the body from below is still open: neither ended nor "
                    + "cancelled by the handler"
            ]
        )
    }
}
