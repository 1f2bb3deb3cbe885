import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension RequestMatcher {
    /// Matches the HTTP method, case-insensitively; specificity 1.
    ///
    /// Configuration: `{"method": "POST"}`.
    /// - Parameter method: The method, for example `POST`. A request without a method counts as `GET`.
    /// - Returns: The matcher.
    public static func method(_ method: String) -> RequestMatcher {
        let expected = method.uppercased()
        return RequestMatcher(
            description: "method == \(expected)",
            specificity: 1,
            configuration: ["method": .string(expected)],
            evaluate: { request in
                let actual = (request.httpMethod ?? "GET").uppercased()
                return actual == expected ? .matched : .missed("method was \(actual), expected \(expected)")
            },
            distance: {
                MatchDistance.methodWeight * MatchDistance.text(($0.httpMethod ?? "GET").uppercased(), expected)
            }
        )
    }

    /// Matches the URL scheme, case-insensitively; specificity 1.
    ///
    /// Configuration: `{"scheme": "https"}`.
    /// - Parameter scheme: The scheme, for example `https`.
    /// - Returns: The matcher.
    public static func scheme(_ scheme: String) -> RequestMatcher {
        let expected = scheme.lowercased()
        return RequestMatcher(
            description: "scheme == \(expected)",
            specificity: 1,
            configuration: ["scheme": .string(expected)],
            evaluate: { request in
                let actual = request.url?.scheme?.lowercased() ?? ""
                return actual == expected
                    ? .matched : .missed("scheme was \"\(actual)\", expected \"\(expected)\"")
            },
            distance: { MatchDistance.methodWeight * MatchDistance.text($0.url?.scheme?.lowercased() ?? "", expected) }
        )
    }

    /// Matches the host, case-insensitively: exactly, or with a leading `*.` any subdomain.
    ///
    /// `*.example.com` matches `api.example.com` and `a.b.example.com` but not `example.com` itself
    /// (write `.host("example.com") || .host("*.example.com")` for both). Specificity: 10 for an exact host,
    /// 5 for a wildcard. Configuration: `{"host": "*.example.com"}`.
    /// - Parameter pattern: The host name or `*.`-prefixed wildcard.
    /// - Returns: The matcher.
    public static func host(_ pattern: String) -> RequestMatcher {
        let expected = pattern.lowercased()
        let isWildcard = expected.hasPrefix("*.")
        let suffix = String(expected.dropFirst(1))
        return RequestMatcher(
            description: "host == \(expected)",
            specificity: isWildcard ? 5 : 10,
            configuration: ["host": .string(expected)],
            evaluate: { request in
                let actual = request.url?.host?.lowercased() ?? ""
                let matched = isWildcard ? actual.hasSuffix(suffix) && actual.count > suffix.count : actual == expected
                return matched ? .matched : .missed("host was \"\(actual)\", expected \"\(expected)\"")
            },
            distance: { request in
                let actual = request.url?.host?.lowercased() ?? ""
                guard isWildcard else { return MatchDistance.locationWeight * MatchDistance.text(actual, expected) }
                if actual.hasSuffix(suffix) && actual.count > suffix.count { return 0 }
                // The domain under the wildcard against the request host's labels of the same count (the domain
                // itself is 1 away: it needs a subdomain).
                let domain = String(suffix.dropFirst())
                let count = domain.split(separator: ".", omittingEmptySubsequences: false).count
                let tail = actual.split(separator: ".", omittingEmptySubsequences: false).suffix(count)
                let distance = MatchDistance.text(tail.joined(separator: "."), domain)
                return MatchDistance.locationWeight * (distance > 0 ? distance : 1 / Double(actual.count + 1))
            }
        )
    }

    /// Matches the URL path exactly (percent-decoded, case-sensitive); specificity 20.
    ///
    /// An empty path counts as `/`. Configuration: `{"path": "/users/42"}`; a path with a segment that is
    /// exactly `*` or `**` (which `path` would read as a glob) is written `{"pathExactly": "/files/*"}`.
    /// - Parameter path: The path, for example `/users/42`.
    /// - Returns: The matcher.
    public static func path(_ path: String) -> RequestMatcher {
        RequestMatcher(
            description: "path == \(path)",
            specificity: 20,
            configuration: PathGlob.hasWildcardSegment(path) ? ["pathExactly": .string(path)] : ["path": .string(path)],
            evaluate: { request in
                let actual = request.url.map(Self.path(of:)) ?? ""
                return actual == path ? .matched : .missed("path was \"\(actual)\", expected \"\(path)\"")
            },
            distance: { MatchDistance.locationWeight * MatchDistance.text($0.url.map(Self.path(of:)) ?? "", path) }
        )
    }

    /// Matches paths that start with `prefix` at a segment boundary; specificity 5.
    ///
    /// `/api` matches `/api`, `/api/` and `/api/users` but not `/apiary`; a prefix ending in `/` matches
    /// anything under it. Configuration: `{"pathPrefix": "/api/v2"}`.
    /// - Parameter prefix: The path prefix, for example `/api/v2`.
    /// - Returns: The matcher.
    public static func pathPrefix(_ prefix: String) -> RequestMatcher {
        RequestMatcher(
            description: "path starts with \(prefix)",
            specificity: 5,
            configuration: ["pathPrefix": .string(prefix)],
            evaluate: { request in
                let actual = request.url.map(Self.path(of:)) ?? ""
                return Self.path(actual, isUnder: prefix)
                    ? .matched : .missed("path was \"\(actual)\", expected a path under \"\(prefix)\"")
            },
            distance: { request in
                let actual = request.url.map(Self.path(of:)) ?? ""
                if Self.path(actual, isUnder: prefix) { return 0 }
                let distance = MatchDistance.text(String(actual.prefix(prefix.count)), prefix)
                return MatchDistance.locationWeight * (distance > 0 ? distance : 1 / Double(actual.count + 1))
            }
        )
    }

    /// Whether a path starts with `prefix` at a segment boundary.
    private static func path(_ actual: String, isUnder prefix: String) -> Bool {
        actual.hasPrefix(prefix)
            && (prefix.hasSuffix("/") || actual.count == prefix.count
                || actual[actual.index(actual.startIndex, offsetBy: prefix.count)] == "/")
    }

    /// Matches the port, with the scheme's default when the URL names none; specificity 1.
    ///
    /// `http` and `ws` default to 80, `https` and `wss` to 443, so `.port(443)` matches `https://a.example/`.
    /// Configuration: `{"port": 8080}`.
    /// - Parameter port: The port number, 1…65535.
    /// - Returns: The matcher.
    public static func port(_ port: Int) -> RequestMatcher {
        RequestMatcher(
            description: "port == \(port)",
            specificity: 1,
            configuration: ["port": .integer(Int64(port))],
            evaluate: { request in
                guard let actual = request.url.flatMap(Self.effectivePort(of:)) else {
                    return .missed("URL had no port, expected \(port)")
                }
                return actual == port ? .matched : .missed("port was \(actual), expected \(port)")
            },
            distance: { request in
                let actual = request.url.flatMap(Self.effectivePort(of:)).map(String.init) ?? ""
                return MatchDistance.locationWeight * MatchDistance.text(actual, String(port))
            }
        )
    }

    /// The URL's port, or its scheme's default port (80 for `http`/`ws`, 443 for `https`/`wss`).
    package static func effectivePort(of url: URL) -> Int? {
        if let port = url.port { return port }
        switch url.scheme?.lowercased() {
        case "http", "ws": return 80
        case "https", "wss": return 443
        default: return nil
        }
    }

    /// The percent-decoded path of a URL, `/` when empty.
    package static func path(of url: URL) -> String {
        let path = URLComponents(url: url, resolvingAgainstBaseURL: true)?.path ?? url.path
        return path.isEmpty ? "/" : path
    }
}
