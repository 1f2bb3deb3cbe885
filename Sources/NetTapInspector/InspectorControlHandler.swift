import Foundation
import NetTapCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The pipeline stage through which DevTools' controls act on the app's requests: request blocking, and the
/// throttling menu when the app has no `ShapingHandler` of its own (see ``InspectorControls``).
///
/// A blocked request fails as a refused connection would, `URLError(.cannotConnectToHost)` naming the pattern,
/// without reaching the rest of the pipeline; its transaction is annotated with ``blockedAnnotation`` and answered
/// by `inspector`, and DevTools shows it as `net::ERR_BLOCKED_BY_CLIENT`.
package struct InspectorControlHandler: TransactionHandler {
    /// `inspector`.
    package let name = "inspector"
    /// The annotation key naming the DevTools pattern that blocked a request.
    package static let blockedAnnotation = "inspector.blocked"
    /// The controls in force.
    package let controls: InspectorControls

    /// A stage for `controls`.
    package init(controls: InspectorControls) {
        self.controls = controls
    }

    package func handle(_ request: URLRequest, context: TransactionContext, next: Next) async throws -> HandlerResponse
    {
        controls.noteRequest()
        if let url = request.url, let pattern = controls.blockingPattern(for: url) {
            context.answer(by: name)
            context.annotate(Self.blockedAnnotation, pattern)
            throw URLError(
                .cannotConnectToHost,
                userInfo: [
                    NSLocalizedDescriptionKey: "blocked by DevTools request blocking (pattern \(pattern))",
                    NSURLErrorFailingURLErrorKey: url,
                ]
            )
        }
        if let shaping = controls.ownShaping {
            return try await shaping.handle(request, context: context, next: next)
        }
        return try await next(request)
    }
}
