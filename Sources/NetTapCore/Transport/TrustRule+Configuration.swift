import Foundation

extension TrustRule {
    /// The keys of the `trust` section of `nettap.json`.
    public static let sectionKeys: Set<String> = ["rules"]
    /// The keys of one rule.
    public static let configurationKeys: Set<String> = ["host", "certificateAuthority", "publicKeySHA256"]

    /// Reads the rules of a `trust` section.
    ///
    /// ```json
    /// {"trust": {"rules": [
    ///   {"host": "dev.local", "certificateAuthority": "certs/dev-ca.pem"},
    ///   {"host": "*.staging.test", "publicKeySHA256": "sha256//YhKJKSzoTt2b5FP18fvpHo7fJYqQCjAa3HWY3tvRMwE="}
    /// ]}}
    /// ```
    /// Each rule names a `host` pattern and exactly one of `certificateAuthority` (a PEM file; a relative path
    /// resolves against `baseDirectory`) and `publicKeySHA256` (one or more digests separated by `;`).
    /// - Parameters:
    ///   - node: The `trust` object.
    ///   - baseDirectory: The folder relative CA paths resolve against: the configuration file's; the current
    ///     directory when `nil`.
    /// - Returns: The rules, in order.
    /// - Throws: ``ConfigurationError`` at the offending member: an unknown key, a wrong type, both or neither of
    ///   the two kinds, a bad host pattern, a CA file that is missing or holds no certificate, a malformed digest.
    package static func rules(configuration node: ConfigNode, baseDirectory: URL?) throws -> [TrustRule] {
        try node.rejectUnknownKeys(allowed: sectionKeys)
        return try node.each("rules") { try rule(configuration: $0, baseDirectory: baseDirectory) }
    }

    private static func rule(configuration node: ConfigNode, baseDirectory: URL?) throws -> TrustRule {
        try node.rejectUnknownKeys(allowed: configurationKeys)
        let hostNode = try node.requiredChild("host")
        let host = try hostNode.stringValue()
        let authority = try node.child("certificateAuthority")
        let pin = try node.child("publicKeySHA256")
        switch (authority, pin) {
        case (let authority?, nil):
            let path = try authority.stringValue()
            let base =
                baseDirectory ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
            let file = path.hasPrefix("/") ? URL(fileURLWithPath: path) : base.appendingPathComponent(path)
            return try made(at: authority, host: host, hostNode: hostNode) {
                try TrustRule(host: host, certificateAuthority: file.standardizedFileURL)
            }
        case (nil, let pin?):
            let digests = try pin.stringValue()
            return try made(at: pin, host: host, hostNode: hostNode) {
                try TrustRule(host: host, publicKeySHA256: digests)
            }
        case (.some, .some):
            throw node.error("a rule takes either \"certificateAuthority\" or \"publicKeySHA256\", not both")
        case (nil, nil):
            throw node.error("a rule needs \"certificateAuthority\" (a PEM file) or \"publicKeySHA256\" (a key digest)")
        }
    }

    /// Runs `make`, turning its error into one at the member it concerns (the host or the anchor).
    private static func made(
        at anchor: ConfigNode,
        host: String,
        hostNode: ConfigNode,
        _ make: () throws -> TrustRule
    ) throws -> TrustRule {
        do {
            _ = try HostPattern(host)
        } catch {
            let reason = (error as? MatcherError)?.description ?? "\(error)"
            throw hostNode.error("invalid host pattern \"\(host)\": \(reason)")
        }
        do {
            return try make()
        } catch let error as TrustRuleError {
            throw anchor.error(error.description)
        }
    }
}

extension TrustRule: ConfigurationSection {
    package typealias Value = [TrustRule]
    /// `trust`.
    package static let sectionName = "trust"

    /// Reads the `trust` section.
    package static func read(section: ConfigNode, context: ConfigurationContext) throws -> [TrustRule]? {
        try rules(configuration: section, baseDirectory: context.baseDirectory)
    }
}
