import Foundation
import NetTapCrypto

/// The server side of the WebSocket opening handshake (RFC 6455 §4.2).
package enum WebSocketHandshake {
    /// The GUID RFC 6455 §1.3 appends to the client's key.
    package static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    /// Why an upgrade request was refused: the status to answer (400, or 426 with the version supported) and why.
    package struct Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        /// The response to send before closing.
        package var response: HTTPResponseHead
        /// What was wrong.
        package var reason: String
        /// The reason.
        package var description: String { reason }
    }

    /// Whether the request asks for a WebSocket (`Upgrade: websocket`); the rest is checked by ``accept(_:)``.
    package static func isUpgrade(_ head: HTTPRequestHead) -> Bool {
        head.field("Upgrade", containsToken: "websocket")
    }

    /// The `101 Switching Protocols` response to a valid upgrade request.
    ///
    /// - Parameter head: The request: a GET of HTTP/1.1 with `Upgrade: websocket`, `Connection` holding
    ///   `upgrade`, `Sec-WebSocket-Version: 13` and a `Sec-WebSocket-Key` of 16 bytes in base64.
    /// - Returns: The response head with `Sec-WebSocket-Accept`.
    /// - Throws: ``Refusal``: 426 naming version 13 for another version, else 400.
    package static func accept(_ head: HTTPRequestHead) throws(Refusal) -> HTTPResponseHead {
        func refuse(_ reason: String) -> Refusal {
            Refusal(response: HTTPResponseHead(status: 400, fields: [("Connection", "close")]), reason: reason)
        }
        guard head.method == "GET", head.version == "HTTP/1.1" else {
            throw refuse("a WebSocket upgrade must be a GET of HTTP/1.1")
        }
        guard isUpgrade(head), head.field("Connection", containsToken: "upgrade") else {
            throw refuse("Upgrade: websocket and Connection: Upgrade are required")
        }
        guard head.fields.values(for: "Sec-WebSocket-Version") == ["13"] else {
            throw Refusal(
                response: HTTPResponseHead(
                    status: 426,
                    fields: [("Sec-WebSocket-Version", "13"), ("Connection", "close")]
                ),
                reason: "only WebSocket version 13 is supported"
            )
        }
        let keys = head.fields.values(for: "Sec-WebSocket-Key")
        guard keys.count == 1, let key = keys.first, Data(base64Encoded: key)?.count == 16 else {
            throw refuse("Sec-WebSocket-Key must be 16 bytes in base64")
        }
        guard let accept = acceptValue(forKey: key) else { throw refuse("the accept value could not be computed") }
        return HTTPResponseHead(
            status: 101,
            fields: [("Upgrade", "websocket"), ("Connection", "Upgrade"), ("Sec-WebSocket-Accept", accept)]
        )
    }

    /// base64(SHA-1(key + ``guid``)), RFC 6455 §4.2.2; `nil` when the crypto library fails.
    package static func acceptValue(forKey key: String) -> String? {
        guard let digest = try? SHA1.digest(Data((key + guid).utf8)) else { return nil }
        return Data(digest).base64EncodedString()
    }
}
