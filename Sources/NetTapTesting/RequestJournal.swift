import Foundation
import NetTapCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A handler that writes down every request that reaches it, in arrival order, and passes it on unchanged.
///
/// Put it first in the pipeline to see each request as the app sent it (body resolved into `httpBody`,
/// the session's additional headers merged). A request is in the journal before any later handler or the
/// network answers it, so once the app has its response the journal already counts the request.
///
/// The journal is not redacted: it is part of the traffic path, holds the real requests in memory for the
/// test's assertions (`Authorization: Bearer …` as sent), and is never stored or exported. The capture log's
/// transactions, which are, are redacted (`NetTapInterceptor.redactor`).
///
/// ```swift
/// let journal = RequestJournal()
/// interceptor.handlers = [journal, mocks.handler]
/// // … run the code under test …
/// #expect(journal.count(matching: .method("POST") && .path("/login")) == 1)
/// ```
///
/// Thread safety: every member may be used from any thread.
public final class RequestJournal: TransactionHandler, Sendable {
    /// The handler's name, `journal`; it never answers.
    public let name = "journal"
    private let entries = Locked([URLRequest]())

    /// Creates an empty journal.
    public init() {}

    /// Records the request and passes it on.
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - context: The transaction's context.
    ///   - next: The rest of the pipeline.
    /// - Returns: The response of the rest of the pipeline.
    /// - Throws: What the rest of the pipeline throws.
    public func handle(_ request: URLRequest, context: TransactionContext, next: Next) async throws -> HandlerResponse {
        entries.withLock { $0.append(request) }
        return try await next(request)
    }

    /// Every request so far, in arrival order; bodies are in `httpBody`.
    public var requests: [URLRequest] { entries.current }

    /// The requests a matcher selects, in arrival order.
    ///
    /// - Parameter matcher: Which requests to return.
    /// - Returns: The matching requests.
    public func requests(matching matcher: RequestMatcher) -> [URLRequest] {
        entries.current.filter(matcher.matches)
    }

    /// How many requests a matcher selects.
    ///
    /// - Parameter matcher: Which requests to count.
    /// - Returns: The number of matching requests.
    public func count(matching matcher: RequestMatcher) -> Int {
        requests(matching: matcher).count
    }

    /// Forgets every request.
    public func removeAll() {
        entries.withLock { $0.removeAll() }
    }
}

/// Starts on URLSession's queue: its synchronous part neither calls URLSession nor blocks.
extension RequestJournal: StartsInline {}
