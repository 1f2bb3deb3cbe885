import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An ordered list of handlers around a transport.
///
/// ```
///  request ─▶ handler 1 ─▶ handler 2 ─▶ … ─▶ transport
///  response ◀─ handler 1 ◀─ handler 2 ◀─ … ◀─┘
/// ```
/// The first handler sees the request first and the response last. A handler that answers stops the
/// request there; later handlers and the transport never see it.
public struct Pipeline: Sendable {
    /// The handlers, outermost first.
    public var handlers: [any TransactionHandler]
    /// Where requests go after the last handler.
    public var transport: any Transport

    /// Creates a pipeline.
    /// - Parameters:
    ///   - handlers: The handlers, outermost first.
    ///   - transport: The transport at the end.
    public init(handlers: [any TransactionHandler] = [], transport: any Transport) {
        self.handlers = handlers
        self.transport = transport
    }

    /// Runs a request through every handler and the transport.
    /// - Parameters:
    ///   - request: The request from the app.
    ///   - context: The transaction's context.
    /// - Returns: The response the outermost handler returned.
    /// - Throws: What a handler or the transport throws.
    /// - Complexity: O(number of handlers) plus what each handler does.
    public func send(_ request: URLRequest, context: TransactionContext) async throws -> HandlerResponse {
        try await run(request, context: context, from: 0)
    }

    private func run(
        _ request: URLRequest,
        context: TransactionContext,
        from index: Int
    ) async throws -> HandlerResponse {
        try Task.checkCancellation()
        guard index < handlers.count else {
            context.markRequestSent(request)
            if URLSessionQueueWindow.isCurrent, !(transport is any StartsInline) { await URLSessionQueueWindow.leave() }
            return try await transport.send(request, context: context)
        }
        let handler = handlers[index]
        if URLSessionQueueWindow.isCurrent, !(handler is any StartsInline) { await URLSessionQueueWindow.leave() }
        context.noteStageRequest(request)
        let next = Next(handlerName: handler.name) { request in
            try await run(request, context: context, from: index + 1)
        }
        let response = try await handler.handle(request, context: context, next: next)
        return response
    }
}
