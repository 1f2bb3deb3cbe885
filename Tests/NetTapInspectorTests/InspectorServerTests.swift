import Foundation
import NetTapInspector
import NetTapTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Serialized: its sync tests block on socket reads, and two at once would hold both threads of CI's cooperative pool.
@Suite(
    "Inspector server: discovery endpoints, the DevTools WebSocket, and the security rules on real sockets",
    .serialized
)
struct InspectorServerTests {
    private func start(
        policy: InspectorRequestPolicy = InspectorRequestPolicy(),
        outboxLimit: Int = 8 * 1024 * 1024,
        dropped: @escaping @Sendable (Int) -> Void = { _ in }
    ) throws -> (InspectorServer, DevToolsEndpoint) {
        let endpoint = DevToolsEndpoint(title: "Tests") { method, _, _ in
            method == "Runtime.evaluate" ? .result(["result": ["type": "undefined"]]) : nil
        }
        let server = try InspectorServer(
            policy: policy,
            outboxLimit: outboxLimit,
            endpoint: endpoint,
            clientDropped: dropped
        )
        return (server, endpoint)
    }

    private func upgrade(path: String, port: Int, origin: String? = "devtools://devtools") -> String {
        "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
            + (origin.map { "Origin: \($0)\r\n" } ?? "")
            + "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
    }

