import Foundation
import NetTapTesting
import Testing

@testable import NetTapCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Appends its name to a shared trail on the way in and out.
private struct TrailHandler: TransactionHandler {
    let name: String
    let trail: Locked<[String]>

    func handle(_ request: URLRequest, context: TransactionContext, next: Next) async throws -> HandlerResponse {
        trail.withLock { $0.append("in:\(name)") }
        var request = request
        request.addValue(name, forHTTPHeaderField: "X-Trail")
        let response = try await next(request)
        trail.withLock { $0.append("out:\(name)") }
        return response
    }
}

private struct AnsweringHandler: TransactionHandler {
    let name = "answer"
    func handle(_ request: URLRequest, context: TransactionContext, next: Next) async throws -> HandlerResponse {
        context.answer(by: name)
        context.annotate("stub", "answer-1")
        context.addFinding(Finding(rule: "test.answered", severity: .info, location: "body", message: "Answered."))
        return HandlerResponse(statusCode: 201, headers: ["X-Answer": "yes"], body: .string("answered"))
    }
}

private struct DoubleNextHandler: TransactionHandler {
    let name = "twice"
    func handle(_ request: URLRequest, context: TransactionContext, next: Next) async throws -> HandlerResponse {
        _ = try await next(request)
        return try await next(request)
    }
}

private struct FailingHandler: TransactionHandler {
    let name = "offline"
    func handle(_ request: URLRequest, context: TransactionContext, next: Next) async throws -> HandlerResponse {
        throw URLError(.notConnectedToInternet)
    }
}

private struct DelayHandler: TransactionHandler {
    let name = "delay"
    func handle(_ request: URLRequest, context: TransactionContext, next: Next) async throws -> HandlerResponse {
        try await context.clock.sleep(for: .milliseconds(300))
        return try await next(request)
    }
}

@Suite("Pipeline")
struct PipelineTests {
    let url = URL(string: "https://api.example.com/items")!

    @Test("the first handler sees the request first and the response last")
    func order() async throws {
        let trail = Locked<[String]>([])
        let transport = FakeTransport(body: Data("net".utf8))
        let harness = PipelineHarness(
            handlers: [TrailHandler(name: "one", trail: trail), TrailHandler(name: "two", trail: trail)],
            transport: transport
        )
        let result = try await harness.send(URLRequest(url: url))
        #expect(trail.current == ["in:one", "in:two", "out:two", "out:one"])
        #expect(result.body == Data("net".utf8))
        #expect(result.answeredBy == "network")
        let sent = try #require(transport.requests.first)
        #expect(sent.value(forHTTPHeaderField: "X-Trail") == "one,two")
    }

    @Test("a handler that answers stops the request before the transport")
    func answerStops() async throws {
        let trail = Locked<[String]>([])
        let transport = FakeTransport()
        let harness = PipelineHarness(
            handlers: [
                TrailHandler(name: "outer", trail: trail), AnsweringHandler(),
                TrailHandler(name: "inner", trail: trail),
            ],
            transport: transport
        )
        let result = try await harness.send(URLRequest(url: url))
        #expect(result.statusCode == 201)
        #expect(result.body == Data("answered".utf8))
        #expect(result.answeredBy == "answer")
        #expect(result.annotations["stub"] == "answer-1")
        #expect(result.findings.map(\.rule) == ["test.answered"])
        #expect(transport.requests.isEmpty)
        #expect(trail.current == ["in:outer", "out:outer"])
    }

    @Test("calling next twice throws a pipeline error naming the handler")
    func nextTwice() async throws {
        let harness = PipelineHarness(handlers: [DoubleNextHandler()])
        await #expect(throws: PipelineError.nextCalledTwice(handler: "twice")) {
            _ = try await harness.send(URLRequest(url: url))
        }
    }

    @Test("a simulated network failure reaches the caller as the same URLError")
    func failure() async throws {
        let harness = PipelineHarness(handlers: [FailingHandler()])
        do {
            _ = try await harness.send(URLRequest(url: url))
            Issue.record("expected a failure")
        } catch let error as URLError {
            #expect(error.code == .notConnectedToInternet)
        }
    }

    @Test("a delay waits on the injected clock, not on real time")
    func delayOnTestClock() async throws {
        let clock = ManualClock()
        let harness = PipelineHarness(
            handlers: [DelayHandler()],
            transport: FakeTransport(statusCode: 204),
            clock: clock
        )
        let request = URLRequest(url: url)
        async let result = harness.send(request)
        await clock.waitForSleepers(count: 1)
        clock.advance(by: .milliseconds(299))
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .milliseconds(1))
        #expect(try await result.statusCode == 204)
    }

    @Test("cancelling the surrounding task cancels a handler waiting on the clock")
    func cancellation() async throws {
        let clock = ManualClock()
        let transport = FakeTransport()
        let harness = PipelineHarness(handlers: [DelayHandler()], transport: transport, clock: clock)
        let request = URLRequest(url: url)
        let task = Task { try await harness.send(request) }
        await clock.waitForSleepers(count: 1)
        task.cancel()
        await #expect(throws: CancellationError.self) { _ = try await task.value }
        #expect(transport.requests.isEmpty)
    }
}
