import Foundation

/// What the inspector server lets in (issue 16's security rules): requests whose `Host` names a loopback host,
/// so that a web page reached through DNS rebinding cannot talk to it, and WebSocket upgrades whose `Origin` is a
/// DevTools frontend (`devtools://devtools`, or a page this machine serves over HTTP, as Chromium serves its own
/// frontend at `http://127.0.0.1:9222/devtools/inspector.html`) or is absent (programs that are not browsers send
/// none).
package struct InspectorRequestPolicy: Sendable, Equatable {
    /// The origins allowed to open a WebSocket besides the built-in DevTools ones (`devtools://devtools`,
    /// `chrome-devtools://devtools`): for example the origin of a Chromium serving its own frontend over HTTP.
    package var allowedOrigins: Set<String>
    /// The hosts a `Host` header may name besides loopback ones, lowercased, without a port: the address an app
    /// chose to listen on; `*` for any (an app listening on `0.0.0.0`).
    package var allowedHosts: Set<String>

    /// Creates a policy.
    package init(allowedOrigins: Set<String> = [], allowedHosts: Set<String> = []) {
        self.allowedOrigins = allowedOrigins
        self.allowedHosts = allowedHosts
    }

    /// Why a request is refused (403), or `nil` when it may go on.
    package func refusal(of head: HTTPRequestHead, isUpgrade: Bool) -> String? {
        guard let authority = head.authority, Self.isLoopback(authority: authority) || isAllowed(authority) else {
            return allowedHosts.isEmpty
                ? "the Host must name a loopback address (localhost, 127.0.0.1 or [::1])"
                : "the Host must name a loopback address or \(allowedHosts.sorted().joined(separator: ", "))"
        }
        guard isUpgrade else { return nil }
        let origins = head.fields.values(for: "Origin")
        guard origins.count <= 1 else { return "more than one Origin" }
        guard let origin = origins.first else { return nil }
        let builtIn: Set<String> = ["devtools://devtools", "chrome-devtools://devtools"]
        guard builtIn.contains(origin) || allowedOrigins.contains(origin) || Self.isLoopbackOrigin(origin) else {
            return "WebSocket connections are accepted from DevTools frontends only, not from \(origin)"
        }
        return nil
    }

    /// Whether an origin is a page served by this machine over HTTP (`http://127.0.0.1:9222`, where Chromium serves
    /// its own DevTools frontend): a page from another site, DNS rebinding included, has another origin.
    static func isLoopbackOrigin(_ origin: String) -> Bool {
        for scheme in ["http://", "https://"] where origin.lowercased().hasPrefix(scheme) {
            let authority = String(origin.dropFirst(scheme.count))
            return !authority.contains("/") && isLoopback(authority: authority)
        }
        return false
    }

    /// Whether an authority's host is one of ``allowedHosts``.
    private func isAllowed(_ authority: String) -> Bool {
        guard !allowedHosts.isEmpty else { return false }
        if allowedHosts.contains("*") { return true }
        var host = Substring(authority)
        if let colon = host.lastIndex(of: ":"), !host[colon...].contains("]") { host = host[..<colon] }
        return allowedHosts.contains(host.lowercased())
    }

    /// Whether an authority (`host` or `host:port`) names a loopback host.
    package static func isLoopback(authority: String) -> Bool {
        var host = Substring(authority)
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return false }
            let rest = host[host.index(after: close)...]
            guard rest.isEmpty || isPort(rest.dropFirst()) && rest.first == ":" else { return false }
            return host[host.index(after: host.startIndex)..<close] == "::1"
        }
        if let colon = host.lastIndex(of: ":") {
            guard isPort(host[host.index(after: colon)...]) else { return false }
            host = host[..<colon]
        }
        if host.lowercased() == "localhost" { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets.first == "127"
            && octets.allSatisfy { !$0.isEmpty && $0.count <= 3 && $0.allSatisfy(\.isASCII) && UInt8($0) != nil }
    }

    private static func isPort(_ text: Substring) -> Bool {
        !text.isEmpty && text.count <= 5 && text.allSatisfy { $0.isASCII && $0.isNumber }
            && (Int(text) ?? 70_000) <= 65_535
    }
}
