import Foundation
import NetTapCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends requests for one URL prefix to another, as Charles's and Proxyman's Map Remote do: production hosts to
/// staging or to a server on your machine, without rebuilding the app.
///
/// ```swift
/// let staging = try MapRemote(from: "https://api.example.com/v1", to: "http://127.0.0.1:8080/staging/v1")
/// // GET https://api.example.com/v1/users?page=2 goes to http://127.0.0.1:8080/staging/v1/users?page=2
/// ```
///
/// The scheme, host, port and path prefix of ``from`` become those of ``to``; the rest of the path, the query,
/// the method, the header fields and the body go as the app sent them, and `Host` names the new host (unless
/// ``preservesHostHeader``). The app still sees its own URL in the response; the capture keeps both. The article
/// "Rewriting requests and responses" has the whole story (cookies, redirects, which rule wins).
public struct MapRemote: Sendable {
    /// The prefix requests are taken from, as given, for example `https://api.example.com/v1`.
    public let from: String
    /// The prefix they are sent to, as given, for example `http://127.0.0.1:8080/staging/v1`.
    public let to: String
    /// Which requests under ``from`` the rule takes; every one by default.
    public var matcher: RequestMatcher
    /// Whether the request keeps the app's `Host` (the original host) instead of naming the new one, for a server
    /// that serves several hosts by name.
    public var preservesHostHeader: Bool

    let source: URLPrefix
    let target: URLPrefix

    /// Creates a rule.
    ///
    /// - Parameters:
    ///   - from: `http` or `https`, a host (`*.example.com` takes every subdomain), an optional port (the scheme's
    ///     default otherwise) and an optional path prefix: `https://api.example.com/v1`. A prefix ending in `/`
    ///     takes only the paths under it. No query, fragment or user.
    ///   - to: Where those requests go: `http` or `https`, a host, an optional port and an optional path prefix
    ///     that replaces `from`'s.
    ///   - matcher: Which requests under `from` the rule takes (tested on the request as the app sent it);
    ///     `.any` by default.
    ///   - preservesHostHeader: Whether to keep the original host in `Host`; `false` by default.
    /// - Throws: ``RewriteRuleError`` when `from` or `to` is not such a URL prefix.
    public init(
        from: String,
        to: String,
        matching matcher: RequestMatcher = .any,
        preservesHostHeader: Bool = false
    ) throws(RewriteRuleError) {
        self.from = from
        self.to = to
        self.matcher = matcher
        self.preservesHostHeader = preservesHostHeader
        source = try URLPrefix(parsing: from, allowsWildcardHost: true)
        target = try URLPrefix(parsing: to, allowsWildcardHost: false)
    }

    /// The URL a request to `url` is sent to, or `nil` when `url` is not under ``from``.
    ///
    /// The matcher is not consulted: this only maps the URL.
    ///
    /// - Parameter url: The URL the app asked for.
    /// - Returns: The URL under ``to``, with the rest of the path and the query of `url`.
    public func mappedURL(for url: URL) -> URL? {
        guard let remainder = source.remainder(of: url) else { return nil }
        return Self.url(
            scheme: target.scheme,
            authority: target.host + (target.port.map { ":\($0)" } ?? ""),
            path: target.path + remainder,
            like: url
        )
    }

    /// The URL the app is shown for a response that came from `url` while it asked for `original`.
    ///
    /// A response from under ``to`` comes back under the app's own prefix; one from elsewhere on the mapped server
    /// (a redirect out of the prefix) keeps its path on the app's host; one from another server is left as it is,
    /// as a real redirect there would show it.
    ///
    /// - Parameters:
    ///   - url: The URL the response came from (after any redirects the transport followed).
    ///   - original: The URL the app asked for.
    /// - Returns: The URL to show the app.
    public func presentedURL(for url: URL, requested original: URL) -> URL {
        guard target.hasOrigin(of: url), let host = URLPrefix.host(of: original), let scheme = original.scheme else {
            return url
        }
        let path = URLPrefix.encodedPath(of: url)
        let mappedBack = target.pathRemainder(path).map { source.path + $0 }
        let authority = host + (original.port.map { ":\($0)" } ?? "")
        return Self.url(scheme: scheme, authority: authority, path: mappedBack ?? path, like: url) ?? url
    }

    /// Whether the rule takes `request`: its URL is under ``from`` and ``matcher`` matches.
    func takes(_ request: URLRequest) -> Bool {
        guard let url = request.url, source.remainder(of: url) != nil else { return false }
        return matcher.matches(request)
    }

    /// `https://api.example.com/v1 → http://127.0.0.1:8080/staging/v1`, and the matcher when it is not `.any`.
    var label: String {
        let arrow = "\(source.text) → \(target.text)"
        return matcher.isAny ? arrow : "\(arrow) if \(matcher)"
    }

    /// A URL with another scheme, authority and path, keeping the user, password and query of `url`.
    private static func url(scheme: String, authority: String, path: String, like url: URL) -> URL? {
        let components = URLComponents(url: url, resolvingAgainstBaseURL: true)
        var text = scheme + "://"
        if let user = components?.percentEncodedUser {
            text += user + (components?.percentEncodedPassword.map { ":" + $0 } ?? "") + "@"
        }
        text += authority + path
        if let query = components?.percentEncodedQuery { text += "?" + query }
        return URL(string: text)
    }
}
