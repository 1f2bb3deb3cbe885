import Foundation
import NetTapCore
import NetTapInspector

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#endif

/// An optional scenario (`--only inspector`, about a minute): what a connected DevTools costs forwarded traffic.
///
/// - Rate: small GETs, 16 in flight, through one interceptor, alternating rounds without an inspector and with one
///   started and a DevTools client connected that enabled the Network domain and reads every event; requests per
///   second, median of the rounds (target: with DevTools ≥ 0.95 × without).
/// - 100 requests per second for 5 s, without DevTools and with it connected: the median latency (target: with
///   DevTools ≤ 1.05 × without) and every request's `loadingFinished` read by the client.
///
/// At saturation the rate is information: DevTools' events then cost CPU the forwarding would use, and a client
/// the server cannot keep up with is dropped and counted rather than allowed to hold up traffic.
struct InspectorBench {
    /// The small resource's URL.
    let url: URL
    /// Its expected body.
    let body: Data
    /// Rounds of each kind.
    let rounds: Int
    /// Requests per round.
    let count: Int

    /// Runs the rounds and the paced load.
    /// - Returns: The rate row (target ≥ 0.95) and the paced run's delivery row.
    /// - Throws: ``BenchError`` for a wrong body or an inspector that cannot start.
    func run() async throws -> [Row] {
        let interceptor = NetTapInterceptor()
        interceptor.captureLog.capacity = 100
        let session = interceptor.makeSession()
        defer { session.finishTasksAndInvalidate() }
        _ = try await load(count: 200, on: session)  // warm-up: connections, caches
        var without: [Double] = []
        var with: [Double] = []
        for round in 0..<rounds {
            without.append(try await load(count: count, on: session))
            let (inspector, client) = try await connect(interceptor)
            with.append(try await load(count: count, on: session))
            Log.detail(
                "inspector round \(round + 1): \(Report.format(without.last ?? 0, decimals: 0)) req/s without, "
                    + "\(Report.format(with.last ?? 0, decimals: 0)) with DevTools (\(client.finishedCount) events "
                    + "read, \(inspector.droppedClientCount) dropped)"
            )
            inspector.stop()
            client.close()
        }
        let plain = try await pacedLatencies(on: session)
        let (inspector, client) = try await connect(interceptor)
        let shown = try await pacedLatencies(on: session)
        let delivered = await client.waitForFinished(atLeast: shown.count, within: .seconds(10))
        Log.detail(
            "inspector at 100 req/s: \(shown.count) requests, \(delivered) loadingFinished events read (the replay "
                + "included), \(inspector.droppedClientCount) clients dropped"
        )
        inspector.stop()
        client.close()
        return [
            Row(
                figure: "small GETs, 16 in flight, DevTools connected (req/s)",
                direct: Stats(without).median,
                nettap: Stats(with).median,
                decimals: 0,
                comparison: .ratio,
                target: nil,
                via: "with DevTools"
            ),
            Row(
                figure: "100 req/s for 5 s: median latency (µs)",
                direct: Stats(plain).median,
                nettap: Stats(shown).median,
                decimals: 0,
                comparison: .ratio,
                target: .ratioAtMost(1.05),
                via: "with DevTools"
            ),
            Row(
                figure: "100 req/s for 5 s: loadingFinished events read",
                direct: Double(shown.count),
                nettap: Double(delivered),
                decimals: 0,
                comparison: .ratio,
                target: .ratioAtLeast(1),
                via: "DevTools"
            ),
        ]
    }

    /// Starts an inspector and connects a client that enables the Network domain.
    private func connect(_ interceptor: NetTapInterceptor) async throws -> (DevToolsInspector, BenchDevToolsClient) {
        let inspector: DevToolsInspector
        do {
            inspector = try interceptor.startInspector()
        } catch {
            throw BenchError("inspector: \(error)")
        }
        let socket = inspector.devToolsURL.components(separatedBy: "ws=").last ?? ""
        let path = socket.drop { $0 != "/" }
        let client = try BenchDevToolsClient(port: inspector.port, path: String(path))
        try client.send(#"{"id":1,"method":"Network.enable","params":{}}"#)
        return (inspector, client)
    }

    /// `count` GETs with 16 in flight; requests per second.
    private func load(count: Int, on session: URLSession) async throws -> Double {
        let start = ContinuousClock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            var next = 0
            func add() {
                guard next < count else { return }
                next += 1
                group.addTask { try await get(on: session) }
            }
            for _ in 0..<16 { add() }
            while try await group.next() != nil { add() }
        }
        let elapsed = ContinuousClock.now - start
        return Double(count) / (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }

    private func get(on session: URLSession) async throws {
        let (data, _) = try await session.data(from: url)
        guard data == body else { throw BenchError("inspector: wrong body (\(data.count) bytes)") }
    }

    /// 500 GETs started 10 ms apart (100 per second for 5 s); each one's latency in microseconds.
    private func pacedLatencies(on session: URLSession) async throws -> [Double] {
        let start = ContinuousClock.now
        return try await withThrowingTaskGroup(of: Double.self) { group in
            for index in 0..<500 {
                try await Task.sleep(until: start + .milliseconds(10 * index), clock: .continuous)
                group.addTask {
                    let sent = ContinuousClock.now
                    try await get(on: session)
                    let elapsed = ContinuousClock.now - sent
                    return Double(elapsed.components.seconds) * 1e6 + Double(elapsed.components.attoseconds) / 1e12
                }
            }
            var latencies: [Double] = []
            for try await latency in group { latencies.append(latency) }
            return latencies
        }
    }
}

/// A DevTools client for the benchmark: the WebSocket handshake, one masked text frame, and a thread that reads
/// (and counts `Network.loadingFinished` in) everything the inspector sends.
final class BenchDevToolsClient: @unchecked Sendable {
    private let descriptor: Int32
    private let finished = Locked(0)

    /// The `Network.loadingFinished` events read so far.
    var finishedCount: Int { finished.withLock { $0 } }

    init(port: Int, path: String) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw BenchError("inspector: cannot connect to 127.0.0.1:\(port)") }
        let request =
            "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
            + "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
        try write(Array(request.utf8))
        Thread { [self] in readAll() }.start()
    }

    /// Sends a masked text frame (RFC 6455 §5.3; payloads under 126 bytes).
    func send(_ text: String) throws {
        let payload = Array(text.utf8)
        let key: [UInt8] = [0x12, 0x34, 0x56, 0x78]
        let masked = payload.enumerated().map { $0.element ^ key[$0.offset % 4] }
        try write([0x81, 0x80 | UInt8(payload.count)] + key + masked)
    }

    /// Waits until `count` events were read, or `limit` passed; returns how many were.
    func waitForFinished(atLeast count: Int, within limit: Duration) async -> Int {
        let deadline = ContinuousClock.now + limit
        while finishedCount < count, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        return finishedCount
    }

    func close() {
        shutdown(descriptor, Int32(SHUT_RDWR))
    }

    private func write(_ bytes: [UInt8]) throws {
        let sent = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == bytes.count else { throw BenchError("inspector: the client could not write") }
    }

    private func readAll() {
        let needle = Array("Network.loadingFinished".utf8)
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var tail: [UInt8] = []
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            let window = tail + buffer[..<count]
            var found = 0
            var index = 0
            while index + needle.count <= window.count {
                if window[index] == needle[0], Array(window[index..<(index + needle.count)]) == needle {
                    found += 1
                    index += needle.count
                } else {
                    index += 1
                }
            }
            finished.withLock { $0 += found }
            tail = Array(window.suffix(needle.count - 1))
        }
        Glibc.close(descriptor)
    }
}
