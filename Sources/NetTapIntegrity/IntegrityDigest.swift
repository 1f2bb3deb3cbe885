import Foundation
@_exported import NetTapCrypto

/// One expected or computed digest: an algorithm and its value, written as W3C Subresource Integrity metadata.
///
/// The text form is SRI's `hash-expression` (W3C Subresource Integrity §3.5): the algorithm token, a hyphen,
/// and the digest in base64 (RFC 4648 §4, with padding), for example
/// `sha256-ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=`.
public struct IntegrityDigest: Sendable, Hashable, CustomStringConvertible {
    /// The hash function.
    public let algorithm: DigestAlgorithm
    /// The digest bytes, `DigestAlgorithm.byteCount` long.
    public let value: Data

    /// Creates a digest from its bytes.
    ///
    /// - Parameters:
    ///   - algorithm: The hash function.
    ///   - value: The digest bytes.
    /// - Throws: ``IntegrityError/invalidDigest(_:)`` when `value` is not `DigestAlgorithm.byteCount` bytes.
    public init(algorithm: DigestAlgorithm, value: Data) throws {
        guard value.count == algorithm.byteCount else {
            throw IntegrityError.invalidDigest(
                "a \(algorithm) digest is \(algorithm.byteCount) bytes, found \(value.count)"
            )
        }
        self.algorithm = algorithm
        self.value = value
    }

    /// Reads one SRI hash expression, `<algorithm>-<base64>`.
    ///
    /// Base64 padding may be left out; SRI options after `?` are ignored (SRI §3.5).
    /// - Parameter sri: The expression, for example `sha384-oqVuAfXRKap7fdgcCY5uykM6+R9GqQ8K/uxy9rx7HNQlGYl1kPzQho1wx4JwY8wC`.
    /// - Throws: ``IntegrityError/invalidDigest(_:)`` for an unknown algorithm, malformed base64 or a digest of
    ///   the wrong length for its algorithm.
    public init(sri: String) throws {
        let expression = sri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? sri
        guard let hyphen = expression.firstIndex(of: "-") else {
            throw IntegrityError.invalidDigest("\"\(sri)\" is not <algorithm>-<base64 digest>")
        }
        let name = String(expression[..<hyphen])
        guard let algorithm = DigestAlgorithm(rawValue: name.lowercased()) else {
            throw IntegrityError.invalidDigest(
                "unknown algorithm \"\(name)\"; expected sha256, sha384 or sha512"
            )
        }
        let text = String(expression[expression.index(after: hyphen)...])
        guard let value = Self.decodeBase64(text) else {
            throw IntegrityError.invalidDigest("malformed base64 \"\(text)\" in \(algorithm) digest")
        }
        guard value.count == algorithm.byteCount else {
            throw IntegrityError.invalidDigest(
                "\"\(sri)\": a \(algorithm) digest is \(algorithm.byteCount) bytes, found \(value.count)"
            )
        }
        try self.init(algorithm: algorithm, value: value)
    }

    /// Reads a digest written in hexadecimal; the length picks the algorithm.
    ///
    /// - Parameter hex: 64, 96 or 128 hexadecimal digits (either case) for SHA-256, SHA-384 or SHA-512.
    /// - Returns: The digest, or `nil` when `hex` is not exactly that.
    public static func fromHex(_ hex: some StringProtocol) -> IntegrityDigest? {
        let digits = Array(hex.utf8)
        guard digits.count.isMultiple(of: 2), let algorithm = DigestAlgorithm.forByteCount(digits.count / 2) else {
            return nil
        }
        var bytes = Data(capacity: digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = hexValue(digits[index]), let low = hexValue(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return try? IntegrityDigest(algorithm: algorithm, value: bytes)
    }

    /// The digest of bytes already in memory.
    ///
    /// - Parameters:
    ///   - data: The bytes.
    ///   - algorithm: The hash function.
    /// - Returns: The digest.
    /// - Throws: `StreamingDigest.Failure` when the platform's crypto library cannot compute it.
    /// - Complexity: O(`data.count`).
    public static func of(_ data: Data, using algorithm: DigestAlgorithm) throws -> IntegrityDigest {
        try IntegrityDigest(algorithm: algorithm, value: StreamingDigest.hash(data, using: algorithm))
    }

    /// The SRI hash expression, `sha256-<base64>` with padding.
    public var sri: String { "\(algorithm)-\(value.base64EncodedString())" }

    /// The digest in lowercase hexadecimal, as file names embed it.
    public var hex: String { value.map { String(format: "%02x", $0) }.joined() }

    /// The SRI hash expression (``sri``).
    public var description: String { sri }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Standard base64 (RFC 4648 §4) with optional padding; nothing else (no whitespace, no URL-safe alphabet).
    private static func decodeBase64(_ text: String) -> Data? {
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
        let body = text.hasSuffix("==") ? text.dropLast(2) : text.hasSuffix("=") ? text.dropLast(1) : Substring(text)
        guard !body.isEmpty, body.allSatisfy(allowed.contains), body.count % 4 != 1 else { return nil }
        if body.count < text.count, !text.count.isMultiple(of: 4) { return nil }
        let padded = String(body) + String(repeating: "=", count: (4 - body.count % 4) % 4)
        return Data(base64Encoded: padded)
    }
}
