import Foundation

/// A URL pattern as DevTools sends it for request blocking and per-URL throttling.
///
/// Two forms:
/// - **URLPattern constructor strings** (Chromium 130 and later, `Network.setBlockedURLs`' `urlPatterns` and
///   `Network.emulateNetworkConditionsByRule`), such as `*://*:*/*.css`: scheme, host, port, path and query are
///   matched separately, each with `*` standing for any text (WHATWG URLPattern's wildcard; named groups and
///   regular expressions are taken literally). An omitted port matches only the scheme's default port, as in
///   URLPattern; an omitted query matches any query; an empty pattern matches every URL.
/// - **Legacy patterns** (`Network.setBlockedURLs`' `urls`, older frontends), such as `example.com/ads`: matched
///   anywhere in the URL, `*` standing for any text.
package struct DevToolsURLPattern: Sendable, Hashable {
    /// The pattern as DevTools sent it.
    package let text: String
    private let matcher: Matcher

    private enum Matcher: Sendable, Hashable {
        case everything
        case components(scheme: String, host: String, port: String?, path: String, query: String?)
        case substring(String)
    }

    /// Reads a URLPattern constructor string.
    package init(urlPattern text: String) {
        self.text = text
        self.matcher = Self.components(of: text)
    }

    /// Reads a legacy pattern, matched anywhere in the URL.
    package init(legacy text: String) {
        self.text = text
        self.matcher = text.isEmpty ? .everything : .substring("*" + text + "*")
    }

    /// Whether `url` matches.
    package func matches(_ url: URL) -> Bool {
        switch matcher {
        case .everything:
            return true
        case .substring(let glob):
            return Self.glob(glob, matches: url.absoluteString)
        case .components(let scheme, let host, let port, let path, let query):
            guard let parts = URLComponents(url: url, resolvingAgainstBaseURL: false),
                Self.glob(scheme, matches: parts.scheme ?? ""),
                Self.glob(host, matches: parts.percentEncodedHost ?? "")
            else { return false }
            let urlPort = parts.port.map(String.init) ?? ""
            if let port, !Self.glob(port, matches: urlPort) { return false }
            if port == nil, !urlPort.isEmpty, urlPort != Self.defaultPort(of: parts.scheme) { return false }
            guard Self.glob(path, matches: parts.percentEncodedPath.isEmpty ? "/" : parts.percentEncodedPath)
            else { return false }
            if let query { return Self.glob(query, matches: parts.percentEncodedQuery ?? "") }
            return true
        }
    }

    private static func components(of text: String) -> Matcher {
        if text.isEmpty { return .everything }
        guard let separator = text.range(of: "://") else { return .substring("*" + text + "*") }
        let scheme = String(text[..<separator.lowerBound]).lowercased()
        var rest = Substring(text[separator.upperBound...])
        var query: String?
        if let mark = rest.firstIndex(of: "?") {
            query = String(rest[rest.index(after: mark)...])
            rest = rest[..<mark]
        }
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        let authority = rest[..<slash]
        let path = slash == rest.endIndex ? "*" : String(rest[slash...])
        let (host, port) = splitPort(authority)
        return .components(scheme: scheme, host: host.lowercased(), port: port, path: path, query: query)
    }

    /// `host:port` → host and port; the colons of a bracketed IPv6 address stay in the host.
    private static func splitPort(_ authority: Substring) -> (String, String?) {
        guard let colon = authority.lastIndex(of: ":"), !authority[colon...].contains("]") else {
            return (String(authority), nil)
        }
        return (String(authority[..<colon]), String(authority[authority.index(after: colon)...]))
    }

    private static func defaultPort(of scheme: String?) -> String {
        switch scheme?.lowercased() {
        case "http", "ws": "80"
        case "https", "wss": "443"
        default: ""
        }
    }

    /// Whether the whole of `text` matches `pattern`, `*` standing for any run of characters (none included).
    static func glob(_ pattern: String, matches text: String) -> Bool {
        let pattern = Array(pattern.utf8)
        let text = Array(text.utf8)
        var (p, t) = (0, 0)
        var star: Int?
        var resume = 0
        while t < text.count {
            if p < pattern.count, pattern[p] == UInt8(ascii: "*") {
                star = p
                resume = t
                p += 1
            } else if p < pattern.count, pattern[p] == text[t] {
                p += 1
                t += 1
            } else if let star {
                p = star + 1
                resume += 1
                t = resume
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == UInt8(ascii: "*") { p += 1 }
        return p == pattern.count
    }
}
