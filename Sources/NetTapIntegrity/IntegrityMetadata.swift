import Foundation

/// What a body must hash to: the digests of the strongest algorithm in a W3C Subresource Integrity value.
///
/// An SRI value lists hash expressions separated by whitespace (W3C Subresource Integrity §3.3.3), for example
/// `sha256-… sha384-… sha384-…`. As SRI §3.3.4 and §3.3.5 say, only the strongest algorithm present counts
/// (SHA-512 > SHA-384 > SHA-256), and a body matches when its digest equals **any** of that algorithm's
/// values (several values let a server roll from one version to the next). Tokens naming an algorithm other
/// than `sha256`, `sha384` or `sha512` are ignored, as SRI says; unlike a browser, NetTap rejects a known
/// algorithm whose digest is malformed, and a value with no supported token at all, so a typo cannot turn a
/// check off silently.
public struct IntegrityMetadata: Sendable, Hashable, CustomStringConvertible {
    /// The accepted digests, all of one algorithm; never empty.
    public let digests: [IntegrityDigest]

    /// Creates metadata from digests; only those of the strongest algorithm among them are kept.
    ///
    /// - Parameter digests: The digests.
    /// - Throws: ``IntegrityError/invalidDigest(_:)`` when `digests` is empty.
    public init(_ digests: [IntegrityDigest]) throws {
        guard let strongest = digests.map(\.algorithm).max() else {
            throw IntegrityError.invalidDigest("no digest given")
        }
        var kept: [IntegrityDigest] = []
        for digest in digests where digest.algorithm == strongest && !kept.contains(digest) {
            kept.append(digest)
        }
        self.digests = kept
    }

    /// Metadata with one digest.
    ///
    /// - Parameter digest: The digest the body must have.
    public init(_ digest: IntegrityDigest) {
        self.digests = [digest]
    }

    /// Reads an SRI value: whitespace-separated `<algorithm>-<base64>` expressions.
    ///
    /// - Parameter sri: The value, for example `sha256-ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=`.
    /// - Throws: ``IntegrityError/invalidDigest(_:)`` naming the token that is malformed (bad base64, wrong
    ///   length for its algorithm, no hyphen), or saying that no token uses a supported algorithm.
    /// - Complexity: O(length of `sri`).
    public init(sri: String) throws {
        var digests: [IntegrityDigest] = []
        var ignored: [String] = []
        for token in sri.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\u{0C}" }
        ) {
            let expression = String(token)
            let name = expression.split(separator: "-", maxSplits: 1).first.map(String.init) ?? ""
            guard expression.contains("-"), DigestAlgorithm(rawValue: name.lowercased()) != nil else {
                if expression.contains("-") {
                    ignored.append(name)
                    continue
                }
                throw IntegrityError.invalidDigest("\"\(expression)\" is not <algorithm>-<base64 digest>")
            }
            digests.append(try IntegrityDigest(sri: expression))
        }
        guard !digests.isEmpty else {
            let found =
                ignored.isEmpty ? "it is empty" : "found only " + ignored.map { "\"\($0)\"" }.joined(separator: ", ")
            throw IntegrityError.invalidDigest("no sha256, sha384 or sha512 digest in the SRI value; \(found)")
        }
        try self.init(digests)
    }

    /// The algorithm every digest uses.
    public var algorithm: DigestAlgorithm { digests.first?.algorithm ?? .sha256 }

    /// Whether a computed digest is one of the accepted ones.
    ///
    /// - Parameter digest: The digest of a body, computed with ``algorithm``.
    /// - Returns: `true` when it equals one of ``digests``.
    /// - Complexity: O(number of digests).
    public func accepts(_ digest: IntegrityDigest) -> Bool {
        digests.contains(digest)
    }

    /// The SRI value: the digests' expressions separated by single spaces.
    public var sri: String { digests.map(\.sri).joined(separator: " ") }

    /// The SRI value (``sri``).
    public var description: String { sri }
}
