import Foundation
import NetTapCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Runs one request through one handler and lets a test play everything around it, one event at a time — what
/// the handler passes on, the head, each chunk and the end of the answer from below, the app reading or
/// cancelling, the test clock — and ``finish(waitingUpTo:)`` fails on anything left over, as SwiftNIO's
/// `EmbeddedChannel` does.
///
/// The harness is the handler's `next` and its caller. When the handler passes the request on, the harness holds
/// it until the test answers with ``sendHead(statusCode:headers:expectedLength:)``, ``sendChunk(_:)`` and
/// ``end(throwing:)`` (or ``respond(statusCode:headers:body:)`` for all three), or fails it with ``fail(_:)``.
/// ``answer()`` waits for what the handler returns; ``readChunk()`` and ``readBody()`` read its body as the app
/// would, and ``cancel()`` stops the request as the app does.
///
/// ```swift
/// let harness = HandlerHarness(handler: ShapingHandler(shaper: NetworkShaper(profile: .threeG)))
/// async let step = harness.start(URLRequest(url: url))
/// await harness.clock.waitForSleepers(count: 1)                 // the profile's latency
/// harness.advance(by: .milliseconds(200))
/// guard case .passedOn = await step else { … }
/// try harness.sendHead(statusCode: 200)
/// harness.sendChunk(Data("hello".utf8))
/// harness.end()
/// let answer = try await harness.answer()                      // the handler's head
/// async let chunk = harness.readChunk()                        // paced on the clock
/// await harness.clock.waitForSleepers(count: 1)
/// harness.advance(by: .milliseconds(50))
/// #expect(try await chunk == Data("hello".utf8))
/// #expect(try await harness.readChunk() == nil)
/// try await harness.finish()                                   // next once, bodies closed, no sleep left
/// ```
///
/// A handler that sleeps before it passes the request on or between chunks waits for the test to advance the
/// clock: start such steps with `async let`, wait for the sleeper, then advance.
///
/// Thread safety: every member may be used from any task.
public final class HandlerHarness: Sendable {
    /// What the handler did first with the request.
    public enum Step: Sendable {
        /// It passed this request on (maybe changed); answer it with ``sendHead(statusCode:headers:expectedLength:)``
        /// or ``respond(statusCode:headers:body:)``, or fail it with ``fail(_:)``.
        case passedOn(URLRequest)
        /// It answered without passing the request on; read the body with ``readChunk()`` or ``readBody()``.
        case answered(HandlerResponse)
        /// It threw without passing the request on.
        case failed(any Error)
    }

    /// The clock the handler's context uses; move it with ``advance(by:)``.
    public let clock: ManualClock
    /// The transaction's context: who answered, annotations, findings, redirects.
    public let context: TransactionContext

    private let handler: any TransactionHandler
    private let state = Locked(HarnessState())

    /// Creates a harness for one request.
    ///
    /// - Parameters:
    ///   - handler: The handler under test.
    ///   - clock: Its clock; a new ``ManualClock`` at zero by default.
    public init(handler: any TransactionHandler, clock: ManualClock = ManualClock()) {
        self.handler = handler
        self.clock = clock
        self.context = TransactionContext(clock: clock)
    }

    // MARK: - The app's side

    /// Starts the request and waits until the handler passes it on, answers or throws.
    ///
    /// - Parameter request: The request from the handlers above (or the app).
    /// - Returns: What the handler did first.
    public func start(_ request: URLRequest) async -> Step {
        let next = Next(handlerName: handler.name) { [self] sent in try await passOn(sent) }
        let handler = handler
        let context = context
        let task = Task { [self] in
            do {
                handlerReturned(.success(try await handler.handle(request, context: context, next: next)))
            } catch {
                handlerReturned(.failure(error))
            }
        }
        state.withLock {
            $0.next = next
            $0.task = task
        }
        await waitUntil { $0.passedOn != nil || $0.outcome != nil }
        return state.withLock { state in
            if let sent = state.passedOn { return .passedOn(sent) }
            switch state.outcome {
            case .success(let response): return .answered(response)
            case .failure(let error): return .failed(error)
            case nil: return .failed(HandlerHarnessError.noAnswer)
            }
        }
    }

