import Foundation

/// Writes WebSocket frames from the server: unmasked, as RFC 6455 §5.1 requires, lengths in their shortest form.
package enum WebSocketFrameEncoder {
    /// A text message, in one frame or in fragments of at most `fragmentSize` bytes.
    package static func text(_ text: String, fragmentSize: Int = .max) -> [UInt8] {
        message(opcode: 0x1, payload: Array(text.utf8), fragmentSize: fragmentSize)
    }

    /// A binary message, in one frame or in fragments of at most `fragmentSize` bytes.
    package static func binary(_ bytes: [UInt8], fragmentSize: Int = .max) -> [UInt8] {
        message(opcode: 0x2, payload: bytes, fragmentSize: fragmentSize)
    }

    /// A ping; the payload is cut to 125 bytes.
    package static func ping(_ payload: [UInt8] = []) -> [UInt8] { frame(opcode: 0x9, payload: payload.prefix(125)) }

    /// A pong echoing a ping's payload (cut to 125 bytes).
    package static func pong(_ payload: [UInt8]) -> [UInt8] { frame(opcode: 0xA, payload: payload.prefix(125)) }

    /// A close frame with a status code and a reason cut at a character boundary to fit 125 bytes.
    package static func close(code: UInt16, reason: String = "") -> [UInt8] {
        var kept = ""
        for character in reason where kept.utf8.count + character.utf8.count <= 123 { kept.append(character) }
        return frame(opcode: 0x8, payload: [UInt8(code >> 8), UInt8(code & 0xFF)] + Array(kept.utf8))
    }

    /// One frame.
    ///
    /// - Parameters:
    ///   - opcode: The opcode (continuation 0, text 1, binary 2, close 8, ping 9, pong 10).
    ///   - payload: The payload.
    ///   - isFinal: Whether FIN is set.
    /// - Returns: The frame's bytes.
    package static func frame(opcode: UInt8, payload: some Collection<UInt8>, isFinal: Bool = true) -> [UInt8] {
        var bytes: [UInt8] = [(isFinal ? 0x80 : 0) | opcode]
        let count = payload.count
        if count < 126 {
            bytes.append(UInt8(count))
        } else if count <= 0xFFFF {
            bytes += [126, UInt8(count >> 8), UInt8(count & 0xFF)]
        } else {
            bytes.append(127)
            bytes += (0..<8).reversed().map { UInt8(truncatingIfNeeded: UInt64(count) >> (UInt64($0) * 8)) }
        }
        bytes.reserveCapacity(bytes.count + count)
        bytes.append(contentsOf: payload)
        return bytes
    }

    private static func message(opcode: UInt8, payload: [UInt8], fragmentSize: Int) -> [UInt8] {
        let size = max(1, fragmentSize)
        guard payload.count > size else { return frame(opcode: opcode, payload: payload) }
        var bytes: [UInt8] = []
        var start = 0
        while start < payload.count {
            let end = min(payload.count, start + size)
            bytes += frame(
                opcode: start == 0 ? opcode : 0x0,
                payload: payload[start..<end],
                isFinal: end == payload.count
            )
            start = end
        }
        return bytes
    }
}
