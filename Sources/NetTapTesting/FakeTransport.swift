import Foundation
import NetTapCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A transport that answers from a closure instead of the network and remembers every request it got.
///
/// ```swift
/// let transport = FakeTransport { request in
///     HandlerResponse(statusCode: 200, headers: ["Content-Type": "text/plain"], body: .string("hi"))
/// }
/// ```
///
/// Thread safety: every member may be used from any thread.
public final class FakeTransport: Transport, @unchecked Sendable {
    private let respond: @Sendable (URLRequest) async throws -> HandlerResponse
    private let lock = NSLock()
    private var received: [URLRequest] = []

    /// Creates a transport that answers with `respond`.
    /// - Parameter respond: Produces the response for a request, or throws the error to fail with (use
    ///   `URLError` for network failures).
    public init(_ respond: @escaping @Sendable (URLRequest) async throws -> HandlerResponse) {
        self.respond = respond
    }

    /// Creates a transport that answers every request with the same status, headers and body.
    /// - Parameters:
    ///   - statusCode: The status code; 200 by default.
    ///   - headers: The header fields.
    ///   - body: The body bytes.
    public convenience init(statusCode: Int = 200, headers: HeaderFields = [:], body: Data = Data()) {
        self.init { request in
            HandlerResponse(statusCode: statusCode, headers: headers, url: request.url, body: .data(body))
        }
    }

    /// The requests received so far, in order.
    public var requests: [URLRequest] {
        lock.lock()
        defer { lock.unlock() }
        return received
    }

    /// Records the request and answers it with the closure.
    /// - Parameters:
    ///   - request: The request.
    ///   - context: The transaction's context; the request is marked sent.
    /// - Returns: The closure's response.
    /// - Throws: What the closure throws.
    public func send(_ request: URLRequest, context: TransactionContext) async throws -> HandlerResponse {
        lock.withLock { received.append(request) }
        context.markRequestSent(request)
        let response = try await respond(request)
        context.markFirstByte()
        return response
    }
}