    @Test(
        "short requests to several servers at once are each answered: a descriptor one server closed, reused by another, still gets read",
        .timeLimit(.minutes(1))
    )
    func manyShortConnections() async throws {
        let servers = try (0..<4).map { _ in try start().0 }
        defer { for server in servers { server.stop() } }
        // Before the fix (a descriptor closed before its Dispatch source's cancellation ran), the next connection
        // given the same number, on another server's queue, could be left unread in its socket for good.
        let answered = try await withThrowingTaskGroup(of: Int.self) { group in
            for server in servers {
                let url = try #require(URL(string: "http://127.0.0.1:\(server.port)/json/version"))
                group.addTask {
                    let session = URLSession(configuration: .ephemeral)
                    var count = 0
                    for _ in 0..<100 {
                        let (_, response) = try await session.data(from: url)
                        if (response as? HTTPURLResponse)?.statusCode == 200 { count += 1 }
                    }
                    return count
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(answered == 400)
    }

    @Test("/json/version and /json/list answer as Chrome's chrome://inspect expects, through URLSession")
    func discovery() async throws {
        let (server, endpoint) = try start()
        defer { server.stop() }
        let session = URLSession(configuration: .ephemeral)
        let base = "http://127.0.0.1:\(server.port)"
        let (versionData, versionResponse) = try await session.data(
            from: try #require(URL(string: base + "/json/version"))
        )
        #expect((versionResponse as? HTTPURLResponse)?.statusCode == 200)
        #expect(
            (versionResponse as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type")?.hasPrefix(
                "application/json"
            ) == true
        )
        let version = try #require(try JSONSerialization.jsonObject(with: versionData) as? [String: Any])
        #expect(version["Protocol-Version"] as? String == "1.3")
        #expect(
            version["webSocketDebuggerUrl"] as? String
                == "ws://127.0.0.1:\(server.port)/devtools/page/\(endpoint.targetID)"
        )
        for path in ["/json", "/json/list"] {
            let (data, _) = try await session.data(from: try #require(URL(string: base + path)))
            let targets = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
            #expect(targets.count == 1)
            #expect(targets.first?["id"] as? String == endpoint.targetID)
            #expect(targets.first?["title"] as? String == "Tests")
            #expect(
                (targets.first?["devtoolsFrontendUrl"] as? String)?.hasPrefix(
                    "devtools://devtools/bundled/js_app.html?ws=127.0.0.1:"
                ) == true
            )
        }
        let (_, missing) = try await session.data(from: try #require(URL(string: base + "/nothing")))
        #expect((missing as? HTTPURLResponse)?.statusCode == 404)
        #expect(endpoint.targetID.count == 32)
        #expect(
            endpoint.frontendURL(on: server)
                == "devtools://devtools/bundled/js_app.html?ws=127.0.0.1:\(server.port)/devtools/page/\(endpoint.targetID)"
        )
    }

    @Test("a DevTools client: 101, every command answered with its id (empty result when unknown), ping, close")
    func webSocketSession() throws {
        let (server, endpoint) = try start()
        defer { server.stop() }
        let client = try TestSocket(port: server.port)
        try client.write(upgrade(path: "/devtools/page/\(endpoint.targetID)", port: server.port))
        let head = try client.readHead()
        #expect(head.hasPrefix("HTTP/1.1 101 Switching Protocols\r\n"))
        #expect(head.contains("Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n"))
        _ = client.take()
        try client.write(
            ClientMasking.mask(WebSocketFrameEncoder.text(#"{"id":1,"method":"Network.enable","params":{}}"#))
        )
        var frame = try client.readFrame()
        #expect(frame.opcode == 1)
        #expect(String(decoding: frame.payload, as: UTF8.self) == #"{"id":1,"result":{}}"#)
        try client.write(ClientMasking.mask(WebSocketFrameEncoder.text(#"{"id":2,"method":"Runtime.evaluate"}"#)))
        frame = try client.readFrame()
        #expect(String(decoding: frame.payload, as: UTF8.self) == #"{"id":2,"result":{"result":{"type":"undefined"}}}"#)
        try client.write(ClientMasking.mask(WebSocketFrameEncoder.text("not json")))
        frame = try client.readFrame()
        #expect(String(decoding: frame.payload, as: UTF8.self).contains("-32700"))
        try client.write(ClientMasking.mask(WebSocketFrameEncoder.ping([7, 8])))
        frame = try client.readFrame()
        #expect(frame.opcode == 0xA)
        #expect(frame.payload == [7, 8])
        #expect(endpoint.connectedClients.count == 1)
        try client.write(ClientMasking.mask(WebSocketFrameEncoder.close(code: 1000)))
        frame = try client.readFrame()
        #expect(frame.opcode == 0x8)
        #expect(frame.payload == [0x03, 0xE8])
        _ = try client.readToEnd()
    }

    @Test("DNS rebinding: a Host that is not loopback is refused with 403, for requests and upgrades alike")
    func hostMustBeLoopback() throws {
        let (server, endpoint) = try start()
        defer { server.stop() }
        for host in ["evil.example", "evil.example:\(server.port)", "127.0.0.1.evil.example", "10.0.0.1"] {
            let client = try TestSocket(port: server.port)
            try client.write("GET /json/version HTTP/1.1\r\nHost: \(host)\r\n\r\n")
            #expect(try client.readToEnd().hasPrefix("HTTP/1.1 403 Forbidden\r\n"), "\(host)")
        }
        let client = try TestSocket(port: server.port)
        try client.write(
            upgrade(path: "/devtools/page/\(endpoint.targetID)", port: server.port)
                .replacingOccurrences(of: "Host: 127.0.0.1:\(server.port)", with: "Host: attacker.example")
        )
        #expect(try client.readToEnd().hasPrefix("HTTP/1.1 403 Forbidden\r\n"))
        for host in ["localhost:\(server.port)", "127.0.0.1", "[::1]:\(server.port)", "127.1.2.3:1"] {
            #expect(InspectorRequestPolicy.isLoopback(authority: host), "\(host)")
        }
        for host in ["[::2]", "127.0.0.1:99999", "localhost.", "127.0.0.256", ""] {
            #expect(!InspectorRequestPolicy.isLoopback(authority: host), "\(host)")
        }
    }

    @Test(
        "a web page cannot open the WebSocket: an Origin that is not a DevTools frontend is refused; a guessed path is 404"
    )
    func originMustBeDevTools() throws {
        let (server, endpoint) = try start(policy: InspectorRequestPolicy(allowedOrigins: ["http://127.0.0.1:9222"]))
        defer { server.stop() }
        let path = "/devtools/page/\(endpoint.targetID)"
        for origin in ["http://evil.example", "null", "https://devtools.example", "http://127.0.0.1.evil.example:80"] {
            let client = try TestSocket(port: server.port)
            try client.write(upgrade(path: path, port: server.port, origin: origin))
            let answer = try client.readToEnd()
            #expect(answer.hasPrefix("HTTP/1.1 403 Forbidden\r\n"), "\(origin)")
            #expect(answer.contains("DevTools frontends only"))
        }
        for origin in ["devtools://devtools", "http://127.0.0.1:9222", "http://localhost:9333", nil] as [String?] {
            let client = try TestSocket(port: server.port)
            try client.write(upgrade(path: path, port: server.port, origin: origin))
            #expect(try client.readHead().hasPrefix("HTTP/1.1 101 "), "\(origin ?? "no Origin")")
        }
        let guessed = try TestSocket(port: server.port)
        try guessed.write(upgrade(path: "/devtools/page/0123", port: server.port))
        #expect(try guessed.readToEnd().hasPrefix("HTTP/1.1 404 Not Found\r\n"))
    }

    @Test("malformed HTTP and WebSocket input closes that connection only; the server serves the next one")
    func malformedInput() throws {
        let (server, endpoint) = try start()
        defer { server.stop() }
        let bad = try TestSocket(port: server.port)
        try bad.write("GET / HTTP/1.1\r\nHost : a\r\n\r\n")
        let refusal = try bad.readToEnd()
        #expect(refusal.hasPrefix("HTTP/1.1 400 Bad Request\r\n"))
        // The body says why, in the parser's words.
        #expect(refusal.contains("\r\n\r\nline 2: "), "\(refusal)")
        let session = try TestSocket(port: server.port)
        try session.write(upgrade(path: "/devtools/page/\(endpoint.targetID)", port: server.port))
        _ = try session.readHead()
        _ = session.take()
        try session.write([0x81, 0x05] + Array("Hello".utf8))  // unmasked: a protocol error
        let frame = try session.readFrame()
        #expect(frame.opcode == 0x8)
        #expect(frame.payload.prefix(2) == [0x03, 0xEA], "1002")
        _ = try session.readToEnd()
        let good = try TestSocket(port: server.port)
        try good.write("GET /json/version HTTP/1.1\r\nHost: localhost\r\n\r\n")
        #expect(try good.readToEnd().hasPrefix("HTTP/1.1 200 OK\r\n"))
    }

    @Test("a port in use is a clear error naming it; a bad address too")
    func portInUse() throws {
        let (server, _) = try start()
        defer { server.stop() }
        #expect {
            _ = try InspectorServer(port: server.port, endpoint: DevToolsEndpoint(title: "second"))
        } throws: { error in
            "\(error)".contains("127.0.0.1:\(server.port)") && "\(error)".contains("EADDRINUSE")
        }
        #expect {
            _ = try InspectorServer(address: "localhost", endpoint: DevToolsEndpoint(title: "x"))
        } throws: { error in
            "\(error)".contains("localhost is not an IPv4 address")
        }
    }

    @Test("a client that stops reading is dropped once its outbox is over the limit, and counted")
    func slowClientDropped() async throws {
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        let (server, endpoint) = try start(outboxLimit: 64 * 1024) { continuation.yield($0) }
        defer { server.stop() }
        let request = upgrade(path: "/devtools/page/\(endpoint.targetID)", port: server.port)
        // Blocking socket calls off Swift's cooperative pool, whose threads the wait below needs.
        let client = try await offThePool {
            let client = try TestSocket(port: server.port)
            try client.write(request)
            _ = try client.readHead()
            return client
        }
        let id = try #require(endpoint.connectedClients.first)
        let message = String(repeating: "x", count: 60_000)
        // The client never reads: the kernel's buffers fill, then the outbox.
        for _ in 0..<2_000 { server.send(message, to: id) }
        let first = await withDeadline(.seconds(30)) {
            var iterator = stream.makeAsyncIterator()
            return await iterator.next()
        }
        #expect(first == id, "no client was dropped within 30 s")
        #expect(server.droppedClientCount == 1)
        #expect(endpoint.connectedClients.isEmpty)
        _ = client
    }
}
