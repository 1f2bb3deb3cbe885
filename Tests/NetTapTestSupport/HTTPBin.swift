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
    private let process: Process
    private let input: Pipe
    private let accessLog: URL
    private let errorLog: URL
    private let stopped = StopFlag()

    private init(port: Int, process: Process, input: Pipe, accessLog: URL, errorLog: URL) {
        self.port = port
        self.baseURL = URL(string: "http://127.0.0.1:\(port)") ?? URL(fileURLWithPath: "/")
        self.process = process
        self.input = input
        self.accessLog = accessLog
        self.errorLog = errorLog
    }

    deinit {
        stop()
    }

    // MARK: - Shared instance

    private static let sharedStart = Task { () throws -> HTTPBin in
        let server = try await HTTPBin.start()
        running.withLock { $0 = server }
        atexit {
            HTTPBin.running.withLock { $0 }?.stop()
        }
        return server
    }

    private static let running = Locked<HTTPBin?>(nil)

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
    /// if another process takes the port in between, the start is retried on a new port (up to 5 attempts).
    /// - Parameters:
    ///   - python: The Python interpreter whose environment has httpbin and gunicorn; found as described in
    ///     the type's documentation when `nil`.
    ///   - workers: The number of sync workers; 4 by default.
    ///   - deadline: How long one attempt may take to answer, 30 seconds by default.
    /// - Returns: The running server.
    /// - Throws: ``Failure`` when no attempt produced a server that answered.
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
            if let problem = await server.waitUntilReady(deadline: deadline) {
                server.stop()
                failures.append(problem)
                continue
            }
            return server
        }
        throw Failure(description: "httpbin did not start:\n" + failures.joined(separator: "\n---\n"))
    }

    /// Stops the server (gunicorn's quick shutdown) and waits up to 5 seconds for it to exit.
    ///
    /// Calling it again does nothing.
    public func stop() {
        guard stopped.set() else { return }
        try? input.fileHandleForWriting.close()
        let exited = DispatchSemaphore(value: 0)
        DispatchQueue.global().async { [process] in
            process.waitUntilExit()
            exited.signal()
        }
        if exited.wait(timeout: .now() + 5) == .timedOut, process.isRunning {
            process.terminate()
        }
        try? FileManager.default.removeItem(at: accessLog.deletingLastPathComponent())
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
        guard let data = try? Data(contentsOf: accessLog), let text = String(data: data, encoding: .utf8) else {
            return []
        }
        return text.split(separator: "\n").compactMap(LogLine.init(parsing:))
    }

    /// The requests logged so far that carried `X-Test-ID: id`.
    ///
    /// gunicorn logs a request after sending its response, so a line can appear a little after the client
    /// saw the response: use ``waitForRequests(withTestID:count:timeout:)`` to wait for it.
    /// - Parameter id: The `X-Test-ID` value.
    /// - Returns: The matching lines, oldest first.
    public func requests(withTestID id: String) -> [LogLine] {
        allRequests().filter { $0.testID == id }
    }

    /// Waits until at least `count` requests with `X-Test-ID: id` are logged, polling the log every 20 ms.
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
        let clock = ContinuousClock()
        let end = clock.now + timeout
        while true {
            let lines = requests(withTestID: id)
            if lines.count >= count || clock.now >= end { return lines }
            try? await Task.sleep(for: .milliseconds(20))
        }
    }

    /// A TCP port on 127.0.0.1 that nothing listens on right now (for "connection refused" cases).
    ///
    /// - Returns: The port number.
    /// - Throws: ``Failure`` when no socket could be bound.
    public static func unusedPort() throws -> Int {
        try freePort()
    }

    // MARK: - Internals

    private static func locatePython() throws -> URL {
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

    /// Runs gunicorn under a launcher that stops it when the launcher's standard input closes (at `stop()` or
    /// when this process dies) or when the launcher receives SIGTERM.
    ///
    /// Foundation's `Process` on Linux starts the child with the blocked-signal mask of the spawning thread
    /// (observed: `SigBlk: fffffffe3bfbea27` in `/proc/PID/status`, so SIGTERM and SIGINT stay pending forever)
    /// and with this process's other descriptors open (a copy of the pipe's write end keeps standard input
    /// from ever reaching end-of-file). The launcher undoes both before starting gunicorn: it closes inherited
    /// pipes, but not sockets — Foundation's `Process` watches a socket held by the child to learn that it exited;
    /// closing it makes Foundation block in `wait4` for this launcher, which stalls every other `Process` in the
    /// test run (seen as a hang of `waitUntilExit` in unrelated tests). gunicorn itself inherits nothing.
    private static let launcher = """
        import os, signal, stat, subprocess, sys, threading
        signal.pthread_sigmask(signal.SIG_SETMASK, [])
        for number in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            signal.signal(number, signal.SIG_DFL)
        for fd in range(3, 4096):
            try:
                if stat.S_ISFIFO(os.fstat(fd).st_mode):
                    os.close(fd)
            except OSError:
                pass
        child = subprocess.Popen([sys.executable, "-m", "gunicorn", *sys.argv[1:]], close_fds=True)
        def stop(*_):
            if child.poll() is None:
                child.send_signal(signal.SIGINT)
        signal.signal(signal.SIGTERM, stop)
        def watch():
            try:
                sys.stdin.buffer.read()
            finally:
                stop()
        threading.Thread(target=watch, daemon=True).start()
        sys.exit(child.wait())
        """

    private static func launch(python: URL, port: Int, workers: Int) throws -> HTTPBin {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("nettap-httpbin-\(ProcessInfo.processInfo.processIdentifier)-\(port)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let accessLog = directory.appendingPathComponent("access.log")
        let errorLog = directory.appendingPathComponent("error.log")
        _ = FileManager.default.createFile(atPath: accessLog.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorLog.path, contents: nil)
        let process = Process()
        process.executableURL = python
        process.arguments = [
            "-c", launcher,
            "--bind", "127.0.0.1:\(port)",
            "--workers", String(workers),
            "--worker-class", "sync",
            "--no-control-socket",
            "--graceful-timeout", "1",
            "--access-logfile", accessLog.path,
            "--access-logformat", accessLogFormat,
            "--error-logfile", errorLog.path,
            "httpbin:app",
        ]
        let input = Pipe()
        // Only the launcher may hold the read end; no other child of this process may keep the write end open.
        _ = fcntl(input.fileHandleForWriting.fileDescriptor, F_SETFD, FD_CLOEXEC)
        process.standardInput = input
        let output = try FileHandle(forWritingTo: errorLog)
        output.seekToEndOfFile()
        process.standardOutput = output
        process.standardError = output
        do {
            try process.run()
        } catch {
            throw Failure(description: "could not run \(python.path): \(error)")
        }
        return HTTPBin(port: port, process: process, input: input, accessLog: accessLog, errorLog: errorLog)
    }

    /// Polls until this server answers a probe request and logs it; `nil` when ready, else the reason.
    private func waitUntilReady(deadline: Duration) async -> String? {
        let clock = ContinuousClock()
        let end = clock.now + deadline
        let token = "nettap-httpbin-probe-\(UUID().uuidString)"
        while clock.now < end {
            guard process.isRunning else {
                return "gunicorn exited (status \(process.terminationStatus)) on port \(port):\n\(errorLogText())"
            }
            // A probe answered and logged by *this* server (not another one that took the port meanwhile).
            if Self.probe(port: port, testID: token) {
                let lines = await waitForRequests(withTestID: token, count: 1, timeout: .seconds(5))
                if !lines.isEmpty { return nil }
                return "port \(port) answered, but not from this gunicorn (port taken by another process)"
            }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return "gunicorn did not answer on port \(port) within \(deadline):\n\(errorLogText())"
    }

    private func errorLogText() -> String {
        (try? String(contentsOf: errorLog, encoding: .utf8)) ?? "(no error log)"
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

    /// Sends `GET /get` with the test-ID header over a raw socket (no URLSession, so the probe creates no
    /// session in the test process); `true` when an HTTP status line came back within 2 seconds.
    private static func probe(port: Int, testID: String) -> Bool {
        let descriptor = socket(AF_INET, socketStreamType, 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var limit = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var address = loopbackAddress(port: port)
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { return false }
        let request = Array(
            "GET /get HTTP/1.0\r\nHost: 127.0.0.1:\(port)\r\n\(testIDHeader): \(testID)\r\n\r\n".utf8
        )
        let sent = request.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, 0) }
        guard sent == request.count else { return false }
        var buffer = [UInt8](repeating: 0, count: 16)
        let received = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        guard received > 0 else { return false }
        return buffer.prefix(received).starts(with: Array("HTTP/".utf8))
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

/// A once-only flag: `set()` returns `true` the first time only.
private final class StopFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var isSet = false

    func set() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if isSet { return false }
        isSet = true
        return true
    }
}
