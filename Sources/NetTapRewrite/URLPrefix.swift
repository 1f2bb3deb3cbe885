import Foundation

/// One side of a map remote rule: a scheme, a host, a port and a path prefix, such as
/// `https://api.example.com/v1`.
///
/// The path is kept percent-encoded, as it goes on the wire, without a trailing `/` (empty for the root). A prefix
/// written with a trailing `/` after a path (`/v1/`) selects only paths under it (`/v1/users`, not `/v1`); one
/// without (`/v1`) selects the path itself and every path under it at a segment boundary (`/v1`, `/v1/users`, not
/// `/v1beta`).
struct URLPrefix: Sendable, Hashable {
    /// `http` or `https`, lower-cased.
    let scheme: String
    /// The host, lower-cased, as written (an IPv6 address keeps its brackets); a `from` host may be `*.example.com`.
    let host: String
    /// The port as written, or `nil` for the scheme's default.
    let port: Int?
    /// The percent-encoded path prefix without a trailing `/`; empty for the root.
    let path: String
    /// Whether only paths strictly under ``path`` are selected (the prefix was written with a trailing `/`).
    let requiresSubpath: Bool

    /// The port requests to this prefix use: the written one, else 443 for `https` and 80 for `http`.
    var effectivePort: Int { port ?? (scheme == "https" ? 443 : 80) }

    /// Whether the host is a `*.` wildcard.
    var hasWildcardHost: Bool { host.hasPrefix("*.") }

    /// The prefix as text, for example `https://api.example.com:8443/v1/`.
    var text: String {
        let authority = host + (port.map { ":\($0)" } ?? "")
        return "\(scheme)://\(authority)\(path)\(requiresSubpath ? "/" : "")"
    }

    /// Whether `url` goes to this prefix's scheme, host and port (the host compared case-insensitively; a
    /// wildcard host takes any subdomain).
    func hasOrigin(of url: URL) -> Bool {
        guard let scheme = url.scheme?.lowercased(), scheme == self.scheme else { return false }
        guard let host = Self.host(of: url) else { return false }
        let hostMatches =
            hasWildcardHost
            ? host.hasSuffix(String(self.host.dropFirst())) && host.count > self.host.count - 1
            : host == self.host
        return hostMatches && (url.port ?? (scheme == "https" ? 443 : 80)) == effectivePort
    }

    /// The rest of `url`'s percent-encoded path after this prefix, or `nil` when the URL is not under it.
    ///
    /// - Parameter url: The URL.
    /// - Returns: The remainder: empty, or starting with `/`.
    func remainder(of url: URL) -> String? {
        guard hasOrigin(of: url) else { return nil }
        return pathRemainder(Self.encodedPath(of: url))
    }

    /// The rest of a percent-encoded path after this prefix's path, or `nil` when the path is not under it.
    func pathRemainder(_ encodedPath: String) -> String? {
        let path = encodedPath.isEmpty ? "/" : encodedPath
        guard path.hasPrefix(self.path) else { return nil }
        let rest = path.dropFirst(self.path.count)
        if rest.isEmpty { return requiresSubpath ? nil : "" }
        guard rest.hasPrefix("/") else { return nil }
        return String(rest)
    }

    /// The host of a URL as prefixes hold it: lower-cased, an IPv6 address in brackets.
    static func host(of url: URL) -> String? {
        guard let host = url.host?.lowercased(), !host.isEmpty else { return nil }
        if host.contains(":") && !host.hasPrefix("[") { return "[\(host)]" }
        return host
    }

    /// The percent-encoded path of a URL, as it goes on the wire.
    static func encodedPath(of url: URL) -> String {
        URLComponents(url: url, resolvingAgainstBaseURL: true)?.percentEncodedPath ?? url.path
    }
}
