import Foundation
import NetTapCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension RewriteHandler {
    /// Shows the app a mapped response as a proxy's Map Remote does: from the URL it asked for, and with the
    /// cookies the mapped server set stored for that URL too.
    ///
    /// The transport stored the `Set-Cookie` lines of the mapped server's answer (and of its redirects) for the
    /// mapped URL, as the platform stores what a server sends. The app's session attaches cookies for the URLs the
    /// app asks for, so they are stored for the app's URL as well: a login against staging holds for the next
    /// request to the production URL.
    func present(
        _ response: inout HandlerResponse,
        rule: MapRemote,
        requested request: URLRequest,
        context: TransactionContext,
        hopsBefore: Int
    ) {
        guard let original = request.url else { return }
        if let url = response.url {
            response.url = rule.presentedURL(for: url, requested: original)
        }
        guard let profile = context.forwardingProfile else { return }
        for hop in context.redirects.dropFirst(hopsBefore) {
            Self.storeCookies(hop.headers, for: rule.presentedURL(for: hop.url, requested: original), profile: profile)
        }
        Self.storeCookies(response.headers, for: response.url ?? original, profile: profile)
    }

    /// Stores the `Set-Cookie` lines of `headers` for `url` in the app session's cookie storage, under the
    /// session's accept policy and the storage's own domain rules.
    static func storeCookies(_ headers: HeaderFields, for url: URL, profile: ForwardingProfile) {
        guard let storage = profile.cookieStorage, profile.cookieAcceptPolicy != .never else { return }
        let cookies = headers.values(for: "Set-Cookie").flatMap { SetCookieReader.cookies(in: $0, for: url) }
        if !cookies.isEmpty { storage.setCookies(cookies, for: url, mainDocumentURL: nil) }
    }

    /// A failure of a mapped request as the app sees it: its failing URL is the app's URL (the description, which
    /// may name the mapped server, stays as it was).
    static func presenting(_ error: any Error, rule: MapRemote, requested request: URLRequest) -> any Error {
        guard let original = request.url, let urlError = ForwardingExchange.urlError(error) as? URLError else {
            return error
        }
        var info = urlError.userInfo
        guard let failing = info[NSURLErrorFailingURLErrorKey] as? URL else { return error }
        let presented = rule.presentedURL(for: failing, requested: original)
        info[NSURLErrorFailingURLErrorKey] = presented
        info[SimulatedFailure.failingURLStringKey] = presented.absoluteString
        return URLError(urlError.code, userInfo: info)
    }
}
