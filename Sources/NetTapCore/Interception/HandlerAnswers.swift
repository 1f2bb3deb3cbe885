import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What the platform's HTTP stack does to every network answer, done for answers that handlers made, so the
/// app cannot tell them apart (platform-notes §10).
///
/// - Cookies: every `Set-Cookie` line lands in the app session's cookie storage, as libcurl's header callback
///   stores them for network answers (`EasyHandle.setCookies`): only the configuration's
///   `httpCookieAcceptPolicy == .never` stops it (`httpShouldSetCookies` only governs sending), then the
///   storage's own policy and domain rules apply (`HTTPCookieStorage.setCookies(_:for:mainDocumentURL:)`).
/// - No content: a response to `HEAD`, and a 1xx, 204 or 304 response, has no body (RFC 9110 §6.4.1); bytes
///   a handler supplied anyway are not delivered, as libcurl never reads them.
/// - Framing: a body of known length without `Content-Length` gets one, so `expectedContentLength` is what a
///   server sending the same bytes gives; a streamed body of unknown length gets none, as a chunked one.
/// - Errors: a bare `URLError` is worded as the platform words the real failure (``SimulatedFailure``), and
///   every `URLError` gets `NSErrorFailingURLKey` and `NSErrorFailingURLStringKey` when the handler left them out,
///   as the platform's failures carry them; timeouts stay bare, as the platform's timer reports them.
package enum HandlerAnswers {
    /// Stores the `Set-Cookie` lines the forwarding session has not stored already.
    ///
    /// A response made by the forwarding transport (`origin`) had its own lines stored by the forwarding
    /// session, which shares the app's cookie storage and policy; only lines a handler added are stored here.
    /// Each line is parsed on its own, so several lines, names in any case and `Expires` dates with commas
    /// all work.
    /// - Parameters:
    ///   - response: The response as it reaches the app.
    ///   - url: The URL the response answers.
    ///   - profile: The app session's cookie settings.
    static func storeCookies(of response: HandlerResponse, for url: URL, profile: ForwardingProfile) {
        guard let storage = profile.cookieStorage, profile.cookieAcceptPolicy != .never else { return }
        var lines = response.headers.values(for: "Set-Cookie")
        guard !lines.isEmpty else { return }
        if let origin = response.origin {
            for stored in origin.headers.values(for: "Set-Cookie") {
                if let index = lines.firstIndex(of: stored) { lines.remove(at: index) }
            }
        }
        let cookies = lines.flatMap { SetCookieReader.cookies(in: $0, for: url) }
        if !cookies.isEmpty { storage.setCookies(cookies, for: url, mainDocumentURL: nil) }
    }

    /// Whether a response to `method` with `statusCode` has no content (RFC 9110 §6.4.1, §9.3.2).
    package static func hasNoContent(statusCode: Int, method: String) -> Bool {
        method.caseInsensitivelyEquals("HEAD") || (100..<200).contains(statusCode)
            || statusCode == 204 || statusCode == 304
    }

    /// The response without its body when it may have none; the dropped body's producer is told (cancelled).
    ///
    /// Responses of the forwarding transport pass unchanged: the platform already delivered no body.
    static func withoutForbiddenBody(
        _ response: HandlerResponse,
        method: String,
        context: TransactionContext
    )
        -> HandlerResponse
    {
        guard response.origin == nil, hasNoContent(statusCode: response.statusCode, method: method) else {
            return response
        }
        if response.body.expectedLength != 0 {
            let reason = method.caseInsensitivelyEquals("HEAD") ? "HEAD" : "\(response.statusCode)"
            context.annotate("body", "not delivered: a \(reason) response has no content (RFC 9110 §6.4.1)")
        }
        response.body.channel.cancel()
        var bodiless = response
        bodiless.body = .empty
        return bodiless
    }

    /// The response with the framing a server sends for its body: `Content-Length` from the body's known length.
    ///
    /// A body of known length (``ResponseBody/expectedLength``) whose headers give neither `Content-Length` nor
    /// `Transfer-Encoding` gets `Content-Length`, so `expectedContentLength` is what a server sending those bytes
    /// gives; a streamed body of unknown length gets none (`-1`, as from a chunked server); a length the handler
    /// gave is kept. Never for a response without content (HEAD, 1xx, 204, 304: RFC 9110 §8.6 lets those state the
    /// length of a body they do not carry, so only the handler can know it), nor for a forwarded response, framed
    /// by the network.
    /// - Parameters:
    ///   - response: The answer as it reaches the app.
    ///   - method: The request's method.
    /// - Returns: The answer, with `Content-Length` added when it was missing.
    static func framed(_ response: HandlerResponse, method: String) -> HandlerResponse {
        guard response.origin == nil, !hasNoContent(statusCode: response.statusCode, method: method),
            let length = response.body.expectedLength,
            !response.headers.contains(name: "Content-Length"),
            !response.headers.contains(name: "Transfer-Encoding")
        else { return response }
        var framed = response
        framed.headers.add(name: "Content-Length", value: String(length))
        return framed
    }

    /// The error the app receives for a failure on the pipeline path.
    ///
    /// - `CancellationError` (a handler's own) becomes `URLError(.cancelled)`.
    /// - An `NSError` in `NSURLErrorDomain` becomes a `URLError` (Linux does not bridge them).
    /// - A `URLError` with neither a description nor an underlying error (a handler's `URLError(.cannotFindHost)`)
    ///   is worded as the platform words the real failure (``SimulatedFailure``), keeping the keys it has.
    /// - A `URLError` gets the failing-URL keys when missing; a FoundationNetworking timeout stays bare.
    /// - Parameters:
    ///   - error: What the pipeline or the body threw.
    ///   - requestURL: The URL of the app's request.
    /// - Returns: The error to relay and record.
    static func appError(_ error: any Error, requestURL: URL) -> any Error {
        let converted = error is CancellationError ? URLError(.cancelled) : ForwardingExchange.urlError(error)
        guard let urlError = converted as? URLError else { return converted }
        let given = urlError.userInfo
        let failingURL = given[NSURLErrorFailingURLErrorKey] as? URL ?? requestURL
        let isBare = given[NSLocalizedDescriptionKey] == nil && given[NSUnderlyingErrorKey] == nil
        var info = isBare ? SimulatedFailure.error(urlError.code, url: failingURL).userInfo : [:]
        #if canImport(FoundationNetworking)
        if urlError.code == .timedOut { return isBare ? URLError(.timedOut) : urlError }
        #endif
        info.merge(given) { _, handlers in handlers }
        if info[NSURLErrorFailingURLErrorKey] == nil { info[NSURLErrorFailingURLErrorKey] = failingURL }
        if info[SimulatedFailure.failingURLStringKey] == nil {
            info[SimulatedFailure.failingURLStringKey] = failingURL.absoluteString
        }
        return URLError(urlError.code, userInfo: info)
    }
}
