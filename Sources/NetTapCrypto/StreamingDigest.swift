import Foundation

#if canImport(CryptoKit)
import CryptoKit
#elseif canImport(CNetTapCrypto)
import CNetTapCrypto
#endif

/// Computes a SHA-256, SHA-384 or SHA-512 digest of data fed in pieces.
///
/// On Apple platforms the digest comes from CryptoKit; on Linux from OpenSSL's libcrypto (`EVP_MD_CTX`, through
/// the `CNetTapCrypto` system library), so NetTap carries no hash code of its own.
///
/// ```swift
/// let digest = try StreamingDigest(.sha256)
/// for try await chunk in response.body { digest.update(chunk) }
/// let value = try digest.finalize()            // 32 bytes
/// ```
///
/// Thread safety: not thread-safe; use one instance from one task at a time.
public final class StreamingDigest {
    /// Why a digest could not be computed.
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The platform's crypto library could not set up the algorithm.
        case unavailable(DigestAlgorithm)
        /// The crypto library reported an error while hashing.
        case failed(DigestAlgorithm)
        /// ``StreamingDigest/finalize()`` was called before, or data was fed after it.
        case alreadyFinalized

        /// One line naming the algorithm.
        public var description: String {
            switch self {
            case .unavailable(let algorithm): "\(algorithm) is not available from the platform's crypto library"
            case .failed(let algorithm): "the platform's crypto library failed while computing \(algorithm)"
            case .alreadyFinalized:
                "the digest was already finalized; finalize() gives the digest once, so start a new "
                    + "StreamingDigest to hash more data"
            }
        }
    }

    /// The hash function.
    public let algorithm: DigestAlgorithm
    private var isFinalized = false
    private var failure: Failure?

    #if canImport(CryptoKit)
    private enum Hasher {
        case sha256(SHA256)
        case sha384(SHA384)
        case sha512(SHA512)
    }
    private var hasher: Hasher
    #elseif canImport(CNetTapCrypto)
    private let context: OpaquePointer
    #endif

    /// Starts a digest.
    ///
    /// - Parameter algorithm: The hash function.
    /// - Throws: ``Failure/unavailable(_:)`` when the platform's crypto library cannot provide it.
    public init(_ algorithm: DigestAlgorithm) throws {
        self.algorithm = algorithm
        #if canImport(CryptoKit)
        switch algorithm {
        case .sha256: hasher = .sha256(SHA256())
        case .sha384: hasher = .sha384(SHA384())
        case .sha512: hasher = .sha512(SHA512())
        }
        #elseif canImport(CNetTapCrypto)
        guard let context = EVP_MD_CTX_new() else { throw Failure.unavailable(algorithm) }
        let function: OpaquePointer? =
            switch algorithm {
            case .sha256: EVP_sha256()
            case .sha384: EVP_sha384()
            case .sha512: EVP_sha512()
            }
        guard EVP_DigestInit_ex(context, function, nil) == 1 else {
            EVP_MD_CTX_free(context)
            throw Failure.unavailable(algorithm)
        }
        self.context = context
        #else
        throw Failure.unavailable(algorithm)
        #endif
    }

    deinit {
        #if !canImport(CryptoKit) && canImport(CNetTapCrypto)
        EVP_MD_CTX_free(context)
        #endif
    }

    /// Feeds the next piece of data.
    ///
    /// Data fed after ``finalize()`` makes the next ``finalize()`` throw instead of being lost silently.
    /// - Parameter data: The bytes; empty data changes nothing.
    /// - Complexity: O(`data.count`).
    public func update(_ data: Data) {
        guard !isFinalized else {
            failure = .alreadyFinalized
            return
        }
        guard failure == nil, !data.isEmpty else { return }
        #if canImport(CryptoKit)
        switch hasher {
        case .sha256(var function):
            function.update(data: data)
            hasher = .sha256(function)
        case .sha384(var function):
            function.update(data: data)
            hasher = .sha384(function)
        case .sha512(var function):
            function.update(data: data)
            hasher = .sha512(function)
        }
        #elseif canImport(CNetTapCrypto)
        let status = data.withUnsafeBytes { bytes in
            EVP_DigestUpdate(context, bytes.baseAddress, bytes.count)
        }
        if status != 1 { failure = .failed(algorithm) }
        #endif
    }

    /// Ends the digest and returns it.
    ///
    /// - Returns: The digest: ``DigestAlgorithm/byteCount`` bytes.
    /// - Throws: ``Failure/alreadyFinalized`` on a second call or after data was fed following the first;
    ///   ``Failure/failed(_:)`` when the crypto library reported an error.
    public func finalize() throws -> Data {
        if let failure { throw failure }
        guard !isFinalized else { throw Failure.alreadyFinalized }
        isFinalized = true
        #if canImport(CryptoKit)
        switch hasher {
        case .sha256(let function): return Data(function.finalize())
        case .sha384(let function): return Data(function.finalize())
        case .sha512(let function): return Data(function.finalize())
        }
        #elseif canImport(CNetTapCrypto)
        var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        guard EVP_DigestFinal_ex(context, &output, &length) == 1, Int(length) == algorithm.byteCount else {
            throw Failure.failed(algorithm)
        }
        return Data(output.prefix(Int(length)))
        #else
        throw Failure.unavailable(algorithm)
        #endif
    }

    /// The digest of bytes already in memory.
    ///
    /// - Parameters:
    ///   - data: The bytes.
    ///   - algorithm: The hash function.
    /// - Returns: The digest: ``DigestAlgorithm/byteCount`` bytes.
    /// - Throws: ``Failure`` when the platform's crypto library cannot compute it.
    /// - Complexity: O(`data.count`).
    public static func hash(_ data: Data, using algorithm: DigestAlgorithm) throws -> Data {
        let digest = try StreamingDigest(algorithm)
        digest.update(data)
        return try digest.finalize()
    }
}

extension StreamingDigest.Failure: LocalizedError {
    /// The same text as `description`, so `localizedDescription` (what apps and test reports show) says what
    /// went wrong too.
    public var errorDescription: String? { description }
}
