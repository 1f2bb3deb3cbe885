import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The end of the pipeline: sends a request somewhere real and returns the response head with a
/// streamed body.
///
/// ## Implementation requirements
/// - Return as soon as the final response head is known; stream the body.
/// - Follow redirects and record each hop with ``TransactionContext/recordRedirect(_:)``.
/// - Call ``TransactionContext/markRequestSent(_:)`` and ``TransactionContext/markFirstByte()``.
/// - Honour cancellation of the calling task, and of the body (`BodyChannel.onCancel`).
/// - Fail with the same `URLError` a direct caller would get.
public protocol Transport: Sendable {
    /// Sends the request.
    /// - Parameters:
    ///   - request: The request after every handler's rewrites.
    ///   - context: The transaction's context.
    /// - Returns: The final response, its body streamed.
    /// - Throws: `URLError` for network failures; `CancellationError` when cancelled.
    func send(_ request: URLRequest, context: TransactionContext) async throws -> HandlerResponse
}
