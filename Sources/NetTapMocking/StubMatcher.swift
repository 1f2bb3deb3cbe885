import Foundation
import NetTapCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Matchers the mocking module builds itself: for recorded and saved stubs.
public enum StubMatcher {
    /// Matches a request with this method and URL: same scheme, host, explicit port and path, and every query
    /// item of `url` present (other query items allowed, order ignored).
    ///
    /// Query items the redactor treats as secret (`token`, `api_key`, …) match any value, so the stub keeps
    /// answering when the real secret changes and the secret is never written into a mock file. So do items
    /// whose value holds the placeholder `[redacted]`: a recording removed a copy of a secret there (an echo). The matcher is
    /// built from `RequestMatcher` factories, so it has a configuration and can be written to a mock file:
    /// `{"method": "GET", "scheme": "https", "host": "api.example.com", "path": "/search",
    /// "query": {"q": "swift", "token": null}}`.
    /// - Parameters:
    ///   - method: The HTTP method, compared case-insensitively.
    ///   - url: The URL; its fragment is ignored.
    ///   - redactor: Decides which query items are secret; `Redactor.default` by default.
    /// - Returns: The matcher.
    public static func exactRequest(method: String, url: URL, redactor: Redactor = .default) -> RequestMatcher {
        let components = URLComponents(url: url, resolvingAgainstBaseURL: true)
        let items = (components?.queryItems ?? []).map { item in
            redactor.isSecret(item.name, at: .queryItem) || item.value?.contains(Redactor.placeholder) == true
                ? URLQueryItem(name: item.name, value: nil) : item
        }
        var matcher = RequestMatcher.method(method)
        if let scheme = url.scheme { matcher = matcher && .scheme(scheme) }
        if let host = url.host { matcher = matcher && .host(host) }
        if let port = url.port { matcher = matcher && .port(port) }
        matcher = matcher && .path(RequestMatcher.path(of: url))
        if !items.isEmpty { matcher = matcher && .query(items: items) }
        return matcher
    }
}
