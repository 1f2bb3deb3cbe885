import Foundation
import NetTapInspector
import NetTapTestSupport

/// A DevTools frontend stand-in over a real socket: sends CDP commands and reads messages, each blocking read done
/// off Swift's cooperative pool.
final class DevToolsTestClient: @unchecked Sendable {
    private let socket: TestSocket
    private var nextID = 1
    /// Every message received so far, in order, as JSON objects.
    private(set) var messages: [[String: Any]] = []

    /// Connects to the inspector's target and completes the WebSocket handshake.
    init(port: Int, path: String) async throws {
        socket = try TestSocket(port: port)
        try socket.write(
            "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
                + "Origin: devtools://devtools\r\nSec-WebSocket-Version: 13\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
        )
        let head = try await offThePool { [socket] in try socket.readHead() }
        guard head.hasPrefix("HTTP/1.1 101 ") else { throw TestSocket.Failure(description: "no upgrade: \(head)") }
        _ = socket.take()
    }

    /// Sends a command and returns its answer (messages before it are kept in ``messages``).
    @discardableResult
    func command(_ method: String, _ params: [String: Any] = [:]) async throws -> [String: Any] {
        let id = nextID
        nextID += 1
        let text = String(
            decoding: try JSONSerialization.data(withJSONObject: ["id": id, "method": method, "params": params]),
            as: UTF8.self
        )
        try socket.write(ClientMasking.mask(WebSocketFrameEncoder.text(text)))
        return try await read { $0["id"] as? Int == id }
    }

    /// Reads messages until one satisfies `done`, and returns it.
    @discardableResult
    func read(until done: ([String: Any]) -> Bool) async throws -> [String: Any] {
        if let seen = messages.first(where: done) { return seen }
        while true {
            let object = try await readNext()
            if done(object) { return object }
        }
    }

    /// Reads the next message.
    @discardableResult
    func readNext() async throws -> [String: Any] {
        let frame = try await offThePool { [socket] in try socket.readFrame() }
        guard frame.opcode == 1,
            let object = try JSONSerialization.jsonObject(with: Data(frame.payload)) as? [String: Any]
        else { throw TestSocket.Failure(description: "not a CDP text message: opcode \(frame.opcode)") }
        messages.append(object)
        return object
    }

    /// The events received so far named `method`.
    func events(_ method: String) -> [[String: Any]] {
        messages.filter { $0["method"] as? String == method }
    }

    /// The `params` of each event named `method`.
    func params(_ method: String) -> [[String: Any]] {
        events(method).compactMap { $0["params"] as? [String: Any] }
    }

    /// Reads until `count` requests have ended (`loadingFinished` or `loadingFailed`).
    func readUntilEnded(_ count: Int) async throws {
        while events("Network.loadingFinished").count + events("Network.loadingFailed").count < count {
            try await readNext()
        }
    }
}
