import Foundation

/// Reads WebSocket frames from a client as bytes arrive, and returns complete messages (RFC 6455 §5).
///
/// Strict, as a server facing any local program must be: client frames must be masked; RSV bits, unknown
/// opcodes, fragmented or long (> 125 bytes) control frames, a continuation without a message or a new message
/// inside a fragmented one, and 64-bit lengths with the top bit set or lengths not in their shortest form are
/// protocol errors (1002); a text message or close reason that is not UTF-8 is 1007; a message over
/// ``maximumMessageSize`` is 1009. After a close frame nothing more is read.
package struct WebSocketFrameDecoder: Sendable {
    /// The largest message accepted, in bytes, fragments together.
    package let maximumMessageSize: Int
    private var buffer: [UInt8] = []
    private var offset = 0
    private var fragments: (opcode: UInt8, payload: [UInt8])?
    private var isClosed = false

    /// Creates a decoder.
    ///
    /// - Parameter maximumMessageSize: The largest message, in bytes; 16 MiB by default.
    package init(maximumMessageSize: Int = 16 * 1024 * 1024) {
        self.maximumMessageSize = maximumMessageSize
    }

    /// Adds bytes and returns the messages and control frames they complete, in order.
    ///
    /// - Parameter bytes: The next bytes from the connection.
    /// - Returns: The messages now complete (none when a frame is still partial).
    /// - Throws: ``WebSocketError`` with the close code to answer; the connection must then be closed.
    package mutating func consume(_ bytes: some Sequence<UInt8>) throws(WebSocketError) -> [WebSocketMessage] {
        guard !isClosed else { return [] }
        buffer.append(contentsOf: bytes)
        var messages: [WebSocketMessage] = []
        while !isClosed, let frame = try WebSocketFrameHeader.read(buffer, at: offset, limit: maximumMessageSize) {
            let end = frame.payloadStart + frame.length
            guard end <= buffer.count else { break }
            var payload = Array(buffer[frame.payloadStart..<end])
            for index in payload.indices { payload[index] ^= frame.mask[index & 3] }
            offset = end
            if let message = try take(frame, payload: payload) { messages.append(message) }
        }
        if offset > 65_536 || offset == buffer.count {
            buffer.removeFirst(offset)
            offset = 0
        }
        return messages
    }

    /// The message a frame completes, if any.
    private mutating func take(
        _ frame: WebSocketFrameHeader,
        payload: [UInt8]
    ) throws(WebSocketError) -> WebSocketMessage? {
        switch frame.opcode {
        case 0x8:
            isClosed = true
            return try Self.close(payload)
        case 0x9: return .ping(payload)
        case 0xA: return .pong(payload)
        case 0x0:
            guard var message = fragments else { throw .protocolError("a continuation frame without a message") }
            message.payload += payload
            try checkSize(message.payload.count)
            guard frame.isFinal else {
                fragments = message
                return nil
            }
            fragments = nil
            return try Self.message(opcode: message.opcode, payload: message.payload)
        default:
            guard fragments == nil else { throw .protocolError("a new message inside a fragmented one") }
            try checkSize(payload.count)
            guard frame.isFinal else {
                fragments = (frame.opcode, payload)
                return nil
            }
            return try Self.message(opcode: frame.opcode, payload: payload)
        }
    }

    private func checkSize(_ count: Int) throws(WebSocketError) {
        if count > maximumMessageSize {
            throw WebSocketError(closeCode: 1009, reason: "a message over \(maximumMessageSize) bytes")
        }
    }

    private static func message(opcode: UInt8, payload: [UInt8]) throws(WebSocketError) -> WebSocketMessage {
        guard opcode == 0x1 else { return .binary(payload) }
        guard let text = String(validating: payload, as: UTF8.self) else {
            throw WebSocketError(closeCode: 1007, reason: "a text message that is not UTF-8")
        }
        return .text(text)
    }

    /// A close frame's code and reason (RFC 6455 §5.5.1, §7.4).
    private static func close(_ payload: [UInt8]) throws(WebSocketError) -> WebSocketMessage {
        guard !payload.isEmpty else { return .close(code: nil, reason: "") }
        guard payload.count >= 2 else { throw .protocolError("a close frame with a 1-byte payload") }
        let code = UInt16(payload[0]) << 8 | UInt16(payload[1])
        guard isValidCloseCode(code) else { throw .protocolError("close code \(code) may not be sent") }
        guard let reason = String(validating: payload[2...], as: UTF8.self) else {
            throw WebSocketError(closeCode: 1007, reason: "a close reason that is not UTF-8")
        }
        return .close(code: code, reason: reason)
    }

    /// The codes an endpoint may send: 1000–1003, 1007–1014 (RFC 6455 §7.4.1 and the IANA registry), 3000–4999.
    private static func isValidCloseCode(_ code: UInt16) -> Bool {
        (1000...1003).contains(code) || (1007...1014).contains(code) || (3000...4999).contains(code)
    }
}
