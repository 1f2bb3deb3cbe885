import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Follows redirects that a handler answered with, so the app sees them exactly like network redirects.
///
/// The forwarding transport follows network redirects itself. A handler that answers with a 301, 302, 303,
/// 307 or 308 and a `Location` (a stub, a HAR entry) would otherwise reach the app as a final 3xx on Linux,
/// which never follows a custom protocol's redirect. Here the request for the next hop is built with the same
/// RFC 9110 §15.4 rules the transport uses, the hop is recorded, its `Set-Cookie` lines are stored as for a
/// final answer (``HandlerAnswers``), cookies for the new URL come from the app's cookie storage, and the
/// pipeline runs again; after 20 hops the request fails with
/// `URLError(.httpTooManyRedirects)`.
enum HandlerRedirects {
    static let followedStatusCodes: Set<Int> = [301, 302, 303, 307, 308]

    /// Runs the pipeline and follows handler-answered redirects.
    /// - Returns: The final response and the request that produced it.
    static func send(
        _ request: URLRequest,
        through pipeline: Pipeline,
        context: TransactionContext
    ) async throws -> (response: HandlerResponse, request: URLRequest) {
        var current = request
        var hops = 0
        while true {
            let response = try await pipeline.send(current, context: context)
            context.freezeSentRequest()
            guard context.answeredBy != CapturedTransaction.answeredByNetwork,
                followedStatusCodes.contains(response.statusCode),
                let location = response.headers["Location"],
                let currentURL = current.url,
                let nextURL = URL(string: location, relativeTo: currentURL)?.absoluteURL
            else {
                return (response, current)
            }
            response.body.channel.cancel()
            hops += 1
            context.recordRedirect(
                RedirectHop(
                    method: current.httpMethod ?? "GET",
                    url: currentURL,
                    statusCode: response.statusCode,
                    headers: response.headers,
                    elapsedMilliseconds: context.elapsedMilliseconds,
                    answeredBy: context.answeredBy
                )
            )
            if hops > ForwardingTransport.redirectLimit {
                throw URLError(.httpTooManyRedirects, userInfo: [NSURLErrorFailingURLErrorKey: nextURL])
            }
            let profile = context.forwardingProfile ?? .standard
            HandlerAnswers.storeCookies(of: response, for: currentURL, profile: profile)
            var suggested = current
            suggested.url = nextURL
            current = ForwardingExchange.nextHop(from: current, suggested: suggested, statusCode: response.statusCode)
            if let storage = profile.cookieStorage, profile.shouldSetCookies,
                let cookies = storage.cookies(for: nextURL), !cookies.isEmpty
            {
                for (name, value) in HTTPCookie.requestHeaderFields(with: cookies) {
                    current.setValue(value, forHTTPHeaderField: name)
                }
            }
            context.answer(by: CapturedTransaction.answeredByNetwork)
        }
    }
}