    /// Waits for what the handler returns: its answer (read the body with ``readChunk()``), or what it throws.
    ///
    /// - Returns: The handler's answer.
    /// - Throws: What the handler throws.
    public func answer() async throws -> HandlerResponse {
        await waitUntil { $0.outcome != nil }
        guard let outcome = state.withLock({ $0.outcome }) else { throw HandlerHarnessError.noAnswer }
        return try outcome.get()
    }

    /// Reads the next chunk of the handler's answer, as the app would.
    ///
    /// - Returns: The chunk, or `nil` at the end of the body.
    /// - Throws: What the body ends with, or ``HandlerHarnessError/noAnswer`` before the handler answered.
    public func readChunk() async throws -> Data? {
        guard let channel = state.withLock({ $0.answerBody }) else { throw HandlerHarnessError.noAnswer }
        do {
            let chunk = try await channel.next()
            if chunk == nil { state.withLock { $0.isAnswerRead = true } }
            return chunk
        } catch {
            // A body that ends with an error (a dropped connection) has been read to its end too.
            state.withLock { $0.isAnswerRead = true }
            throw error
        }
    }

    /// Reads the rest of the handler's answer.
    ///
    /// - Returns: The bytes up to the end of the body.
    /// - Throws: What the body ends with, or ``HandlerHarnessError/noAnswer`` before the handler answered.
    public func readBody() async throws -> Data {
        var body = Data()
        while let chunk = try await readChunk() { body.append(chunk) }
        return body
    }

    /// Cancels the request as the app does: the handler's task is cancelled and its answer's body, if any, is
    /// cancelled from the reading side (an answer that arrives later is cancelled when it arrives).
    public func cancel() {
        let (task, body) = state.withLock { state -> (Task<Void, Never>?, BodyChannel?) in
            state.isCancelled = true
            return (state.task, state.answerBody)
        }
        task?.cancel()
        body?.cancel()
    }

    /// Moves the test clock forward, waking the handler's sleeps that come due.
    ///
    /// - Parameter duration: How far.
    public func advance(by duration: Duration) {
        clock.advance(by: duration)
    }

    // MARK: - Below the handler

    /// Answers the request the handler passed on with a head; write its body with ``sendChunk(_:)`` and
    /// ``end(throwing:)``.
    ///
    /// - Parameters:
    ///   - statusCode: The status from below.
    ///   - headers: The header fields from below.
    ///   - expectedLength: The body's length in bytes when known, as a transport gives it from `Content-Length`.
    /// - Throws: ``HandlerHarnessError/nothingPassedOn`` when no request waits for an answer.
    public func sendHead(statusCode: Int, headers: HeaderFields = [:], expectedLength: Int64? = nil) throws {
        var writer: BodyWriter?
        let body = ResponseBody.stream(expectedLength: expectedLength) { writer = $0 }
        writer?.onCancel { [self] in downstreamBodyCancelled() }
        let waiting = try takeDownstream { $0.writer = writer }
        waiting.resume(returning: HandlerResponse(statusCode: statusCode, headers: headers, body: body))
    }

    /// Answers the request the handler passed on with a whole response, then waits for the handler's answer.
    ///
    /// For handlers that read the body before they answer (an integrity check): the body is written and ended
    /// before waiting.
    ///
    /// - Parameters:
    ///   - statusCode: The status from below.
    ///   - headers: The header fields from below.
    ///   - body: The body from below.
    /// - Returns: The handler's answer (read its body with ``readChunk()`` or ``readBody()``).
    /// - Throws: What the handler throws, or ``HandlerHarnessError/nothingPassedOn``.
    @discardableResult
    public func respond(
        statusCode: Int,
        headers: HeaderFields = [:],
        body: Data = Data()
    ) async throws
        -> HandlerResponse
    {
        try sendHead(statusCode: statusCode, headers: headers, expectedLength: Int64(body.count))
        sendChunk(body)
        end()
        return try await answer()
    }

