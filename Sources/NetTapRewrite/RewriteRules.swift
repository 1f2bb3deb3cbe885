import Foundation
import NetTapCore

/// Every rewrite rule a ``RewriteHandler`` applies: map remote, header edits and body replacements.
///
/// ```swift
/// let rules = RewriteRules(
///     mapRemote: [try MapRemote(from: "https://api.example.com", to: "http://127.0.0.1:8080")],
///     requestHeaders: [try .set("X-Debug", to: "1")],
///     responseBody: [try .jsonValue(at: "$.user.name", to: "Test User")]
/// )
/// ```
///
/// Map remote takes the first rule that matches, as Charles and Proxyman do; header edits and body replacements
/// apply every rule that matches, in order, each to the result of the one before, as Charles's Rewrite sets do.
/// Every matcher tests the request as the app sent it, so rules written for production URLs keep working while
/// a map remote sends them elsewhere.
public struct RewriteRules: Sendable {
    /// The default of ``bodyBufferLimit``: 8 MiB.
    public static let defaultBodyBufferLimit = 8 * 1024 * 1024

    /// Where requests go instead; the first rule that takes a request wins.
    public var mapRemote: [MapRemote]
    /// Edits of the request's header fields, applied in order.
    public var requestHeaders: [HeaderEdit]
    /// Edits of the response's header fields, applied in order.
    public var responseHeaders: [HeaderEdit]
    /// Changes of the response body, applied in order.
    public var responseBody: [BodyReplacement]
    /// The most bytes of a response body held whole, in bytes; 8 MiB by default.
    ///
    /// A body of known length up to it is rewritten whole and gets the right `Content-Length`; JSON rules read
    /// bodies up to it. Longer bodies stream (text rules) or pass unchanged (JSON rules).
    public var bodyBufferLimit: Int

    /// Creates a rule set.
    ///
    /// - Parameters:
    ///   - mapRemote: Where requests go instead; none by default.
    ///   - requestHeaders: Request header edits; none by default.
    ///   - responseHeaders: Response header edits; none by default.
    ///   - responseBody: Response body changes; none by default.
    ///   - bodyBufferLimit: The most body bytes held whole, in bytes; ``defaultBodyBufferLimit`` by default.
    public init(
        mapRemote: [MapRemote] = [],
        requestHeaders: [HeaderEdit] = [],
        responseHeaders: [HeaderEdit] = [],
        responseBody: [BodyReplacement] = [],
        bodyBufferLimit: Int = RewriteRules.defaultBodyBufferLimit
    ) {
        self.mapRemote = mapRemote
        self.requestHeaders = requestHeaders
        self.responseHeaders = responseHeaders
        self.responseBody = responseBody
        self.bodyBufferLimit = max(0, bodyBufferLimit)
    }

    /// Whether there is no rule at all.
    public var isEmpty: Bool {
        mapRemote.isEmpty && requestHeaders.isEmpty && responseHeaders.isEmpty && responseBody.isEmpty
    }

    /// One line per rule, in the order they apply, for `nettap mock list` and `nettap config check`:
    /// `map remote https://api.example.com/v1 → http://127.0.0.1:8080/staging/v1`, `request header set X-Debug: 1`,
    /// `response body set $.user.name to "Test User" if host == api.example.com`; values `redactor` holds secret
    /// are `[redacted]`.
    package func lines(redactor: Redactor = .default) -> [String] {
        mapRemote.map { "map remote \($0.label)" }
            + requestHeaders.map { "request header \($0.listing(redactor: redactor))" }
            + responseHeaders.map { "response header \($0.listing(redactor: redactor))" }
            + responseBody.map { "response body \($0.listing(redactor: redactor))" }
    }
}
