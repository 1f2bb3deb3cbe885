import Foundation

/// A SHA-2 hash function that NetTap can check response bodies against (FIPS 180-4).
///
/// The cases are ordered from weakest to strongest, the order W3C Subresource Integrity uses to pick the
/// strongest algorithm of a metadata list (SRI §3.3.4 "Get the strongest metadata from set").
public enum DigestAlgorithm: String, Sendable, Hashable, CaseIterable, Comparable, CustomStringConvertible {
    /// SHA-256: 32-byte digests.
    case sha256
    /// SHA-384: 48-byte digests.
    case sha384
    /// SHA-512: 64-byte digests.
    case sha512

    /// The length of a digest in bytes: 32, 48 or 64.
    public var byteCount: Int {
        switch self {
        case .sha256: 32
        case .sha384: 48
        case .sha512: 64
        }
    }

    /// The algorithm's token in SRI metadata and in NetTap's findings: `sha256`, `sha384` or `sha512`.
    public var description: String { rawValue }

    /// The algorithm whose digests are `byteCount` bytes long.
    ///
    /// - Parameter byteCount: 32, 48 or 64.
    /// - Returns: The algorithm, or `nil` for any other length.
    public static func forByteCount(_ byteCount: Int) -> DigestAlgorithm? {
        allCases.first { $0.byteCount == byteCount }
    }

    /// Orders algorithms by strength, SHA-256 < SHA-384 < SHA-512.
    ///
    /// - Parameters:
    ///   - lhs: An algorithm.
    ///   - rhs: Another algorithm.
    /// - Returns: `true` when `lhs` is weaker than `rhs`.
    public static func < (lhs: DigestAlgorithm, rhs: DigestAlgorithm) -> Bool {
        lhs.byteCount < rhs.byteCount
    }
}
