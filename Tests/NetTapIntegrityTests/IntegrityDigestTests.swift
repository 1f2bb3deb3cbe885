import Foundation
import NetTapIntegrity
import Testing

@Suite("SRI digests and metadata: parsing, strongest algorithm, file-name digests")
struct IntegrityDigestTests {
    /// SHA-256 of "abc" as SRI, from the NIST example.
    static let abc256 = "sha256-ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0="
    static let abc384 = "sha384-ywB1P0WjXou1oD1pmsZQBycsMqsO3tFjGotgWkP/W+2AhgcroefMI1i67KE0yCWn"
    static let hex256 = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"

    @Test("an SRI expression round-trips and carries the digest of its bytes")
    func sriRoundTrip() throws {
        let digest = try IntegrityDigest(sri: Self.abc256)
        #expect(digest.algorithm == .sha256)
        #expect(digest.hex == Self.hex256)
        #expect(digest.sri == Self.abc256)
        #expect(try IntegrityDigest.of(Data("abc".utf8), using: .sha256) == digest)
        #expect(try IntegrityDigest.of(Data("abc".utf8), using: .sha384).sri == Self.abc384)
    }

    @Test("padding may be left out and SRI options after ? are ignored")
    func lenientForms() throws {
        let unpadded = try IntegrityDigest(sri: String(Self.abc256.dropLast()))
        let withOption = try IntegrityDigest(sri: Self.abc256 + "?ct=application/javascript")
        #expect(unpadded.hex == Self.hex256)
        #expect(withOption.hex == Self.hex256)
    }

    @Test(
        "malformed expressions are rejected with the reason",
        arguments: [
            ("sha256-ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/", "a sha256 digest is 32 bytes, found 27"),
            ("sha256-ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAF!0=", "malformed base64"),
            ("sha256-ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0=", "malformed base64"),
            ("sha384-" + String(abc256.dropFirst(7)), "a sha384 digest is 48 bytes, found 32"),
            ("md5-1B2M2Y8AsgTpgAmY7PhCfg==", "unknown algorithm \"md5\""),
            ("ungWv48Bz", "is not <algorithm>-<base64 digest>"),
        ]
    )
    func malformed(sri: String, reason: String) {
        #expect {
            try IntegrityDigest(sri: sri)
        } throws: { error in
            "\(error)".contains(reason)
        }
    }

    @Test("in a list, the strongest algorithm wins and any of its values is accepted")
    func strongestWins() throws {
        let other384 = try IntegrityDigest.of(Data("v2".utf8), using: .sha384)
        let metadata = try IntegrityMetadata(sri: "\(Self.abc256)  \(other384.sri)\t\(Self.abc384)")
        #expect(metadata.algorithm == .sha384)
        #expect(metadata.digests.count == 2)
        #expect(metadata.accepts(try IntegrityDigest.of(Data("abc".utf8), using: .sha384)))
        #expect(metadata.accepts(other384))
        #expect(!metadata.accepts(try IntegrityDigest(sri: Self.abc256)), "the weaker sha256 no longer counts")
    }

    @Test("unknown algorithms are ignored; a value with none of sha256/384/512 is an error")
    func unknownAlgorithms() throws {
        let metadata = try IntegrityMetadata(sri: "md5-1B2M2Y8AsgTpgAmY7PhCfg== \(Self.abc256) sha3_256-abc")
        #expect(metadata.digests == [try IntegrityDigest(sri: Self.abc256)])
        #expect {
            try IntegrityMetadata(sri: "md5-1B2M2Y8AsgTpgAmY7PhCfg==")
        } throws: { error in
            "\(error)" == "no sha256, sha384 or sha512 digest in the SRI value; found only \"md5\""
        }
        #expect(throws: IntegrityError.self) { try IntegrityMetadata(sri: "  ") }
    }

    @Test(
        "a file name carries a digest when the part before the extension is 64, 96 or 128 hex digits",
        arguments: [
            ("app.\(hex256).js", DigestAlgorithm.sha256),
            ("\(hex256).css", .sha256),
            ("app.\(hex256.uppercased()).js", .sha256),
            ("vendor.chunk.\(String(repeating: "ab", count: 48)).wasm", .sha384),
            ("app.\(String(repeating: "0f", count: 64)).html", .sha512),
        ]
    )
    func fileNameDigest(name: String, algorithm: DigestAlgorithm) throws {
        let digest = try #require(IntegrityRule.digest(inFileName: name))
        #expect(digest.algorithm == algorithm)
    }

    @Test(
        "near misses carry no digest",
        arguments: [
            "app.\(String(hex256.dropLast())).js",  // 63 digits
            "app.\(hex256)a.js",  // 65 digits
            "app.\(String(hex256.dropLast()))g.js",  // a non-hex digit
            "app.\(hex256).min.js",  // the part before the extension is "min"
            "app-\(hex256).js",  // the hash is not its own part
            "app.\(hex256)",  // the hash is the extension
            "app.\(String(repeating: "ab", count: 40)).js",  // 80 digits: no SHA-2 length
            "app.js",
        ]
    )
    func fileNameNearMiss(name: String) {
        #expect(IntegrityRule.digest(inFileName: name) == nil)
    }
}
