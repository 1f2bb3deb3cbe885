import Foundation
import NetTapCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A local httpbin server (gunicorn, sync workers) on a free `127.0.0.1` port, with a readable access log.
///
/// Tests share one server per test process through ``shared()``; it is started on first use and stopped
/// when the process exits (and, if the process dies, by a small Python launcher that watches its standard
/// input and stops gunicorn when that pipe closes, so no server outlives its test process).
///
/// ```swift
/// let server = try await HTTPBin.shared()
/// var request = URLRequest(url: server.url("/get"))
/// request.setValue("case-1", forHTTPHeaderField: HTTPBin.testIDHeader)
/// _ = try await URLSession(configuration: .default).data(for: request)
/// let lines = try await server.waitForRequests(withTestID: "case-1", count: 1)
/// ```
///
/// The server runs `gunicorn -w 4 -k sync`: threaded workers make `/bytes/N?seed=S` non-deterministic
/// (platform-notes §8). Every request is logged as `METHOD PATH QUERY STATUS X-TEST-ID`.
///
/// The access log and the error log reach this process through pipes (gunicorn's `--access-logfile -` and
/// `--error-logfile -`), read continuously on their own threads; waiting for a log line or for readiness
/// waits on those lines arriving, never polls. The error log is also copied to a file while the server runs.
///
/// Python is found in `NETTAP_HTTPBIN_PYTHON`, else in `.build/httpbin-venv/bin/python` under the package
/// root; `scripts/test` creates that venv with the pinned `scripts/requirements-httpbin.txt`.
///
/// Thread safety: every member may be used from any thread.
public final class HTTPBin: @unchecked Sendable {
    /// One request as gunicorn's access log recorded it.
    public struct LogLine: Sendable, Hashable, CustomStringConvertible {
        /// The request method, such as `GET`.
        public var method: String
        /// The request path without the query, such as `/redirect/2`.
        public var path: String
        /// The raw query string without `?`; empty when there was none.
        public var query: String
        /// The HTTP status code the server answered with.
        public var statusCode: Int
        /// The value of the request's `X-Test-ID` header; `nil` when absent.
        public var testID: String?

        /// The line as `METHOD PATH?QUERY STATUS`.
        public var description: String {
            "\(method) \(path)\(query.isEmpty ? "" : "?" + query) \(statusCode)"
        }

        /// Parses one access-log line written with ``HTTPBin/accessLogFormat``.
        ///
        /// Fails (returns `nil`) when the line does not have the five fields.
        /// - Parameter line: The line, without its line break.
        public init?(parsing line: Substring) {
            let fields = line.split(separator: " ", omittingEmptySubsequences: false)
            guard fields.count == 5, let status = Int(fields[3]) else { return nil }
            method = String(fields[0])
            path = String(fields[1])
            query = String(fields[2])
            statusCode = status
            testID = fields[4] == "-" ? nil : String(fields[4])
        }
    }

