import Foundation

/// Extra trust for a named development host whose certificate the system does not trust (self-signed, or
/// signed by a company or local CA), so that its HTTPS traffic can be seen and forwarded.
///
/// Two kinds: a CA file (PEM, one or more certificates) trusted *in addition to* the system's store for the
/// host, the chain and host name still checked; or the SHA-256 of the server's public key (SPKI, as
/// `openssl x509 -pubkey | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64` prints
/// it; curl's `--pinnedpubkey` form), which replaces the chain check for the host while the host name is still
/// checked. Nothing changes for other hosts.
///
/// Applied by the libcurl transport (Linux) in debug builds only: a release build ignores trust rules, even with
/// NetTap enabled (`NETTAP_ENABLE=1`), and says so once on standard error. Set with ``NetTapInterceptor/trustRules``
/// or the `trust` section of `nettap.json`.
public struct TrustRule: Sendable, Hashable {
    /// What the rule trusts.
    public enum Anchor: Sendable, Hashable {
        /// CA certificates in PEM form, read from `source`.
        case certificateAuthority(pem: Data, source: URL)
        /// Accepted public-key digests (SHA-256, base64).
        case publicKeySHA256([String])
    }

    /// The hosts the rule applies to (exact names, `*.domain`, or `regex:`), never other hosts.
    public var host: HostPattern
    /// What is trusted for them.
    public var anchor: Anchor

    /// Trusts the CA certificates of a PEM file for a host, in addition to the system's.
    /// - Parameters:
    ///   - host: The host pattern, such as `dev.local` or `*.staging.test`.
    ///   - certificateAuthority: A PEM file with at least one `BEGIN CERTIFICATE` block.
    /// - Throws: ``TrustRuleError`` when the pattern is invalid, or the file is missing, unreadable or holds no
    ///   certificate.
    public init(host: String, certificateAuthority: URL) throws {
        self.host = try Self.pattern(host)
        let data: Data
        do {
            data = try InputFile.read(certificateAuthority)
        } catch {
            throw TrustRuleError("cannot read the CA file \(certificateAuthority.path): \(error.reason)")
        }
        guard String(decoding: data, as: UTF8.self).contains("-----BEGIN CERTIFICATE-----") else {
            throw TrustRuleError(
                "\(certificateAuthority.path) holds no PEM certificate (expected a \"-----BEGIN CERTIFICATE-----\" block)"
            )
        }
        anchor = .certificateAuthority(pem: data, source: certificateAuthority)
    }

    /// Trusts a server public key for a host, whatever signed its certificate.
    /// - Parameters:
    ///   - host: The host pattern.
    ///   - publicKeySHA256: One digest or several separated by `;`, each the base64 of 32 bytes, with or
    ///     without curl's `sha256//` prefix.
    /// - Throws: ``TrustRuleError`` for an invalid pattern or a digest that is not 32 bytes of base64.
    public init(host: String, publicKeySHA256: String) throws {
        self.host = try Self.pattern(host)
        let digests = publicKeySHA256.split(separator: ";").map { piece -> String in
            let trimmed = piece.trimmingCharacters(in: .whitespaces)
            return trimmed.hasPrefix("sha256//") ? String(trimmed.dropFirst(8)) : trimmed
        }
        guard !digests.isEmpty else { throw TrustRuleError("no public-key digest given") }
        for digest in digests where Data(base64Encoded: digest)?.count != 32 {
            throw TrustRuleError(
                "\"\(digest)\" is not a SHA-256 digest in base64 (44 characters ending in \"=\", 32 bytes)"
            )
        }
        anchor = .publicKeySHA256(digests)
    }

    /// Whether the rule covers an HTTPS URL.
    public func applies(to url: URL?) -> Bool {
        guard let url, url.scheme?.lowercased() == "https", let host = url.host else { return false }
        return self.host.matches(host: host)
    }

    private static func pattern(_ text: String) throws -> HostPattern {
        do {
            return try HostPattern(text)
        } catch {
            throw TrustRuleError(
                "invalid host pattern \"\(text)\": \((error as? MatcherError)?.description ?? "\(error)")"
            )
        }
    }
}

/// Why a ``TrustRule`` could not be made: one line naming the input.
public struct TrustRuleError: Error, LocalizedError, CustomStringConvertible, Sendable {
    /// The message.
    public let description: String

    init(_ description: String) {
        self.description = description
    }

    /// The message (``description``).
    public var errorDescription: String? { description }
}