    /// Fails the request the handler passed on, as a transport does; ``answer()`` then tells what the handler
    /// made of it.
    ///
    /// - Parameter error: The failure, usually a `URLError`.
    /// - Throws: ``HandlerHarnessError/nothingPassedOn`` when no request waits for an answer.
    public func fail(_ error: any Error) throws {
        try takeDownstream { _ in }.resume(throwing: error)
    }

    /// Writes a chunk of the body from below.
    ///
    /// - Parameter data: The bytes; an empty chunk is ignored.
    public func sendChunk(_ data: Data) {
        state.withLock { $0.writer }?.write(data)
    }

    /// Ends the body from below, with an error when `error` is not `nil`.
    ///
    /// - Parameter error: The failure mid-body (a `URLError(.networkConnectionLost)`, say), or `nil` for a clean end.
    public func end(throwing error: (any Error)? = nil) {
        let writer = state.withLock { state -> BodyWriter? in
            state.isDownstreamBodyEnded = state.writer != nil
            return state.writer
        }
        writer?.finish(throwing: error)
    }

    /// Whether the body from below was cancelled by its reader: the handler stopped reading it (after the app
    /// cancelled, say), as a transport is told to stop.
    public var isBodyFromBelowCancelled: Bool {
        state.withLock { $0.isDownstreamBodyCancelled }
    }

    // MARK: - Leftovers

    /// What a well-behaved handler and a complete test leave behind, right now: `next` called more than once,
    /// the handler still running, a request passed on and never answered, a body from below neither ended nor
    /// cancelled, an answer neither read to its end nor cancelled, a sleep still pending on the clock.
    public var leftovers: [String] {
        let state = state.withLock { $0 }
        var found: [String] = []
        if let calls = state.next?.callCount, calls > 1 {
            found.append("handler \"\(handler.name)\" called next \(calls) times; at most once is allowed")
        }
        if state.task != nil, state.outcome == nil { found.append("handler \"\(handler.name)\" has not returned") }
        if state.downstream != nil { found.append("the request passed on was never answered (sendHead or fail)") }
        if state.writer != nil, !state.isDownstreamBodyEnded, !state.isDownstreamBodyCancelled {
            found.append("the body from below is still open: neither ended nor cancelled by the handler")
        }
        if state.answerBody != nil, !state.isAnswerRead, !state.isCancelled {
            found.append("the handler's answer was not read to its end")
        }
        let sleepers = clock.sleeperCount
        if sleepers > 0 { found.append("\(sleepers) sleep(s) still pending on the clock") }
        return found
    }

    /// Fails when anything is left over (see ``leftovers``).
    ///
    /// It first gives the handler's tasks up to `limit` of real time to return and to close the body from below:
    /// they run on other threads, so a cancellation the test just made may take a moment to arrive. The wait ends
    /// as soon as nothing is left.
    ///
    /// - Parameter limit: The longest wait for work still under way; 10 s by default.
    /// - Throws: ``HandlerHarnessError/leftovers(_:)`` listing them.
    public func finish(waitingUpTo limit: Duration = .seconds(10)) async throws {
        let name = handler.name
        let settled = await waitUntil(limit: limit) { state in
            (state.task == nil || state.outcome != nil)
                && (state.writer == nil || state.isDownstreamBodyEnded || state.isDownstreamBodyCancelled)
        }
        var found = leftovers
        if !settled, found.isEmpty { found.append("handler \"\(name)\" still had work under way after \(limit)") }
        guard found.isEmpty else { throw HandlerHarnessError.leftovers(found) }
    }

    // MARK: - The handler's side

