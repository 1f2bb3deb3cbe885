import Foundation

/// The hosts that name this machine, for the audit's plaintext rules.
enum LoopbackHost {
    /// Whether `host` is this machine: `localhost` and its subdomains (RFC 6761 §6.3), `127.0.0.0/8` and `::1`.
    static func contains(_ host: String) -> Bool {
        let host = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        if host == "localhost" || host.hasSuffix(".localhost") || host == "::1" { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }
}
