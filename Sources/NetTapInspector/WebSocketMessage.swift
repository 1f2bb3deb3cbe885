import Foundation

/// A complete message or control frame read from a WebSocket client (RFC 6455 §5.5 and §5.6).
package enum WebSocketMessage: Sendable, Equatable {
    /// A text message, valid UTF-8, reassembled from its fragments.
    case text(String)
    /// A binary message, reassembled from its fragments.
    case binary([UInt8])
    /// A ping, with its application data (at most 125 bytes).
    case ping([UInt8])
    /// A pong, with its application data.
    case pong([UInt8])
    /// A close frame: its status code (`nil` when the frame had none) and reason.
    case close(code: UInt16?, reason: String)
}

/// A WebSocket protocol violation: the close code to answer with (RFC 6455 §7.4.1) and why.
package struct WebSocketError: Error, Sendable, Equatable, CustomStringConvertible {
    /// 1002 protocol error, 1007 invalid UTF-8, 1009 message too big.
    package var closeCode: UInt16
    /// What was wrong, short enough for a close frame's reason (≤ 123 bytes).
    package var reason: String

    /// `1002: a control frame longer than 125 bytes`.
    package var description: String { "\(closeCode): \(reason)" }

    static func protocolError(_ reason: String) -> WebSocketError { WebSocketError(closeCode: 1002, reason: reason) }
}