    /// Why the server could not be started or did not answer in time.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong, with what to do about it.
        public var description: String
    }

    /// The request header whose value the access log records (`X-Test-ID`).
    public static let testIDHeader = "X-Test-ID"

    /// The gunicorn `--access-logformat` used: method, path, query, status and the `X-Test-ID` header.
    public static let accessLogFormat = "%(m)s %(U)s %(q)s %(s)s %({x-test-id}i)s"

    /// The server's root, such as `http://127.0.0.1:40123`.
    public let baseURL: URL
    /// The TCP port on `127.0.0.1`.
    public let port: Int
    private let server: PythonServerProcess
    private var output: ServerOutput { server.output }

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
    private static let sharedStart = Task { () throws -> HTTPBin in try await HTTPBin.start() }

    /// The server shared by every test in this process, started on first use and stopped at exit.
    ///
    /// - Returns: The running server.
    /// - Throws: ``Failure`` when Python or gunicorn cannot be found or started.
    public static func shared() async throws -> HTTPBin {
        try await sharedStart.value
    }

    // MARK: - Starting and stopping

    /// Starts a new server on a free port and waits until it answers.
    ///
    /// A free port is found by binding a socket to `127.0.0.1:0` and closing it (gunicorn cannot bind port 0);
    /// if another process takes the port in between (gunicorn logs `Connection in use`), the start is retried
    /// on a new port (up to 5 attempts).
    /// - Parameters:
    ///   - python: The Python interpreter whose environment has httpbin and gunicorn; found as described in
    ///     the type's documentation when `nil`.
    ///   - workers: The number of sync workers; 4 by default.
    ///   - deadline: How long one attempt may take to answer, 30 seconds by default.
    /// - Returns: The running server.
    /// - Throws: ``Failure`` with gunicorn's error log when it failed for another reason than a taken port
    ///   (no retry then), or when 5 attempts found their port taken.
    public static func start(
        python: URL? = nil,
        workers: Int = 4,
        deadline: Duration = .seconds(30)
    ) async throws
        -> HTTPBin
    {
        let interpreter = try python ?? locatePython()
        var failures: [String] = []
        for _ in 0..<5 {
            let port = try freePort()
            let server = try launch(python: interpreter, port: port, workers: workers)
            switch await server.waitUntilReady(deadline: deadline) {
            case .ready:
                return server
            case .portTaken(let problem):
                server.stop()
                failures.append(problem)
            case .failed(let problem):
                server.stop()
                throw Failure(
                    description: "httpbin did not start:\n" + (failures + [problem]).joined(separator: "\n---\n")
                )
            }
        }
        throw Failure(description: "httpbin did not start:\n" + failures.joined(separator: "\n---\n"))
    }

    /// Stops the server (gunicorn's quick shutdown) and waits up to 5 seconds for it to exit.
    ///
    /// Calling it again does nothing.
    public func stop() {
        server.stop()
    }

    // MARK: - URLs and the access log

    /// The URL of a path (with an optional query) on this server.
    ///
    /// - Parameter pathAndQuery: Such as `/get` or `/bytes/1024?seed=7`; must start with `/`.
    /// - Returns: The absolute URL.
    public func url(_ pathAndQuery: String) -> URL {
        URL(string: baseURL.absoluteString + pathAndQuery) ?? baseURL
    }

    /// Every request the server has logged so far.
    ///
    /// - Returns: The parsed access-log lines, oldest first.
    public func allRequests() -> [LogLine] {
        output.current.lines
    }

    /// The requests logged so far that carried `X-Test-ID: id`.
    ///
    /// gunicorn logs a request after sending its response, so a line can appear a little after the client
    /// saw the response: use ``waitForRequests(withTestID:count:timeout:)`` to wait for it.
    /// - Parameter id: The `X-Test-ID` value.
    /// - Returns: The matching lines, oldest first.
    public func requests(withTestID id: String) -> [LogLine] {
        output.current.linesByTestID[id] ?? []
    }

    /// Waits until at least `count` requests with `X-Test-ID: id` are logged.
    ///
    /// The wait ends when the line that completes the count arrives through the access-log pipe, or when
    /// `timeout` passes (a `DispatchQueue` timer), whichever comes first; nothing polls.
    ///
    /// - Parameters:
    ///   - id: The `X-Test-ID` value.
    ///   - count: How many lines to wait for.
    ///   - timeout: The longest wait; 10 seconds by default.
    /// - Returns: Every matching line (possibly more than `count`), oldest first; fewer than `count` when
    ///   the timeout passed first.
    public func waitForRequests(
        withTestID id: String,
        count: Int,
        timeout: Duration = .seconds(10)
    ) async
        -> [LogLine]
    {
        _ = await output.wait(timeout: timeout) { ($0.linesByTestID[id]?.count ?? 0) >= count }
        return requests(withTestID: id)
    }

    /// A TCP port on 127.0.0.1 that nothing listens on right now (for "connection refused" cases).
    ///
    /// - Returns: The port number.
    /// - Throws: ``Failure`` when no socket could be bound.
    public static func unusedPort() throws -> Int {
        try freePort()
    }

    // MARK: - Internals

    static func locatePython() throws -> URL {
        if let configured = ProcessInfo.processInfo.environment["NETTAP_HTTPBIN_PYTHON"], !configured.isEmpty {
            guard FileManager.default.isExecutableFile(atPath: configured) else {
                throw Failure(description: "NETTAP_HTTPBIN_PYTHON=\(configured) is not an executable file")
            }
            return URL(fileURLWithPath: configured)
        }
        // #filePath is <package>/Tests/NetTapTestSupport/HTTPBin.swift.
        let packageRoot = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()
            .deletingLastPathComponent()
            .deletingLastPathComponent()
        let venvPython = packageRoot.appendingPathComponent(".build/httpbin-venv/bin/python")
        guard FileManager.default.isExecutableFile(atPath: venvPython.path) else {
            throw Failure(
                description: "no httpbin Python: NETTAP_HTTPBIN_PYTHON is unset and \(venvPython.path) does not "
                    + "exist; run scripts/test once (it creates the venv from scripts/requirements-httpbin.txt)"
            )
        }
        return venvPython
    }

    /// Runs gunicorn under the test support's Python launcher (``PythonServerProcess``), which stops it when the
    /// launcher's standard input closes (at `stop()` or when this process dies).
    ///
    /// With `--access-logfile -` and `--error-logfile -` gunicorn writes its logs straight into this process's
    /// pipes, one flushed line per record (Python's logging `StreamHandler` flushes after every record).
    private static func launch(python: URL, port: Int, workers: Int) throws -> HTTPBin {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("nettap-httpbin-\(ProcessInfo.processInfo.processIdentifier)-\(port)")
        let server = try PythonServerProcess(
            python: python,
            arguments: [
                "-m", "gunicorn",
                "--bind", "127.0.0.1:\(port)",
                "--workers", String(workers),
                "--worker-class", "sync",
                "--no-control-socket",
                "--graceful-timeout", "1",
                "--access-logfile", "-",
                "--access-logformat", accessLogFormat,
                "--error-logfile", "-",
                "httpbin:app",
            ],
            directory: directory
        )
        return HTTPBin(port: port, server: server)
    }

    /// How a start attempt ended.
    private enum Readiness {
        /// The server answers on its port.
        case ready
        /// Another process holds the port: worth another attempt on a new port.
        case portTaken(String)
        /// Any other failure, with the reason and gunicorn's error log.
        case failed(String)
    }

    /// Waits until gunicorn reports listening on this server's port, then until a probe request is answered
    /// and logged by it.
    ///
    /// Both waits end on an event (an error-log line, an access-log line, or the logs ending because gunicorn
    /// exited) or at the deadline; nothing polls. A port taken by another process shows as gunicorn's
    /// `Connection in use` error; the probe's access-log line proves that the workers answer on the port.
    private func waitUntilReady(deadline: Duration) async -> Readiness {
        let clock = ContinuousClock()
        let end = clock.now + deadline
        let listening = "Listening at: http://127.0.0.1:\(port) ("
        let collision = "Connection in use"
        let reported = await output.wait(timeout: deadline) { snapshot in
            snapshot.hasEnded || snapshot.errorText.contains(listening) || snapshot.errorText.contains(collision)
        }
        let errorText = output.current.errorText
        if errorText.contains(collision) {
            return .portTaken("port \(port) is taken by another process:\n\(errorText)")
        }
        guard errorText.contains(listening) else {
            if reported {
                return .failed("gunicorn exited before listening on port \(port):\n\(errorText)")
            }
            return .failed("gunicorn did not report listening on port \(port) within \(deadline):\n\(errorText)")
        }
        let token = "nettap-httpbin-probe-\(UUID().uuidString)"
        let connection: Int32
        switch Self.sendProbe(port: port, testID: token) {
        case .success(let descriptor):
            connection = descriptor
        case .failure(let failure):
            return .failed(
                "gunicorn reported listening on port \(port), but the probe failed: \(failure)\n\(errorText)"
            )
        }
        // The connection stays open until the probe is logged, so the worker can answer it in full.
        defer { close(connection) }
        _ = await output.wait(timeout: max(.zero, end - clock.now)) { snapshot in
            snapshot.hasEnded || snapshot.linesByTestID[token] != nil
        }
        let snapshot = output.current
        if snapshot.linesByTestID[token] != nil { return .ready }
        if snapshot.hasEnded {
            return .failed("gunicorn exited before answering a probe on port \(port):\n\(snapshot.errorText)")
        }
        return .failed(
            "gunicorn did not log a probe request on port \(port) within \(deadline):\n\(snapshot.errorText)"
        )
    }

    /// A free TCP port on 127.0.0.1: bind port 0, read the port the kernel chose, close.
    private static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, socketStreamType, 0)
        guard descriptor >= 0 else { throw Failure(description: "socket() failed: errno \(errno)") }
        defer { close(descriptor) }
        var address = loopbackAddress(port: 0)
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else { throw Failure(description: "bind(127.0.0.1:0) failed: errno \(errno)") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                getsockname(descriptor, $0, &length)
            }
        }
        guard named == 0 else { throw Failure(description: "getsockname failed: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Connects to the port and sends `GET /get` with the test-ID header over a raw socket (no URLSession, so
    /// the probe creates no session in the test process).
    ///
    /// Returns the open socket, which the caller closes once the probe's access-log line arrived; the answer
    /// itself is not read (it waits in the socket's receive buffer).
    private static func sendProbe(port: Int, testID: String) -> Result<Int32, Failure> {
        let descriptor = socket(AF_INET, socketStreamType, 0)
        guard descriptor >= 0 else { return .failure(Failure(description: "socket() failed: errno \(errno)")) }
        // Bounds connect() and send() (Linux applies SO_SNDTIMEO to connect).
        var limit = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var address = loopbackAddress(port: port)
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            let code = errno
            close(descriptor)
            return .failure(Failure(description: "connect() failed: errno \(code)"))
        }
        let request = Array(
            "GET /get HTTP/1.0\r\nHost: 127.0.0.1:\(port)\r\n\(testIDHeader): \(testID)\r\n\r\n".utf8
        )
        let sent = request.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, 0) }
        guard sent == request.count else {
            let code = errno
            close(descriptor)
            return .failure(Failure(description: "send() sent \(sent) of \(request.count) bytes: errno \(code)"))
        }
        return .success(descriptor)
    }

    private static func loopbackAddress(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    #if canImport(Glibc)
    private static let socketStreamType = Int32(SOCK_STREAM.rawValue)
    #else
    private static let socketStreamType = SOCK_STREAM
    #endif
}