    /// The handler's `next`: hands the request to the test and waits for its answer.
    private func passOn(_ request: URLRequest) async throws -> HandlerResponse {
        context.markRequestSent(request)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                update { state in
                    state.downstream = continuation
                    state.passedOn = request
                }
            }
        } onCancel: { [self] in
            let waiting = state.withLock { state -> CheckedContinuation<HandlerResponse, any Error>? in
                defer { state.downstream = nil }
                return state.downstream
            }
            waiting?.resume(throwing: CancellationError())
        }
    }

    /// Takes the continuation of the request waiting below, changing the state with `change` under the same lock.
    private func takeDownstream(
        _ change: (inout HarnessState) -> Void
    ) throws -> CheckedContinuation<HandlerResponse, any Error> {
        try state.withLock { state in
            guard let waiting = state.downstream else { throw HandlerHarnessError.nothingPassedOn }
            state.downstream = nil
            change(&state)
            return waiting
        }
    }

    /// Keeps what the handler returned; an answer that arrives after the app cancelled is cancelled at once.
    private func handlerReturned(_ outcome: Result<HandlerResponse, any Error>) {
        var cancelledBody: BodyChannel?
        update { state in
            state.outcome = outcome
            guard case .success(let response) = outcome else { return }
            state.answerBody = response.body.channel
            if state.isCancelled { cancelledBody = response.body.channel }
        }
        cancelledBody?.cancel()
    }

    private func downstreamBodyCancelled() {
        update { $0.isDownstreamBodyCancelled = true }
    }

    // MARK: - Waiting on the state

    /// Changes the state and wakes the waits whose condition now holds.
    private func update(_ change: (inout HarnessState) -> Void) {
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            change(&state)
            return state.readyWaiters()
        }
        for waiter in ready { waiter.resume() }
    }

    /// Waits until `condition` holds for the state, or the task is cancelled.
    private func waitUntil(_ condition: @escaping @Sendable (HarnessState) -> Bool) async {
        let id = UUID()
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let holds = state.withLock { state -> Bool in
                    guard !condition(state), !Task.isCancelled else { return true }
                    state.waiters.append(HarnessState.Waiter(id: id, condition: condition, continuation: continuation))
                    return false
                }
                if holds { continuation.resume() }
            }
        } onCancel: {
            let waiting = state.withLock { state -> CheckedContinuation<Void, Never>? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiters.remove(at: index).continuation
            }
            waiting?.resume()
        }
    }

    /// Waits until `condition` holds, at most `limit` of real time.
    /// - Returns: Whether the condition held.
    private func waitUntil(limit: Duration, _ condition: @escaping @Sendable (HarnessState) -> Bool) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask { [self] in
                await waitUntil(condition)
                return state.withLock { condition($0) }
            }
            group.addTask {
                try? await Task.sleep(for: limit)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }
}

/// The harness's record of one request.
private struct HarnessState: @unchecked Sendable {
    var next: Next?
    var task: Task<Void, Never>?
    var passedOn: URLRequest?
    var outcome: Result<HandlerResponse, any Error>?
    var downstream: CheckedContinuation<HandlerResponse, any Error>?
    var writer: BodyWriter?
    var isDownstreamBodyEnded = false
    var isDownstreamBodyCancelled = false
    var answerBody: BodyChannel?
    var isAnswerRead = false
    var isCancelled = false
    var waiters: [Waiter] = []

    /// A wait for a condition on the state.
    struct Waiter {
        let id: UUID
        let condition: @Sendable (HarnessState) -> Bool
        let continuation: CheckedContinuation<Void, Never>
    }

    /// Removes and returns the waits whose condition holds.
    mutating func readyWaiters() -> [CheckedContinuation<Void, Never>] {
        var ready: [CheckedContinuation<Void, Never>] = []
        let current = self
        waiters.removeAll { waiter in
            guard waiter.condition(current) else { return false }
            ready.append(waiter.continuation)
            return true
        }
        return ready
    }
}

/// A misuse of ``HandlerHarness``, or what ``HandlerHarness/finish(waitingUpTo:)`` found left over.
public enum HandlerHarnessError: Error, Sendable, Equatable, CustomStringConvertible {
    /// An answer from below (``HandlerHarness/sendHead(statusCode:headers:expectedLength:)``,
    /// ``HandlerHarness/fail(_:)``) while no request waits for one.
    case nothingPassedOn
    /// A read before the handler answered.
    case noAnswer
    /// What was left over at the end, one line each.
    case leftovers([String])

    /// One line naming the problem.
    public var description: String {
        switch self {
        case .nothingPassedOn: "the handler has not passed a request on, or it was answered already"
        case .noAnswer: "the handler has not answered"
        case .leftovers(let found): "left over at finish: " + found.joined(separator: "; ")
        }
    }
}
