#if canImport(CNetTapCurl)
import Foundation
import FoundationNetworking

/// Which responses are redirects and where they lead, as FoundationNetworking 6.3.1 decides
/// (`_HTTPURLProtocol.redirectRequest(for:fromRequest:)`); the next hop's method and body then follow NetTap's
/// rules (``ForwardingExchange/nextHop(from:suggested:statusCode:)``), the same as on the URLSession transport.
enum CurlRedirect {
    /// The platform's suggestion for the next hop, or `nil` when the response is final.
    ///
    /// 301, 302 and 305–308 keep the method, except that 301/302 turn POST into GET; 303 always becomes GET.
    /// `Location` must parse as a URL; one without scheme or host keeps the current scheme, host and port, takes
    /// its path (made absolute by a leading `/`, not resolved against the current path), query and fragment.
    static func suggestedRequest(statusCode: Int, location: String?, from request: URLRequest) -> URLRequest? {
        guard let location, let target = URL(string: location) else { return nil }
        var next = request
        switch statusCode {
        case 303:
            next.httpMethod = "GET"
            next.httpBody = nil
        case 301, 302:
            if request.httpMethod == "POST" {
                next.httpMethod = "GET"
                next.httpBody = nil
            }
        case 305...308:
            break
        default:
            return nil
        }
        if target.scheme != nil && target.host != nil {
            next.url = target
            return next
        }
        guard let current = request.url, var components = URLComponents(url: current, resolvingAgainstBaseURL: false)
        else { return nil }
        if target.host != nil {
            components.host = target.host
            components.port = target.port
        }
        components.path = target.path.hasPrefix("/") ? target.path : "/" + target.path
        components.percentEncodedQuery = target.query
        components.percentEncodedFragment = target.fragment
        guard let url = components.url else { return nil }
        next.url = url
        return next
    }

    /// The `Cookie` header the platform adds when it creates a task: the jar's cookies for the URL, when the
    /// session sends cookies (`URLSession._Configuration.setCookies(on:)`).
    static func addingCookies(to request: URLRequest, profile: ForwardingProfile) -> URLRequest {
        guard profile.shouldSetCookies, let storage = profile.cookieStorage, let url = request.url,
            let cookies = storage.cookies(for: url)
        else { return request }
        guard let value = HTTPCookie.requestHeaderFields(with: cookies)["Cookie"], !value.isEmpty else {
            return request
        }
        var request = request
        request.setValue(value, forHTTPHeaderField: "Cookie")
        return request
    }
}
#endif
