import Foundation
import NetTapCrypto
import Testing

@Suite("StreamingDigest: SHA-2 from the platform's crypto library, checked against the NIST FIPS 180 examples")
struct StreamingDigestTests {
    /// Lowercase hex of `data`, for comparing with the published examples.
    static func hex(_ data: Data) -> String {
        data.map { String(format: "%02x", $0) }.joined()
    }

    static let message448 = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"

    /// (algorithm, message, expected hex) from NIST's "Cryptographic Standards and Guidelines: Examples with
    /// Intermediate Values" for SHA-256, SHA-384 and SHA-512.
    static let vectors: [(DigestAlgorithm, String, String)] = [
        (.sha256, "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (.sha256, "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        (.sha256, message448, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        (
            .sha384, "abc",
            "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7"
        ),
        (
            .sha384, "",
            "38b060a751ac96384cd9327eb1b1e36a21fdb71114be07434c0cc7bf63f6e1da274edebfe76f65fbd51ad2f14898b95b"
        ),
        (
            .sha384, message448,
            "3391fdddfc8dc7393707a65b1b4709397cf8b1d162af05abfe8f450de5f36bc6b0455a8520bc4e6f5fe95b1fe3c8452b"
        ),
        (
            .sha512, "abc",
            "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
                + "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"
        ),
        (
            .sha512, "",
            "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce"
                + "47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e"
        ),
        (
            .sha512, message448,
            "204a8fc6dda82f0a0ced7beb8e08a41657c16ef468b228a8279be331a703c335"
                + "96fd15c13b1b07f9aa1d3bea57789ca031ad85c7a71dd70354ec631238ca3445"
        ),
    ]

    @Test("one-shot digests equal the NIST examples", arguments: 0..<vectors.count)
    func nistVector(index: Int) throws {
        let (algorithm, message, hex) = Self.vectors[index]
        let value = try StreamingDigest.hash(Data(message.utf8), using: algorithm)
        #expect(value.count == algorithm.byteCount)
        #expect(Self.hex(value) == hex)
    }

    @Test("fed in uneven pieces, the digest is the same as in one piece", arguments: 0..<vectors.count)
    func incremental(index: Int) throws {
        let (algorithm, message, hex) = Self.vectors[index]
        let bytes = Data(message.utf8)
        let digest = try StreamingDigest(algorithm)
        var start = 0
        var size = 1
        while start < bytes.count {
            let end = min(bytes.count, start + size)
            digest.update(bytes.subdata(in: start..<end))
            digest.update(Data())
            start = end
            size += 3
        }
        #expect(Self.hex(try digest.finalize()) == hex)
    }

    @Test("a million 'a' in 1000-byte pieces gives NIST's long-message SHA-256")
    func millionA() throws {
        let digest = try StreamingDigest(.sha256)
        let piece = Data(repeating: UInt8(ascii: "a"), count: 1000)
        for _ in 0..<1000 { digest.update(piece) }
        let value = try digest.finalize()
        #expect(
            Self.hex(value)
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
        )
    }

    @Test("finalizing twice, or feeding data after finalizing, throws alreadyFinalized")
    func finalizeOnce() throws {
        let digest = try StreamingDigest(.sha384)
        digest.update(Data("abc".utf8))
        _ = try digest.finalize()
        #expect(throws: StreamingDigest.Failure.alreadyFinalized) { try digest.finalize() }
        let fed = try StreamingDigest(.sha256)
        _ = try fed.finalize()
        fed.update(Data("late".utf8))
        #expect(throws: StreamingDigest.Failure.alreadyFinalized) { try fed.finalize() }
    }
}
