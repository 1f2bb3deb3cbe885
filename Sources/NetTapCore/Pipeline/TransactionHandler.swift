import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One stage of NetTap's pipeline: sees the request on its way out and the response on its way back.
///
/// Every capability (mocking, shaping, local files, replay) is a handler, built on the same extension point
/// an app's own handler uses. Handlers run in order; the first one sees the request first and the
/// response last. With one method a handler can:
///
/// | verb | how |
/// | --- | --- |
/// | observe | call `next`, annotate the context, return the response |
/// | rewrite | change the request before `next` or the response after |
/// | answer | return a response without calling `next` (and call `context.answer(by: name)`) |
/// | delay / pace | sleep on `context.clock` before `next`; pace body chunks after |
/// | fail | throw the `URLError` the network would give |
///
/// ```swift
/// struct AddAuthHeader: TransactionHandler {
///     let name = "auth-header"
///     func handle(_ request: URLRequest, context: TransactionContext, next: Next) async throws -> HandlerResponse {
///         var request = request
///         request.setValue("Bearer demo", forHTTPHeaderField: "Authorization")
///         return try await next(request)
///     }
/// }
/// ```
///
/// ## Implementation requirements
/// - Call `next` at most once (a second call throws ``PipelineError/nextCalledTwice(handler:)``).
/// - Never block a thread: wait with `await` (`context.clock.sleep(for:)`), not `Thread.sleep`.
/// - Your handler may call URLSession: NetTap's pipeline starts on URLSession's own queue, and moves off it
///   before any handler it does not know.
/// - Honour cancellation: when the caller cancels, the surrounding task is cancelled; stop and throw.
/// - Throw `URLError` with the real code for simulated network failures, so the app sees exactly what a
///   real network produces.
/// - Give decoded bodies and no `Content-Encoding` header when answering.
public protocol TransactionHandler: Sendable {
    /// A stable name, shown as ``CapturedTransaction/answeredBy`` when the handler answers and in explanations.
    var name: String { get }

    /// Handles one request.
    /// - Parameters:
    ///   - request: The request as left by the handlers before this one.
    ///   - context: The transaction's shared context.
    ///   - next: The rest of the pipeline; call at most once.
    /// - Returns: The response to hand back towards the caller.
    /// - Throws: `URLError` for network failures (real or simulated), `CancellationError` on cancellation.
    func handle(_ request: URLRequest, context: TransactionContext, next: Next) async throws -> HandlerResponse
}

/// The rest of the pipeline after a handler: call it at most once to pass the request on.
public struct Next: Sendable {
    private let run: @Sendable (URLRequest) async throws -> HandlerResponse
    private let handlerName: String
    private let calls = Locked(0)

    package init(handlerName: String, run: @escaping @Sendable (URLRequest) async throws -> HandlerResponse) {
        self.handlerName = handlerName
        self.run = run
    }

    /// How many times the handler called this `next` (a second call is refused), for test harnesses.
    package var callCount: Int { calls.current }

    /// Passes the request to the next handler, or to the transport after the last handler.
    /// - Parameter request: The request to send on.
    /// - Returns: The response from further down the pipeline.
    /// - Throws: Whatever the rest of the pipeline throws, or ``PipelineError/nextCalledTwice(handler:)``.
    public func callAsFunction(_ request: URLRequest) async throws -> HandlerResponse {
        let count = calls.withLock { count -> Int in
            count += 1
            return count
        }
        guard count == 1 else { throw PipelineError.nextCalledTwice(handler: handlerName) }
        return try await run(request)
    }
}

/// Errors of the pipeline machinery itself (programming errors in handlers).
public enum PipelineError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A handler called `next` more than once.
    case nextCalledTwice(handler: String)

    /// A one-line description naming the handler.
    public var description: String {
        switch self {
        case .nextCalledTwice(let handler):
            "handler \"\(handler)\" called next more than once; a handler must call next at most once"
        }
    }
}

extension PipelineError: LocalizedError {
    /// The same text as `description`, so `localizedDescription` (what apps and test reports show) names
    /// the input and the place too.
    public var errorDescription: String? { description }
}
