import Foundation
import NetTapCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Matchers the mocking module builds itself: for recorded and saved stubs.
public enum StubMatcher {
    /// Matches a request with this method and URL: same scheme, host, port and path, and every query item of
    /// `url` present (other query items allowed, order ignored).
    ///
    /// Specificity: method 1 + scheme 1 + host 10 + path 20 + 1 per query item.
    /// - Parameters:
    ///   - method: The HTTP method, compared case-insensitively.
    ///   - url: The URL; its fragment is ignored.
    /// - Returns: The matcher.
    public static func exactRequest(method: String, url: URL) -> RequestMatcher {
        let components = URLComponents(url: url, resolvingAgainstBaseURL: true)
        let items = components?.queryItems ?? []
        var matcher = RequestMatcher.method(method)
        if let scheme = url.scheme { matcher = matcher && .scheme(scheme) }
        if let host = url.host { matcher = matcher && .host(host) }
        if let port = url.port { matcher = matcher && Self.port(port) }
        matcher = matcher && .path(RequestMatcher.path(of: url))
        if !items.isEmpty { matcher = matcher && queryContains(items) }
        return matcher
    }

    /// Matches an explicit port (`nil` in the request's URL counts as no port); specificity 0.
    static func port(_ port: Int) -> RequestMatcher {
        RequestMatcher(description: "port == \(port)", specificity: 0) { request in
            let actual = request.url?.port
            return actual == port
                ? .matched : .missed("port was \(actual.map(String.init) ?? "none"), expected \(port)")
        }
    }

    /// Matches when every given query item is present with the same value; specificity 1 per item.
    static func queryContains(_ items: [URLQueryItem]) -> RequestMatcher {
        let text = items.map { "\($0.name)=\($0.value ?? "")" }.joined(separator: "&")
        return RequestMatcher(description: "query contains \(text)", specificity: items.count) { request in
            let actual = request.url.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: true)?.queryItems } ?? []
            for item in items where !actual.contains(where: { $0.name == item.name && $0.value == item.value }) {
                return .missed("query had no \(item.name)=\(item.value ?? "")")
            }
            return .matched
        }
    }
}
