import Foundation
import NetTapCore

/// A local HTTP/1.1 server on a free `127.0.0.1` port that misbehaves on demand: resets, empty replies, short,
/// stalled and long bodies, broken chunked encoding, garbage instead of a status line, silence, slowness, 10,000
/// headers, a 1 GiB body.
///
/// The server is `FaultServer.py` beside this file (Python standard library only), run under the same launcher
/// as ``HTTPBin`` (``PythonServerProcess``), so it dies with the test process. It binds port 0 and reports the
/// port on standard error; ``start(python:deadline:)`` waits for that line as an event. Every request is logged
/// when its head has been read, before the fault is acted out, in the httpbin access-log format
/// (`METHOD PATH QUERY STATUS X-TEST-ID`, STATUS being the status the fault claims, 0 when it sends none), so a
/// test can wait for "the server saw it".
///
/// ```swift
/// let server = try await FaultServer.shared()
/// var request = URLRequest(url: server.url(.shortBody))
/// request.timeoutInterval = 3
/// ```
///
/// Python is the one ``HTTPBin`` would use (`NETTAP_HTTPBIN_PYTHON`, the package's venv), else `python3` on the
/// `PATH`: no third-party package is needed.
///
/// Thread safety: every member may be used from any thread.
public final class FaultServer: Sendable {
    /// A way to misbehave, chosen by the request's path; the query parameters tune it.
    public enum Fault: String, CaseIterable, Sendable, CustomStringConvertible {
        /// A well-formed 200 with `length` (16) pattern bytes: the control case.
        case ok = "/ok"
        /// A well-formed 200 with `length` (16) pattern bytes in one chunk: `Transfer-Encoding: chunked`, no
        /// `Content-Length`.
        case chunked = "/chunked"
        /// A TCP reset before any byte of the response.
        case resetBeforeHeaders = "/reset-before-headers"
        /// A normal close (FIN) before any byte of the response: libcurl's "Empty reply from server".
        case emptyReply = "/empty-reply"
        /// Half a response head, then a TCP reset.
        case resetMidHeaders = "/reset-mid-headers"
        /// A head with `Content-Length: length` (1000), `sent` (400) body bytes, then a TCP reset.
        case resetMidBody = "/reset-mid-body"
        /// A head with `Content-Length: length` (1000), `sent` (400) body bytes, then a normal close (FIN).
        case shortBody = "/short-body"
        /// A head with `Content-Length: length` (1000), `sent` (400) body bytes, then silence until the client
        /// closes the connection.
        case stallMidBody = "/stall-mid-body"
        /// `Transfer-Encoding: chunked`, `sent` (400) body bytes in one chunk, then a normal close without the
        /// last chunk.
        case shortChunked = "/short-chunked"
        /// `Transfer-Encoding: chunked`, `sent` (400) body bytes in one chunk, then a TCP reset.
        case resetMidChunked = "/reset-mid-chunked"
        /// A head with `Content-Length: length` (10), `sent` (30) body bytes, then a normal close.
        case longBody = "/long-body"
        /// `Transfer-Encoding: chunked` with one good 5-byte chunk, then a chunk size that is not hexadecimal.
        case badChunked = "/bad-chunked"
        /// `SPAM AND EGGS` instead of a status line, a header, a blank line and a body, then a normal close.
        case garbageStatus = "/garbage-status"
        /// Reads the request and never answers; the connection stays open until the client closes it.
        case never = "/never"
        /// `Content-Length: count` (3), then one body byte every `interval` (1) seconds.
        case slow = "/slow"
        /// A 200 with `count` (10,000) header lines `X-Fault-N: value-N` and the 2-byte body `ok`.
        case manyHeaders = "/many-headers"
        /// A 200 with `size` (1 GiB) pattern bytes, generated while sending.
        case huge = "/huge"
        /// A 200 with the header `Set-Cookie: value` (`a=1`), sent as UTF-8, and the body `ok`.
        case setCookie = "/set-cookie"
        /// A 200 with the body `ok` on a connection the server keeps open (no `Connection: close`); when the
        /// client closes it, the log gets a line `CLOSE /keep-alive` with the request's test id and status 0.
        case keepAlive = "/keep-alive"

        /// The path, such as `/short-body`.
        public var description: String { rawValue }
    }

    /// The pattern's period: body byte `i` is `i % 251`.
    public static let patternPeriod = 251

    /// The TCP port on `127.0.0.1`.
    public let port: Int
    /// The server's root, such as `http://127.0.0.1:40123`.
    public let baseURL: URL
    private let server: PythonServerProcess

