import Foundation
import NetTapInspector
import NetTapShaping
import Testing

@Suite("Inspector server: WebSocket frames read strictly and written in their shortest form (RFC 6455 §5)")
struct WebSocketFrameTests {
    private func decode(_ bytes: [UInt8], limit: Int = 16 * 1024 * 1024) throws(WebSocketError) -> [WebSocketMessage] {
        var decoder = WebSocketFrameDecoder(maximumMessageSize: limit)
        return try decoder.consume(bytes)
    }

    private func closeCode(_ bytes: [UInt8], limit: Int = 1 << 24) -> UInt16? {
        do {
            _ = try decode(bytes, limit: limit)
            return nil
        } catch {
            return error.closeCode
        }
    }

    @Test("the RFC 6455 §5.7 examples: Hello masked, unmasked, fragmented, ping and pong, 256 bytes and 64 KiB")
    func rfcExamples() throws {
        let hello = Array("Hello".utf8)
        let maskedHello: [UInt8] = [0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58]
        #expect(try decode(maskedHello) == [.text("Hello")])
        #expect(WebSocketFrameEncoder.text("Hello") == [0x81, 0x05] + hello)
        #expect(ClientMasking.mask(WebSocketFrameEncoder.text("Hello")) == maskedHello)
        let fragmented: [UInt8] = [0x01, 0x03, 0x48, 0x65, 0x6C, 0x80, 0x02, 0x6C, 0x6F]
        #expect(WebSocketFrameEncoder.text("Hello", fragmentSize: 3) == fragmented)
        #expect(WebSocketFrameEncoder.ping(hello) == [0x89, 0x05] + hello)
        let maskedPong: [UInt8] = [0x8A, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58]
        #expect(try decode(maskedPong) == [.pong(hello)])
        let twoFiftySix = [UInt8](repeating: 7, count: 256)
        #expect(WebSocketFrameEncoder.binary(twoFiftySix).prefix(4) == [0x82, 0x7E, 0x01, 0x00])
        let big = [UInt8](repeating: 9, count: 65_536)
        #expect(WebSocketFrameEncoder.binary(big).prefix(10) == [0x82, 0x7F, 0, 0, 0, 0, 0, 1, 0, 0])
        #expect(try decode(ClientMasking.mask(WebSocketFrameEncoder.binary(twoFiftySix))) == [.binary(twoFiftySix)])
        #expect(try decode(ClientMasking.mask(WebSocketFrameEncoder.binary(big))) == [.binary(big)])
    }

    @Test("fragments are reassembled, a ping between them is returned on its own, UTF-8 split across them is fine")
    func fragments() throws {
        let text = "Grüße, 世界 🌍"
        let stream = ClientMasking.maskAll(WebSocketFrameEncoder.text(text, fragmentSize: 3))
        var decoder = WebSocketFrameDecoder()
        var messages: [WebSocketMessage] = []
        let ping = ClientMasking.mask(WebSocketFrameEncoder.ping([1, 2]))
        // A ping after the first fragment.
        messages += try decoder.consume(stream.prefix(9))
        messages += try decoder.consume(ping)
        messages += try decoder.consume(stream.dropFirst(9))
        #expect(messages == [.ping([1, 2]), .text(text)])
    }

