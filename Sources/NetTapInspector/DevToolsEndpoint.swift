import Foundation
import NetTapCore

/// The Chrome DevTools Protocol face of the inspector: the discovery endpoints Chrome's `chrome://inspect` reads
/// (`/json/version`, `/json/list`, `/json`), one target, and its WebSocket at an unguessable path.
///
/// Messages are CDP commands, `{"id": 1, "method": "Network.enable", "params": {}}`; each gets its answer with the
/// same id: from ``handler`` when it knows the method, else an empty result, so a frontend never waits. Text that
/// is not a command gets the JSON-RPC error CDP uses (-32700 parse error, -32600 invalid request).
///
/// Thread safety: every member may be used from any thread; commands run on the server's queue.
package final class DevToolsEndpoint: InspectorEndpoint, Sendable {
    /// A command's answer.
    package enum Answer {
        /// The result object.
        case result([String: Any])
        /// A CDP error: -32000 for a server error, -32602 for invalid params.
        case error(code: Int, message: String)
    }

    /// Answers the commands it knows (`nil`: an empty result), and may send events after the answer with
    /// ``InspectorServer/send(_:to:)``: they are queued behind it.
    package typealias Handler = @Sendable (_ method: String, _ params: [String: Any], _ client: Int) -> Answer?

    /// Called after a command's answer was queued, for the events that follow it (`Network.enable`'s replay).
    package typealias FollowUp = @Sendable (_ method: String, _ client: Int, _ server: InspectorServer) -> Void

    /// The target's id, also the secret part of its WebSocket path.
    package let targetID: String
    /// The target's title in `chrome://inspect`.
    package let title: String
    /// The target's description in `/json/list`.
    package let targetDescription: String
    private let handler: Handler
    private let followUp: FollowUp
    private let left: @Sendable (Int) -> Void
    private let page: (any InspectorPage)?
    private let clients = Locked(Set<Int>())

    /// Creates the endpoint.
    ///
    /// - Parameters:
    ///   - title: The title shown for the target.
    ///   - description: The target's description in `/json/list`.
    ///   - targetID: The id and WebSocket path secret; 128 random bits by default.
    ///   - handler: Answers known commands.
    ///   - followUp: Sends what follows an answer.
    ///   - disconnected: Told when a client went away or was dropped.
    ///   - page: Answers the paths it serves (the control page) before the discovery endpoints.
    package init(
        title: String,
        description: String = "NetTap: the app's URLSession traffic",
        targetID: String = DevToolsEndpoint.randomID(),
        handler: @escaping Handler = { _, _, _ in nil },
        followUp: @escaping FollowUp = { _, _, _ in },
        disconnected: @escaping @Sendable (Int) -> Void = { _ in },
        page: (any InspectorPage)? = nil
    ) {
        self.title = title
        self.targetDescription = description
        self.targetID = targetID
        self.handler = handler
        self.followUp = followUp
        self.left = disconnected
        self.page = page
    }

    /// 32 lowercase hex digits from the system's random source.
    package static func randomID() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in String(format: "%08x", UInt32.random(in: 0...UInt32.max, using: &generator)) }
            .joined()
    }

    /// The clients connected now.
    package var connectedClients: Set<Int> { clients.withLock { $0 } }

    /// The WebSocket URL of the target, `ws://127.0.0.1:PORT/devtools/page/ID`.
    package func webSocketURL(on server: InspectorServer, authority: String? = nil) -> String {
        "ws://\(authority ?? "\(server.address):\(server.port)")/devtools/page/\(targetID)"
    }

    /// The URL to open in Chrome, Edge or Brave.
    package func frontendURL(on server: InspectorServer) -> String {
        Self.frontendURL(targetID: targetID, on: server)
    }

    /// The URL to open in Chrome, Edge or Brave for the target `targetID` of `server`.
    ///
    /// The frontend is `js_app.html`, DevTools for a target without a page (as Chrome opens it for Node): its
    /// Network panel takes the whole window, where `inspector.html` keeps most of it for a page's screencast.
    package static func frontendURL(targetID: String, on server: InspectorServer) -> String {
        frontendURL(socket: "\(server.address):\(server.port)/devtools/page/\(targetID)")
    }

    /// `devtools://devtools/bundled/js_app.html?ws=` and the WebSocket's address without its scheme.
    private static func frontendURL(socket: some StringProtocol) -> String {
        "devtools://devtools/bundled/js_app.html?ws=\(socket)"
    }

    package func reply(to head: HTTPRequestHead, server: InspectorServer) -> InspectorReply {
        if let page, let reply = page.reply(to: head, server: server) { return reply }
        guard head.method == "GET" || head.method == "HEAD" else {
            return .response(status: 405, contentType: "text/plain; charset=utf-8", body: Array("GET only\n".utf8))
        }
        let authority = head.authority ?? "\(server.address):\(server.port)"
        switch head.path {
        case "/json/version":
            return json([
                "Browser": "NetTap", "Protocol-Version": "1.3", "User-Agent": "NetTap",
                "webSocketDebuggerUrl": webSocketURL(on: server, authority: authority),
            ])
        case "/json", "/json/list":
            return json([target(on: server, authority: authority)])
        case "/devtools/page/\(targetID)" where WebSocketHandshake.isUpgrade(head):
            return .webSocket { [clients] client in clients.withLock { _ = $0.insert(client) } }
        default:
            return .response(status: 404, contentType: "text/plain; charset=utf-8", body: Array("not found\n".utf8))
        }
    }

    package func received(_ text: String, from client: Int, server: InspectorServer) {
        let (answer, method) = Self.answer(to: text, client: client, handler: handler)
        server.send(answer, to: client)
        if let method { followUp(method, client, server) }
    }

    package func disconnected(_ client: Int, server: InspectorServer) {
        clients.withLock { _ = $0.remove(client) }
        left(client)
    }

    /// The answer to one message, and the command's method when it was one.
    static func answer(to text: String, client: Int, handler: Handler) -> (String, method: String?) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) else {
            return (encode(["id": NSNull(), "error": ["code": -32700, "message": "Parse error"]]), nil)
        }
        guard let command = object as? [String: Any], let id = command["id"] as? Int,
            let method = command["method"] as? String
        else {
            return (encode(["id": NSNull(), "error": ["code": -32600, "message": "Invalid request"]]), nil)
        }
        let params = command["params"] as? [String: Any] ?? [:]
        switch handler(method, params, client) {
        case .error(let code, let message):
            return (encode(["id": id, "error": ["code": code, "message": message]]), method)
        case .result(let result):
            return (encode(["id": id, "result": result]), method)
        case nil:
            return (encode(["id": id, "result": [String: Any]()]), method)
        }
    }

    private func target(on server: InspectorServer, authority: String) -> [String: Any] {
        let socket = webSocketURL(on: server, authority: authority)
        return [
            "description": targetDescription, "id": targetID, "title": title, "type": "node",
            "url": "nettap://\(title)", "webSocketDebuggerUrl": socket,
            "devtoolsFrontendUrl": Self.frontendURL(socket: socket.dropFirst("ws://".count)),
            "faviconUrl": "",
        ]
    }

    private func json(_ object: Any) -> InspectorReply {
        .response(status: 200, contentType: "application/json; charset=UTF-8", body: Array(Self.encode(object).utf8))
    }

    /// The JSON text of a message; keys sorted unless `sortsKeys` is `false` (events: Foundation sorts keys with
    /// ICU collation, half of an event's encoding time on Linux).
    package static func encode(_ object: Any, sortsKeys: Bool = true) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: sortsKeys ? [.sortedKeys] : [])
        else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}
