import Dispatch
import Foundation
import NetTapCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the inspector server serves: answers to plain requests, and the WebSocket sessions it accepts.
package protocol InspectorEndpoint: AnyObject, Sendable {
    /// The answer to a request the policy let in; called on the server's queue.
    func reply(to head: HTTPRequestHead, server: InspectorServer) -> InspectorReply
    /// A text message from an upgraded client; answer with ``InspectorServer/send(_:to:)``.
    func received(_ text: String, from client: Int, server: InspectorServer)
    /// An upgraded client went away (or was dropped).
    func disconnected(_ client: Int, server: InspectorServer)
}

/// An endpoint's answer to a request.
package enum InspectorReply: Sendable {
    /// A response with a body of the given type, and header fields besides the server's own (`Content-Type`,
    /// `Content-Length`, `Cache-Control: no-store`, `Connection: close`).
    case response(status: Int, contentType: String, body: [UInt8], fields: [(name: String, value: String)] = [])
    /// Accept the WebSocket upgrade (the handshake is checked by the server); the new client's id is passed to
    /// the closure, on the server's queue, before any of its messages.
    case webSocket(accepted: @Sendable (Int) -> Void)
}

/// An HTTP/1.1 and WebSocket server on POSIX sockets and Dispatch, for the inspector: one serial queue, a
/// bounded outbox per client (a client that falls more than ``outboxLimit`` bytes behind is dropped and counted),
/// and the ``InspectorRequestPolicy`` applied before the endpoint sees a request.
///
/// Thread safety: every member may be used from any thread; connections are served on the server's queue.
package final class InspectorServer: @unchecked Sendable {
    /// The port it listens on.
    package let port: Int
    /// The address it listens on.
    package let address: String
    /// The most bytes a client may have waiting to be written before it is dropped.
    package let outboxLimit: Int
    private let listener: ListeningSocket
    private let queue = DispatchQueue(label: "NetTap.inspector")
    private let policy: InspectorRequestPolicy
    private let endpoint: any InspectorEndpoint
    private var acceptSource: (any DispatchSourceRead)?
    // Touched only on `queue`.
    private var connections: [Int: InspectorConnection] = [:]
    private var nextID = 1
    private let counters = Locked((dropped: 0, clients: 0))
    /// Bytes of messages each client has waiting for the queue.
    private let queued = Locked<[Int: Int]>([:])
    private let clientDropped: @Sendable (Int) -> Void

    /// Starts listening and serving.
    ///
    /// - Parameters:
    ///   - address: The IPv4 address to bind; `127.0.0.1` by default.
    ///   - port: The port; 0 (the default) for a free one.
    ///   - policy: Which requests are let in.
    ///   - outboxLimit: Bytes a client may fall behind; 8 MiB by default.
    ///   - endpoint: What is served.
    ///   - clientDropped: Called (on the server's queue) with the id of each client dropped for falling behind.
    /// - Throws: ``InspectorError`` naming the address and port when it cannot listen.
    package init(
        address: String = "127.0.0.1",
        port: Int = 0,
        policy: InspectorRequestPolicy = InspectorRequestPolicy(),
        outboxLimit: Int = 8 * 1024 * 1024,
        endpoint: any InspectorEndpoint,
        clientDropped: @escaping @Sendable (Int) -> Void = { _ in }
    ) throws(InspectorError) {
        self.clientDropped = clientDropped
        listener = try ListeningSocket(address: address, port: port)
        self.address = address
        self.port = listener.port
        self.policy = policy
        self.outboxLimit = outboxLimit
        self.endpoint = endpoint
        let source = DispatchSource.makeReadSource(fileDescriptor: listener.descriptor, queue: queue)
        source.setEventHandler { [weak self] in self?.acceptAll() }
        source.setCancelHandler { [descriptor = listener.descriptor] in _ = close(descriptor) }
        acceptSource = source
        source.resume()
    }

    /// How many clients were dropped for falling behind.
    package var droppedClientCount: Int { counters.withLock { $0.dropped } }

    /// How many connections are open.
    package var openConnectionCount: Int { counters.withLock { $0.clients } }

    /// Sends a text message to an upgraded client; nothing when it is gone.
    ///
    /// The bytes waiting for the server's queue count against the client's ``outboxLimit`` with those waiting
    /// in its outbox: a client the server cannot serve as fast as the app makes events is dropped (and counted)
    /// instead of letting the queue grow.
    package func send(_ text: String, to client: Int) {
        let size = text.utf8.count
        let isOverLimit = queued.withLock { queued -> Bool in
            let total = (queued[client] ?? 0) + size
            guard total <= outboxLimit else { return true }
            queued[client] = total
            return false
        }
        guard !isOverLimit else {
            queue.async { [self] in connections[client]?.close(dropped: true) }
            return
        }
        queue.async { [self] in
            queued.withLock { $0[client] = max(0, ($0[client] ?? 0) - size) }
            connections[client]?.send(text: text)
        }
    }

    /// Stops listening and closes every connection; waits until that is done.
    package func stop() {
        queue.sync {
            acceptSource?.cancel()
            acceptSource = nil
            for connection in connections.values { connection.close() }
            connections = [:]
        }
    }

    deinit {
        acceptSource?.cancel()
    }

    private func acceptAll() {
        while true {
            let descriptor = accept(listener.descriptor, nil, nil)
            guard descriptor >= 0 else { return }
            ListeningSocket.makeNonBlocking(descriptor)
            #if canImport(Darwin)
            var yes: Int32 = 1
            setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
            #endif
            let connection = InspectorConnection(
                descriptor: descriptor,
                id: nextID,
                queue: queue,
                outboxLimit: outboxLimit
            )
            nextID += 1
            connection.onHead = { [weak self] head, remainder, connection in
                self?.serve(head, remainder: remainder, on: connection)
            }
            connection.onClose = { [weak self] connection, dropped in self?.closed(connection, dropped: dropped) }
            connections[connection.id] = connection
            counters.withLock { $0.clients += 1 }
            connection.start()
        }
    }

    private func closed(_ connection: InspectorConnection, dropped: Bool) {
        connections[connection.id] = nil
        queued.withLock { $0[connection.id] = nil }
        counters.withLock {
            $0.clients -= 1
            if dropped { $0.dropped += 1 }
        }
        endpoint.disconnected(connection.id, server: self)
        if dropped { clientDropped(connection.id) }
    }

    private func serve(_ head: HTTPRequestHead, remainder: [UInt8], on connection: InspectorConnection) {
        let isUpgrade = WebSocketHandshake.isUpgrade(head)
        if let refusal = policy.refusal(of: head, isUpgrade: isUpgrade) {
            connection.respond(
                HTTPResponseHead.closing(403, "text/plain; charset=utf-8", count: refusal.utf8.count + 1),
                body: Array((refusal + "\n").utf8)
            )
            return
        }
        switch endpoint.reply(to: head, server: self) {
        case .response(let status, let contentType, let body, let fields):
            var responseHead = HTTPResponseHead.closing(status, contentType, count: body.count)
            responseHead.fields += fields
            connection.respond(
                responseHead,
                body: head.method == "HEAD" ? [] : body
            )
        case .webSocket(let accepted):
            do {
                let response = try WebSocketHandshake.accept(head)
                connection.onText = { [weak self] text, connection in
                    guard let self else { return }
                    endpoint.received(text, from: connection.id, server: self)
                }
                accepted(connection.id)
                connection.upgrade(response, remainder: remainder)
            } catch {
                connection.respond(error.response, body: Array((error.reason + "\n").utf8))
            }
        }
    }
}
