import Foundation

#if canImport(CryptoKit)
import CryptoKit
#elseif canImport(CNetTapCrypto)
import CNetTapCrypto
#endif

/// SHA-1 (FIPS 180-4), for the protocols that require it.
///
/// The WebSocket opening handshake's `Sec-WebSocket-Accept` (RFC 6455 §4.2.2) needs it. Never for integrity:
/// SHA-1 is broken for collisions, and ``DigestAlgorithm`` leaves it out on purpose.
///
/// From CryptoKit's `Insecure.SHA1` on Apple platforms and OpenSSL's libcrypto (`EVP_sha1`) on Linux.
package enum SHA1 {
    /// The digest's length in bytes.
    package static let byteCount = 20

    /// The platform's crypto library could not compute the digest.
    package struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// One line saying so.
        package var description: String { "the platform's crypto library could not compute SHA-1" }
    }

    /// The SHA-1 digest of `data`.
    ///
    /// - Parameter data: The bytes.
    /// - Returns: 20 bytes.
    /// - Throws: ``Failure`` when the platform's crypto library cannot compute it.
    package static func digest(_ data: Data) throws(Failure) -> [UInt8] {
        #if canImport(CryptoKit)
        return Array(Insecure.SHA1.hash(data: data))
        #elseif canImport(CNetTapCrypto)
        var digest = [UInt8](repeating: 0, count: byteCount)
        var length: UInt32 = 0
        let status = data.withUnsafeBytes { bytes in
            EVP_Digest(bytes.baseAddress, bytes.count, &digest, &length, EVP_sha1(), nil)
        }
        guard status == 1, length == byteCount else { throw Failure() }
        return digest
        #else
        throw Failure()
        #endif
    }
}
