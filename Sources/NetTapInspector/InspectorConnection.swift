import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One client of the inspector server: reads a request head, answers it or upgrades to a WebSocket, and writes
/// through a bounded outbox so that a slow client never holds up the app (it is dropped instead).
///
/// Thread safety: every member runs on the server's serial queue (`@unchecked Sendable` for that reason).
final class InspectorConnection: @unchecked Sendable {
    /// What the connection is reading.
    private enum Mode {
        case head(HTTPRequestParser)
        case webSocket(WebSocketFrameDecoder)
        case closing
    }

    let descriptor: Int32
    let id: Int
    private let queue: DispatchQueue
    private let outboxLimit: Int
    private var mode = Mode.head(HTTPRequestParser())
    private var outbox: [UInt8] = []
    private var closesWhenWritten = false
    private var readSource: (any DispatchSourceRead)?
    private var writeSource: (any DispatchSourceWrite)?
    private var isWriteSourceRunning = false
    /// Sources made on the descriptor whose cancel handler has not run yet: the descriptor is closed only after
    /// the last one (see ``close(dropped:)``).
    private var liveSources = 0
    private(set) var isClosed = false
    /// Called with the request head and the bytes that followed it (the first frames of an upgrade); answers it.
    var onHead: ((HTTPRequestHead, [UInt8], InspectorConnection) -> Void)?
    /// Called with each text message of an upgraded connection.
    var onText: ((String, InspectorConnection) -> Void)?
    /// Called once when the connection closes; `dropped` when it was closed for falling behind.
    var onClose: ((InspectorConnection, _ dropped: Bool) -> Void)?

    init(descriptor: Int32, id: Int, queue: DispatchQueue, outboxLimit: Int) {
        self.descriptor = descriptor
        self.id = id
        self.queue = queue
        self.outboxLimit = outboxLimit
    }

    /// Starts reading.
    func start() {
        let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
        source.setEventHandler { [weak self] in self?.readAvailable() }
        watch(source)
        readSource = source
        source.resume()
    }

    /// Sends an HTTP response and closes once it is written.
    func respond(_ head: HTTPResponseHead, body: [UInt8] = []) {
        send(head.bytes + body)
        closeWhenWritten()
    }

    /// Answers the upgrade and reads WebSocket frames from now on, starting with `remainder`.
    func upgrade(_ response: HTTPResponseHead, remainder: [UInt8]) {
        send(response.bytes)
        mode = .webSocket(WebSocketFrameDecoder())
        if !remainder.isEmpty { handleFrames(remainder) }
    }

    /// Sends a text message; a client whose outbox would exceed its limit is dropped.
    func send(text: String) {
        guard case .webSocket = mode else { return }
        send(WebSocketFrameEncoder.text(text))
    }

    /// Closes at once.
    ///
    /// The peer sees the end now (`shutdown(2)`); the descriptor itself is closed when its sources' cancel
    /// handlers ran. Closed earlier, its number could be reused by the next accepted connection
    /// while libdispatch still has the old registration: the new connection's read source then never fires
    /// (seen on Linux: a request left unread in the socket for good).
    func close(dropped: Bool = false) {
        guard !isClosed else { return }
        isClosed = true
        mode = .closing
        #if canImport(Glibc)
        _ = shutdown(descriptor, Int32(SHUT_RDWR))
        #else
        _ = shutdown(descriptor, SHUT_RDWR)
        #endif
        readSource?.cancel()
        if let writeSource {
            if !isWriteSourceRunning { writeSource.resume() }
            writeSource.cancel()
        }
        if liveSources == 0 { closeDescriptor() }
        onClose?(self, dropped)
        onHead = nil
        onText = nil
        onClose = nil
    }

    /// Counts `source` until its cancel handler runs; the last one closes the descriptor.
    private func watch(_ source: any DispatchSourceProtocol) {
        liveSources += 1
        source.setCancelHandler { [self] in
            liveSources -= 1
            if liveSources == 0 { closeDescriptor() }
        }
    }

    private func closeDescriptor() {
        #if canImport(Glibc)
        _ = Glibc.close(descriptor)
        #else
        _ = Darwin.close(descriptor)
        #endif
    }

    private func closeWhenWritten() {
        closesWhenWritten = true
        if outbox.isEmpty { close() }
    }

    private func readAvailable() {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while !isClosed {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                handle(Array(chunk[..<count]))
            } else if count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
                close()
                return
            } else if errno != EINTR {
                return
            }
        }
    }

    private func handle(_ bytes: [UInt8]) {
        switch mode {
        case .head(var parser):
            do {
                let outcome = try parser.consume(bytes)
                mode = .head(parser)
                if case .head(let head, let remainder) = outcome {
                    mode = .closing
                    onHead?(head, remainder, self)
                }
            } catch {
                mode = .closing
                let body = Array("\(error.description)\n".utf8)
                respond(.closing(error.status, "text/plain; charset=utf-8", count: body.count), body: body)
            }
        case .webSocket:
            handleFrames(bytes)
        case .closing:
            break
        }
    }

    private func handleFrames(_ bytes: [UInt8]) {
        guard case .webSocket(var decoder) = mode else { return }
        do {
            let messages = try decoder.consume(bytes)
            mode = .webSocket(decoder)
            for message in messages where !isClosed { answer(message) }
        } catch {
            mode = .closing
            send(WebSocketFrameEncoder.close(code: error.closeCode, reason: error.reason))
            closeWhenWritten()
        }
    }

    private func answer(_ message: WebSocketMessage) {
        switch message {
        case .text(let text): onText?(text, self)
        case .ping(let payload): send(WebSocketFrameEncoder.pong(payload))
        case .close(let code, _):
            mode = .closing
            send(WebSocketFrameEncoder.close(code: code ?? 1000))
            closeWhenWritten()
        case .binary, .pong: break
        }
    }

    /// Queues bytes and writes what the socket takes now.
    private func send(_ bytes: [UInt8]) {
        guard !isClosed else { return }
        outbox += bytes
        guard outbox.count <= outboxLimit else {
            close(dropped: true)
            return
        }
        flush()
    }

    private func flush() {
        while !outbox.isEmpty {
            let written = outbox.withUnsafeBytes { Self.write($0, to: descriptor) }
            if written > 0 {
                outbox.removeFirst(written)
            } else if written < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                waitUntilWritable()
                return
            } else if written < 0 && errno == EINTR {
                continue
            } else {
                close()
                return
            }
        }
        if isWriteSourceRunning, let writeSource {
            writeSource.suspend()
            isWriteSourceRunning = false
        }
        if closesWhenWritten { close() }
    }

    /// `send(2)` without SIGPIPE for a peer that went away (Linux: `MSG_NOSIGNAL`; Apple: `SO_NOSIGPIPE`, set
    /// when the connection was accepted).
    private static func write(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Int {
        #if canImport(Glibc)
        Glibc.send(descriptor, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
        #else
        Darwin.send(descriptor, bytes.baseAddress, bytes.count, 0)
        #endif
    }

    private func waitUntilWritable() {
        if writeSource == nil {
            let source = DispatchSource.makeWriteSource(fileDescriptor: descriptor, queue: queue)
            source.setEventHandler { [weak self] in self?.flush() }
            watch(source)
            writeSource = source
        }
        if !isWriteSourceRunning, let writeSource {
            writeSource.resume()
            isWriteSourceRunning = true
        }
    }
}