    @Test("one byte at a time and random chunks give the same messages as all at once")
    func incremental() throws {
        var generator = SeededRandom(seed: 42)
        for _ in 0..<200 {
            var stream: [UInt8] = []
            var expected: [WebSocketMessage] = []
            for _ in 0..<Int.random(in: 1...6, using: &generator) {
                let size = [0, 1, 125, 126, 300, 70_000].randomElement(using: &generator) ?? 0
                let fragment = Int.random(in: 1...400, using: &generator)
                if Bool.random(using: &generator) {
                    let text = String(repeating: "é", count: size / 2)
                    stream += WebSocketFrameEncoder.text(text, fragmentSize: fragment)
                    expected.append(.text(text))
                } else {
                    let bytes = (0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) }
                    stream += WebSocketFrameEncoder.binary(bytes, fragmentSize: fragment)
                    expected.append(.binary(bytes))
                }
            }
            stream = ClientMasking.maskAll(
                stream,
                key: (0..<4).map { _ in UInt8.random(in: 0...255, using: &generator) }
            )
            var decoder = WebSocketFrameDecoder()
            var messages: [WebSocketMessage] = []
            var offset = 0
            while offset < stream.count {
                let end = min(stream.count, offset + Int.random(in: 1...5_000, using: &generator))
                messages += try decoder.consume(stream[offset..<end])
                offset = end
            }
            #expect(messages == expected)
        }
        let hello = ClientMasking.mask(WebSocketFrameEncoder.text("Hello"))
        var decoder = WebSocketFrameDecoder()
        var messages: [WebSocketMessage] = []
        for byte in hello { messages += try decoder.consume([byte]) }
        #expect(messages == [.text("Hello")])
    }

    @Test(
        "frames no valid client sends are protocol errors with the close code to answer",
        arguments: [
            ([0x81, 0x05] + Array("Hello".utf8), 1002, "unmasked"),
            ([0xC1, 0x80, 1, 2, 3, 4], 1002, "RSV1"),
            ([0x83, 0x80, 1, 2, 3, 4], 1002, "opcode 3"),
            ([0x8B, 0x80, 1, 2, 3, 4], 1002, "opcode 11"),
            ([0x09, 0x80, 1, 2, 3, 4], 1002, "fragmented ping"),
            ([0x89, 0xFE, 0x00, 0x7E] + [1, 2, 3, 4] + [UInt8](repeating: 0, count: 126), 1002, "long ping"),
            ([0x80, 0x80, 1, 2, 3, 4], 1002, "continuation without a message"),
            ([0x01, 0x80, 1, 2, 3, 4, 0x81, 0x80, 1, 2, 3, 4], 1002, "new message inside a fragmented one"),
            ([0x82, 0xFE, 0x00, 0x05, 1, 2, 3, 4, 0, 0, 0, 0, 0], 1002, "16-bit length of 5"),
            ([0x82, 0xFF, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 1, 2, 3, 4], 1002, "64-bit length of 65535"),
            ([0x82, 0xFF, 0x80, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4], 1002, "64-bit length with the top bit"),
            (ClientMasking.mask([0x81, 0x02, 0xC3, 0x28]), 1007, "invalid UTF-8 text"),
            (ClientMasking.mask([0x88, 0x01, 0x03]), 1002, "1-byte close payload"),
            (ClientMasking.mask([0x88, 0x02, 0x03, 0xED]), 1002, "close code 1005"),
            (ClientMasking.mask([0x88, 0x02, 0x03, 0xE7]), 1002, "close code 999"),
            (ClientMasking.mask([0x88, 0x04, 0x03, 0xE8, 0xC3, 0x28]), 1007, "close reason not UTF-8"),
        ] as [([UInt8], Int, String)]
    )
    func refused(bytes: [UInt8], code: Int, what: String) {
        #expect(closeCode(bytes) == UInt16(code), "\(what)")
    }

    @Test("a message over the limit is 1009, whether one frame or fragments; at the limit it is read")
    func sizeLimit() throws {
        let frame = ClientMasking.mask(WebSocketFrameEncoder.binary([UInt8](repeating: 1, count: 200)))
        #expect(closeCode(frame, limit: 199) == 1009)
        #expect(try decode(frame, limit: 200) == [.binary([UInt8](repeating: 1, count: 200))])
        let fragmented = ClientMasking.maskAll(
            WebSocketFrameEncoder.binary([UInt8](repeating: 1, count: 200), fragmentSize: 50)
        )
        #expect(closeCode(fragmented, limit: 199) == 1009)
        // The header alone announces too much: refused before the payload arrives.
        #expect(closeCode([0x82, 0xFF, 0, 0, 0, 1, 0, 0, 0, 0], limit: 1 << 20) == 1009)
    }

    @Test("close frames: code and reason read; after a close nothing more is read; the encoder cuts long reasons")
    func close() throws {
        let close = ClientMasking.mask(WebSocketFrameEncoder.close(code: 1000, reason: "bye"))
        var decoder = WebSocketFrameDecoder()
        let messages = try decoder.consume(close + ClientMasking.mask(WebSocketFrameEncoder.text("after")))
        #expect(messages == [.close(code: 1000, reason: "bye")])
        #expect(try decoder.consume(ClientMasking.mask(WebSocketFrameEncoder.text("later"))) == [])
        #expect(try decode(ClientMasking.mask([0x88, 0x00])) == [.close(code: nil, reason: "")])
        #expect(
            try decode(ClientMasking.mask(WebSocketFrameEncoder.close(code: 4000))) == [.close(code: 4000, reason: "")]
        )
        let long = WebSocketFrameEncoder.close(code: 1001, reason: String(repeating: "é", count: 100))
        #expect(long[1] == 124, "2 code bytes and 122 bytes of whole characters (at most 123 fit)")
        #expect(try decode(ClientMasking.mask(long)) == [.close(code: 1001, reason: String(repeating: "é", count: 61))])
    }

    @Test("seeded random bytes never crash the decoder")
    func randomBytes() {
        var generator = SeededRandom(seed: 7)
        for _ in 0..<5_000 {
            var bytes = (0..<Int.random(in: 0..<64, using: &generator)).map { _ in
                UInt8.random(in: 0...255, using: &generator)
            }
            if Bool.random(using: &generator), !bytes.isEmpty {
                bytes[0] = [0x81, 0x82, 0x01, 0x80, 0x88, 0x89].randomElement(using: &generator) ?? 0
            }
            if bytes.count > 1 { bytes[1] |= 0x80 }
            var decoder = WebSocketFrameDecoder(maximumMessageSize: 1_000)
            _ = try? decoder.consume(bytes)
        }
    }
}
