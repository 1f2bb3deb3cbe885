import Foundation

/// Host name rules of the audit: first-party lists and loopback hosts.
enum HostPattern {
    /// Whether `pattern` is a valid first-party entry: a host name (`api.example.com`) or `*.` and a host name
    /// (`*.example.com`, its subdomains only); IP addresses count as host names.
    static func isValid(_ pattern: String) -> Bool {
        let host = pattern.hasPrefix("*.") ? String(pattern.dropFirst(2)) : pattern
        return !host.isEmpty && !host.contains { "*/:?#@ ".contains($0) } && !host.hasPrefix(".")
            && !host.hasSuffix(".")
    }

    /// Whether `host` matches `pattern`: equal ignoring case, or for `*.example.com` any subdomain of
    /// `example.com` (not `example.com` itself).
    static func matches(_ host: String, pattern: String) -> Bool {
        let host = host.lowercased()
        let pattern = pattern.lowercased()
        if pattern.hasPrefix("*.") { return host.hasSuffix(pattern.dropFirst()) }
        return host == pattern
    }

    /// Whether `host` is this machine: `localhost` and its subdomains (RFC 6761 §6.3), `127.0.0.0/8` and `::1`.
    static func isLoopback(_ host: String) -> Bool {
        let host = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        if host == "localhost" || host.hasSuffix(".localhost") || host == "::1" { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }
}
