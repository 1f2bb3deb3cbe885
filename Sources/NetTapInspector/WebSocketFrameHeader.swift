import Foundation

/// The header of one client frame (RFC 6455 §5.2), read once all of it has arrived.
struct WebSocketFrameHeader: Sendable {
    var isFinal: Bool
    var opcode: UInt8
    var mask: [UInt8]
    var length: Int
    var payloadStart: Int

    /// The header starting at `offset`, `nil` until its bytes are all there.
    ///
    /// - Throws: ``WebSocketError`` for a frame no valid client sends, or one whose length exceeds `limit`.
    static func read(_ buffer: [UInt8], at offset: Int, limit: Int) throws(WebSocketError) -> WebSocketFrameHeader? {
        guard buffer.count - offset >= 2 else { return nil }
        let first = buffer[offset]
        let second = buffer[offset + 1]
        let opcode = first & 0x0F
        guard first & 0x70 == 0 else { throw .protocolError("RSV bits set without an extension") }
        guard [0x0, 0x1, 0x2, 0x8, 0x9, 0xA].contains(opcode) else { throw .protocolError("opcode \(opcode)") }
        guard second & 0x80 != 0 else { throw .protocolError("an unmasked client frame") }
        let isFinal = first & 0x80 != 0
        let isControl = opcode & 0x8 != 0
        var cursor = offset + 2
        var length = Int(second & 0x7F)
        if length >= 126 {
            let size = length == 126 ? 2 : 8
            guard buffer.count - cursor >= size else { return nil }
            let value = buffer[cursor..<cursor + size].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            cursor += size
            guard size == 2 ? value >= 126 : value > 0xFFFF else {
                throw .protocolError("a length not in its shortest form")
            }
            guard value >> 63 == 0 else { throw .protocolError("a 64-bit length with its top bit set") }
            guard value <= UInt64(limit) else {
                throw WebSocketError(closeCode: 1009, reason: "a message over \(limit) bytes")
            }
            length = Int(value)
        }
        if isControl {
            guard isFinal else { throw .protocolError("a fragmented control frame") }
            guard length <= 125 else { throw .protocolError("a control frame longer than 125 bytes") }
        }
        guard buffer.count - cursor >= 4 else { return nil }
        let mask = Array(buffer[cursor..<cursor + 4])
        return WebSocketFrameHeader(
            isFinal: isFinal,
            opcode: opcode,
            mask: mask,
            length: length,
            payloadStart: cursor + 4
        )
    }
}
