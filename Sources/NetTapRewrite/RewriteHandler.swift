import Foundation
import NetTapCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Rewrites what goes to the network and what comes back: map remote, request and response header edits, response
/// body replacements (``RewriteRules``).
///
/// ```
///  request ─▶ map remote (first rule that takes it) ─▶ request header edits ─▶ next
///  response ◀─ body replacements ◀─ response header edits ◀─ URL and cookies back to the app's host ◀─┘
/// ```
///
/// The handler sits below mocks, local files and the cassette (`HandlerLayer.rewrite`), so those match the
/// request the app sent, and above the offline cache and the transport, which see the rewritten one. Every rule's
/// matcher tests the request as the app sent it.
///
/// ```swift
/// let interceptor = NetTapInterceptor()
/// interceptor.handlers = [
///     RewriteHandler(rules: RewriteRules(
///         mapRemote: [try MapRemote(from: "https://api.example.com/v1", to: "http://127.0.0.1:8080/staging/v1")],
///         requestHeaders: [try .set("X-Debug", to: "1")]
///     ))
/// ]
/// ```
///
/// The capture shows the request as sent (the mapped URL, the edited header fields) and the response as the app
/// got it, and the annotations say what changed: ``originalURLAnnotation``, ``rulesAnnotation``,
/// ``requestHeadersAnnotation``, ``responseHeadersAnnotation``, ``responseBodyAnnotation``.
///
/// Thread safety: the handler is an immutable value; use it from any thread.
public struct RewriteHandler: TransactionHandler {
    /// `rewrite`: the handler's name.
    public let name = "rewrite"
    /// The rules.
    public let rules: RewriteRules

    /// `rewrite.original-url`: the URL the app asked for, when a map remote sent the request elsewhere (the captured
    /// request shows where it went).
    public static let originalURLAnnotation = "rewrite.original-url"
    /// `rewrite.rules`: the rules that changed something, in the order they applied, separated by `; `.
    public static let rulesAnnotation = "rewrite.rules"
    /// `rewrite.request-headers`: the request header edits that changed something, such as `set X-Debug`.
    public static let requestHeadersAnnotation = "rewrite.request-headers"
    /// `rewrite.response-headers`: the response header edits that changed something, such as `remove Server`.
    public static let responseHeadersAnnotation = "rewrite.response-headers"
    /// `rewrite.response-body`: what each body rule did (`replace "a" with "b" ×3`, `set $.user.name ×1`) or why it
    /// changed nothing (`remove $.ads: no value there`, `set $.x: not JSON`).
    public static let responseBodyAnnotation = "rewrite.response-body"

    /// Creates the handler.
    ///
    /// - Parameter rules: The rules.
    public init(rules: RewriteRules) {
        self.rules = rules
    }

    /// Rewrites the request, passes it on and rewrites the response.
    ///
    /// - Parameters:
    ///   - request: The request as the handlers above left it.
    ///   - context: The transaction's context; it gets the annotations.
    ///   - next: The rest of the pipeline.
    /// - Returns: The response with the app's URL, its header fields edited and its body rewritten.
    /// - Throws: What the rest of the pipeline throws; a `URLError` names the app's URL, not the mapped one.
    public func handle(_ request: URLRequest, context: TransactionContext, next: Next) async throws -> HandlerResponse {
        guard !rules.isEmpty else { return try await next(request) }
        let (sent, mapping) = rewritten(request, context: context)
        var response: HandlerResponse
        let hopsBefore = context.redirects.count
        do {
            response = try await next(sent)
        } catch {
            throw mapping.map { Self.presenting(error, rule: $0, requested: request) } ?? error
        }
        if let mapping {
            present(&response, rule: mapping, requested: request, context: context, hopsBefore: hopsBefore)
        }
        editResponseHeaders(of: &response, for: request, context: context)
        return try await rewriteBody(of: response, for: request, method: sent.httpMethod ?? "GET", context: context)
    }
}

/// Starts on URLSession's queue: its synchronous part neither calls URLSession nor blocks.
extension RewriteHandler: StartsInline {}