    private init(port: Int, server: PythonServerProcess) {
        self.port = port
        self.baseURL = URL(string: "http://127.0.0.1:\(port)") ?? URL(fileURLWithPath: "/")
        self.server = server
    }

    deinit {
        stop()
    }

    // MARK: - Shared instance

    /// Stopped at exit with every other ``PythonServerProcess`` still running.
    private static let sharedStart = Task { () throws -> FaultServer in try await FaultServer.start() }

    /// The server shared by every test in this process, started on first use and stopped at exit.
    ///
    /// - Returns: The running server.
    /// - Throws: ``HTTPBin/Failure`` when Python cannot be found or the server does not start.
    public static func shared() async throws -> FaultServer {
        try await sharedStart.value
    }

    // MARK: - Starting and stopping

    /// Starts a new server and waits until it reports its port.
    ///
    /// - Parameters:
    ///   - python: The interpreter; found as described in the type's documentation when `nil`.
    ///   - deadline: How long the start may take, 30 seconds by default.
    /// - Returns: The running server.
    /// - Throws: ``HTTPBin/Failure`` with the server's standard error when it exited or stayed silent.
    public static func start(python: URL? = nil, deadline: Duration = .seconds(30)) async throws -> FaultServer {
        let interpreter = try python ?? locatePython()
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("nettap-faults-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
        let process = try PythonServerProcess(python: interpreter, arguments: [script.path], directory: directory)
        let marker = "Listening at: http://127.0.0.1:"
        _ = await process.output.wait(timeout: deadline) { $0.hasEnded || $0.errorText.contains(marker) }
        let errorText = process.output.current.errorText
        guard let range = errorText.range(of: marker),
            let port = Int(errorText[range.upperBound...].prefix { $0.isNumber })
        else {
            process.stop()
            throw HTTPBin.Failure(
                description: "the fault server did not report its port within \(deadline):\n\(errorText)"
            )
        }
        return FaultServer(port: port, server: process)
    }

    /// Stops the server and waits up to 5 seconds for it to exit; calling it again does nothing.
    public func stop() {
        server.stop()
    }

    // MARK: - URLs, the request log, the pattern

    /// The URL of a fault, with optional query parameters.
    ///
    /// - Parameters:
    ///   - fault: The fault.
    ///   - parameters: Query parameters, such as `["size": "1048576"]` for ``Fault/huge``; written in key order.
    /// - Returns: The absolute URL.
    public func url(_ fault: Fault, _ parameters: [String: String] = [:]) -> URL {
        var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false)
        components?.path = fault.rawValue
        if !parameters.isEmpty {
            components?.queryItems = parameters.sorted { $0.key < $1.key }.map {
                URLQueryItem(name: $0.key, value: $0.value)
            }
        }
        return components?.url ?? baseURL
    }

    /// The requests logged so far that carried `X-Test-ID: id`.
    ///
    /// - Parameter id: The ``HTTPBin/testIDHeader`` value.
    /// - Returns: The matching lines, oldest first.
    public func requests(withTestID id: String) -> [HTTPBin.LogLine] {
        server.output.current.linesByTestID[id] ?? []
    }

    /// Waits until at least `count` requests with `X-Test-ID: id` are logged, or until `timeout` passes.
    ///
    /// - Parameters:
    ///   - id: The ``HTTPBin/testIDHeader`` value.
    ///   - count: How many lines to wait for.
    ///   - timeout: The longest wait; 10 seconds by default.
    /// - Returns: Every matching line, oldest first; fewer than `count` when the timeout passed first.
    public func waitForRequests(
        withTestID id: String,
        count: Int,
        timeout: Duration = .seconds(10)
    ) async
        -> [HTTPBin.LogLine]
    {
        _ = await server.output.wait(timeout: timeout) { ($0.linesByTestID[id]?.count ?? 0) >= count }
        return requests(withTestID: id)
    }

    /// The body bytes the server sends from `offset` on: byte `i` is `i % ` ``patternPeriod``.
    ///
    /// - Parameters:
    ///   - offset: The offset of the first byte in the body.
    ///   - count: How many bytes.
    /// - Returns: `count` bytes.
    public static func pattern(offset: Int = 0, count: Int) -> Data {
        Data((offset..<(offset + count)).map { UInt8($0 % patternPeriod) })
    }

    // MARK: - Internals

    /// `FaultServer.py` beside this file.
    private static var script: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("FaultServer.py")
    }

    /// ``HTTPBin``'s Python when there is one, else `python3` on the `PATH`.
    private static func locatePython() throws -> URL {
        if let configured = try? HTTPBin.locatePython() { return configured }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent("python3")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw HTTPBin.Failure(description: "no python3 on the PATH (\(path)) for the fault server")
    }
}
