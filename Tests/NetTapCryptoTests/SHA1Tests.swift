import Foundation
import NetTapCrypto
import Testing

@Suite("SHA-1 from the platform's crypto library")
struct SHA1Tests {
    private func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    @Test("FIPS 180 example vectors")
    func vectors() throws {
        #expect(hex(try SHA1.digest(Data("abc".utf8))) == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(hex(try SHA1.digest(Data())) == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        let long = Data("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
        #expect(hex(try SHA1.digest(long)) == "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
        let million = Data(repeating: UInt8(ascii: "a"), count: 1_000_000)
        #expect(hex(try SHA1.digest(million)) == "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
    }

    @Test("RFC 6455 §1.3: the accept value of the sample key")
    func webSocketAccept() throws {
        let key = "dGhlIHNhbXBsZSBub25jZQ==" + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
        #expect(Data(try SHA1.digest(Data(key.utf8))).base64EncodedString() == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }
}
