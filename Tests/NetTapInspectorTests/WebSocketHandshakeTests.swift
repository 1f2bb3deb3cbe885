import Foundation
import NetTapInspector
import Testing

@Suite("Inspector server: the WebSocket opening handshake (RFC 6455 §4.2)")
struct WebSocketHandshakeTests {
    private func head(_ text: String) throws -> HTTPRequestHead {
        var parser = HTTPRequestParser()
        guard case .head(let head, _) = try parser.consume(Array(text.utf8)) else {
            throw HTTPRequestError(status: 0, reason: "incomplete", line: 0)
        }
        return head
    }

    @Test("Chromium's upgrade request is answered 101 with the RFC's accept value")
    func accepted() throws {
        let request = try head(HTTPRequestParserTests.upgrade)
        #expect(WebSocketHandshake.isUpgrade(request))
        let response = try WebSocketHandshake.accept(request)
        #expect(response.status == 101)
        let text = String(decoding: response.bytes, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 101 Switching Protocols\r\n"))
        #expect(text.contains("Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n"))
        #expect(text.contains("Upgrade: websocket\r\n"))
        #expect(text.hasSuffix("\r\n\r\n"))
        #expect(!text.contains("Sec-WebSocket-Extensions"), "no extension is accepted")
    }

    @Test(
        "invalid upgrade requests are refused: 426 naming version 13, else 400",
        arguments: [
            ("Sec-WebSocket-Version: 13", "Sec-WebSocket-Version: 8", 426),
            ("Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Key: c2hvcnQ=", 400),
            ("Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", "X-No-Key: 1", 400),
            ("Connection: Upgrade", "Connection: keep-alive", 400),
            ("GET /devtools", "POST /devtools", 400),
            ("HTTP/1.1\r\nHost", "HTTP/1.0\r\nHost", 400),
        ]
    )
    func refused(original: String, replacement: String, status: Int) throws {
        let text = HTTPRequestParserTests.upgrade.replacingOccurrences(of: original, with: replacement)
        #expect(text != HTTPRequestParserTests.upgrade)
        let request = try head(text)
        #expect(throws: WebSocketHandshake.Refusal.self) { try WebSocketHandshake.accept(request) }
        do {
            _ = try WebSocketHandshake.accept(request)
        } catch {
            #expect(error.response.status == status, "\(error)")
            if status == 426 {
                #expect(error.response.fields.contains { $0.name == "Sec-WebSocket-Version" && $0.value == "13" })
            }
        }
    }

    @Test("Connection with several tokens and Upgrade in another case are read as upgrades")
    func tokens() throws {
        let text = HTTPRequestParserTests.upgrade
            .replacingOccurrences(of: "Connection: Upgrade", with: "Connection: keep-alive, Upgrade")
            .replacingOccurrences(of: "Upgrade: websocket", with: "Upgrade: WebSocket")
        #expect(try WebSocketHandshake.accept(try head(text)).status == 101)
    }
}
