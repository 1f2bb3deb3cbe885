import Foundation
import NetTapCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An nginx in front of the shared ``HTTPBin`` that speaks HTTPS, HTTP/2 included, with a certificate this machine
/// trusts, started by the test process itself on `127.0.0.1` only.
///
/// Three listeners on free ports, each reverse-proxying every path to httpbin (`proxy_pass`, HTTP/1.1, no buffering
/// either way, no body size limit, the request's headers kept, `Host` as the client named it):
///
/// | listener | protocols | certificate |
/// | --- | --- | --- |
/// | ``http2BaseURL`` | HTTP/2 by ALPN, else HTTP/1.1 | signed by the trusted test CA |
/// | ``http1BaseURL`` | HTTP/1.1 only | signed by the trusted test CA |
/// | ``untrustedBaseURL`` | HTTP/1.1 only | signed by an untrusted CA: verification fails |
///
/// ```swift
/// let front = try await TLSFront.shared()
/// var request = URLRequest(url: front.url("/get?a=1", http2: true))
/// request.setValue("case-1", forHTTPHeaderField: HTTPBin.testIDHeader)
/// _ = try await URLSession(configuration: .default).data(for: request)
/// let lines = await front.httpbin.waitForRequests(withTestID: "case-1", count: 1)
/// let hops = await front.waitForRequests(withTestID: "case-1", count: 1)  // hops[0].httpVersion == "HTTP/2.0"
/// ```
///
/// The certificates come from ``TestCertificateAuthority/trusted()``, which installs the test CA in the system
/// trust store first (plain `URLSession` on Linux verifies with libcurl against Debian's bundle), so a start needs
/// root unless the CA is trusted already.
///
/// nginx runs in the foreground as one process (`daemon off; master_process off;`) under the launcher of
/// ``PythonServerProcess``, which stops it when this process exits or dies (its standard input, a pipe from this
/// process, reaches end-of-file); its configuration, pid file, temporary folders and a copy of its error log live
/// in a temporary prefix removed by ``stop()``. The configuration is checked with `nginx -t` first. Readiness is
/// nginx's own start-up line on its error log (written once every listener is bound), then a TCP connection to
/// each port; nothing sleeps.
///
/// nginx's access log reaches this process through a pipe: ``requests(withTestID:)`` tells which listener served a
/// request with which protocol version.
///
/// Thread safety: every member may be used from any thread.
public final class TLSFront: Sendable {
    /// Why the front could not be started.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong, with what to do about it.
        public var description: String
    }

    /// One request as nginx's access log recorded it.
    public struct LogLine: Sendable, Hashable, CustomStringConvertible {
        /// The listener's port.
        public var port: Int
        /// The protocol the client spoke: `HTTP/2.0` or `HTTP/1.1`.
        public var httpVersion: String
        /// The status nginx answered with.
        public var statusCode: Int
        /// The request method.
        public var method: String
        /// The request's `X-Test-ID`; `nil` when absent.
        public var testID: String?

        /// The line as `METHOD VERSION STATUS on PORT`.
        public var description: String { "\(method) \(httpVersion) \(statusCode) on \(port)" }

        /// Parses one line written in the front's log format; `nil` for any other line.
        ///
        /// - Parameter line: The line, without its line break.
        public init?(parsing line: String) {
            let fields = line.split(separator: " ", omittingEmptySubsequences: false)
            guard fields.count == 6, fields[0] == TLSFront.logTag, let port = Int(fields[1]),
                let status = Int(fields[3])
            else { return nil }
            self.port = port
            httpVersion = String(fields[2])
            statusCode = status
            method = String(fields[4])
            testID = fields[5] == "-" ? nil : String(fields[5])
        }
    }

    /// The first field of every access-log line, which tells the front's lines from httpbin's.
    static let logTag = "nettap-front"

    /// The httpbin every listener forwards to.
    public let httpbin: HTTPBin
    /// The certificates the listeners use.
    public let authority: TestCertificateAuthority
    /// The port of the HTTP/2 (ALPN `h2`, `http/1.1`) listener.
    public let http2Port: Int
    /// The port of the HTTP/1.1-only listener.
    public let http1Port: Int
    /// The port of the listener whose certificate is signed by the untrusted CA.
    public let untrustedPort: Int
    private let server: PythonServerProcess

    private init(
        httpbin: HTTPBin,
        authority: TestCertificateAuthority,
        ports: Ports,
        server: PythonServerProcess
    ) {
        self.httpbin = httpbin
        self.authority = authority
        http2Port = ports.http2
        http1Port = ports.http1
        untrustedPort = ports.untrusted
        self.server = server
    }

    deinit {
        stop()
    }

    // MARK: - URLs

    /// `https://127.0.0.1:<http2Port>`: HTTP/2 for clients that offer it.
    public var http2BaseURL: URL { Self.baseURL(port: http2Port) }
    /// `https://127.0.0.1:<http1Port>`: HTTP/1.1 only.
    public var http1BaseURL: URL { Self.baseURL(port: http1Port) }
    /// `https://127.0.0.1:<untrustedPort>`: a certificate no trust store holds.
    public var untrustedBaseURL: URL { Self.baseURL(port: untrustedPort) }

    /// The URL of a path (with an optional query) on the HTTP/2 or the HTTP/1.1 listener.
    ///
    /// - Parameters:
    ///   - pathAndQuery: Such as `/get` or `/bytes/1024?seed=7`; must start with `/`.
    ///   - http2: `true` for ``http2BaseURL``, `false` for ``http1BaseURL``.
    /// - Returns: The absolute URL.
    public func url(_ pathAndQuery: String, http2: Bool = true) -> URL {
        let base = http2 ? http2BaseURL : http1BaseURL
        return URL(string: base.absoluteString + pathAndQuery) ?? base
    }

    /// The URL of a path on the listener with the untrusted certificate.
    ///
    /// - Parameter pathAndQuery: Such as `/get`; must start with `/`.
    /// - Returns: The absolute URL.
    public func untrustedURL(_ pathAndQuery: String) -> URL {
        URL(string: untrustedBaseURL.absoluteString + pathAndQuery) ?? untrustedBaseURL
    }

    private static func baseURL(port: Int) -> URL {
        URL(string: "https://127.0.0.1:\(port)") ?? URL(fileURLWithPath: "/")
    }

    // MARK: - nginx's access log

    /// The requests nginx has logged so far that carried `X-Test-ID: id`.
    ///
    /// nginx logs a request once its response is sent, so a line can trail the client's completion: use
    /// ``waitForRequests(withTestID:count:timeout:)``.
    /// - Parameter id: The `X-Test-ID` value.
    /// - Returns: The matching lines, oldest first.
    public func requests(withTestID id: String) -> [LogLine] {
        Self.lines(in: server.output.current, testID: id)
    }

    /// Waits until nginx has logged at least `count` requests with `X-Test-ID: id`, or `timeout` passed.
    ///
    /// - Parameters:
    ///   - id: The `X-Test-ID` value.
    ///   - count: How many lines to wait for.
    ///   - timeout: The longest wait; 10 seconds by default.
    /// - Returns: Every matching line, oldest first; fewer than `count` when the timeout passed first.
    public func waitForRequests(
        withTestID id: String,
        count: Int,
        timeout: Duration = .seconds(10)
    ) async
        -> [LogLine]
    {
        _ = await server.output.wait(timeout: timeout) { Self.lines(in: $0, testID: id).count >= count }
        return requests(withTestID: id)
    }

    private static func lines(in snapshot: ServerOutput.Snapshot, testID: String) -> [LogLine] {
        snapshot.unparsedLines.compactMap { text in
            guard text.hasSuffix(" " + testID), let line = LogLine(parsing: text), line.testID == testID else {
                return nil
            }
            return line
        }
    }

    // MARK: - Shared instance

    private static let sharedStart = Task { () throws -> TLSFront in
        try await TLSFront.start(httpbin: HTTPBin.shared())
    }

    /// The front shared by every test in this process, in front of ``HTTPBin/shared()``: started on first use,
    /// stopped at exit.
    ///
    /// - Returns: The running front.
    /// - Throws: ``Failure`` (or ``HTTPBin/Failure`` for httpbin) when it cannot be started.
    public static func shared() async throws -> TLSFront {
        try await sharedStart.value
    }

    // MARK: - Starting and stopping

    /// Trusts the test CA (``TestCertificateAuthority/trusted()``), then starts nginx in front of `httpbin` on
    /// three free ports and waits until every listener accepts connections.
    ///
    /// Ports are found by binding `127.0.0.1:0` and closing the socket; when nginx finds one taken by then, the
    /// start is retried on new ports (up to 5 attempts).
    /// - Parameters:
    ///   - httpbin: The server to forward to.
    ///   - deadline: How long one attempt may take to become ready; 30 seconds by default.
    /// - Returns: The running front.
    /// - Throws: ``Failure`` naming what went wrong: the CA, nginx missing, `nginx -t`'s verdict with the
    ///   configuration, nginx exiting (with its error log), a port that does not accept connections.
    public static func start(httpbin: HTTPBin, deadline: Duration = .seconds(30)) async throws -> TLSFront {
        let authority: TestCertificateAuthority
        do {
            authority = try TestCertificateAuthority.trusted()
        } catch {
            throw Failure(description: "TLS front: \(error)")
        }
        guard let nginx = ToolCommand.locate("nginx") else {
            throw Failure(
                description: "TLS front: nginx not found on the PATH or in /usr/sbin; install it "
                    + "(apt-get install nginx; scripts/test does)"
            )
        }
        let python: URL
        do {
            python = try HTTPBin.locatePython()
        } catch {
            throw Failure(description: "TLS front: its launcher needs httpbin's Python: \(error)")
        }
        var failures: [String] = []
        for _ in 0..<5 {
            let ports = try Ports.free()
            let front = try launch(
                nginx: nginx,
                python: python,
                httpbin: httpbin,
                authority: authority,
                ports: ports
            )
            switch await front.waitUntilReady(deadline: deadline) {
            case .ready:
                return front
            case .portTaken(let problem):
                front.stop()
                failures.append(problem)
            case .failed(let problem):
                front.stop()
                throw Failure(description: "TLS front: " + (failures + [problem]).joined(separator: "\n---\n"))
            }
        }
        throw Failure(description: "TLS front: no free ports in 5 attempts:\n" + failures.joined(separator: "\n---\n"))
    }

    /// Stops nginx (SIGINT: its fast shutdown), waits up to 5 seconds for it to exit and removes its prefix.
    ///
    /// Calling it again does nothing. httpbin keeps running.
    public func stop() {
        server.stop()
    }

    // MARK: - Internals

    /// The three listeners' ports.
    private struct Ports {
        var http2: Int
        var http1: Int
        var untrusted: Int

        var all: [Int] { [http2, http1, untrusted] }

        /// Three different free ports.
        static func free() throws -> Ports {
            var ports: [Int] = []
            while ports.count < 3 {
                let port: Int
                do {
                    port = try HTTPBin.unusedPort()
                } catch {
                    throw Failure(description: "TLS front: no free port: \(error)")
                }
                if !ports.contains(port) { ports.append(port) }
            }
            return Ports(http2: ports[0], http1: ports[1], untrusted: ports[2])
        }
    }

    /// Writes the configuration into a new prefix, checks it with `nginx -t`, and starts nginx under the launcher.
    private static func launch(
        nginx: ToolCommand,
        python: URL,
        httpbin: HTTPBin,
        authority: TestCertificateAuthority,
        ports: Ports
    ) throws -> TLSFront {
        let prefix = FileManager.default.temporaryDirectory
            .appendingPathComponent("nettap-tls-front-\(ProcessInfo.processInfo.processIdentifier)-\(ports.http2)")
        let configuration = prefix.appendingPathComponent("nginx.conf")
        let text = NginxConfiguration(
            prefix: prefix,
            upstreamPort: httpbin.port,
            ports: (ports.http2, ports.http1, ports.untrusted),
            trusted: authority.server,
            untrusted: authority.untrustedServer,
            logTag: logTag
        ).text
        do {
            try FileManager.default.createDirectory(at: prefix, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: configuration)
        } catch {
            throw Failure(description: "TLS front: cannot write \(configuration.path): \(error)")
        }
        let arguments = ["-p", prefix.path + "/", "-c", configuration.path, "-e", "stderr"]
        let check: ToolCommand.Result
        do {
            check = try nginx.run(["-t"] + arguments)
        } catch {
            try? FileManager.default.removeItem(at: prefix)
            throw Failure(description: "TLS front: cannot run \(nginx.commandLine(["-t"] + arguments)): \(error)")
        }
        guard check.status == 0 else {
            try? FileManager.default.removeItem(at: prefix)
            throw Failure(
                description: "TLS front: \(nginx.commandLine(["-t"] + arguments)) rejected the configuration "
                    + "(status \(check.status)):\n\(check.output)\n--- nginx.conf:\n\(text)"
            )
        }
        let server: PythonServerProcess
        do {
            // The launcher's child is `python -c <exec>`, which becomes nginx: the launcher signals it directly.
            server = try PythonServerProcess(
                python: python,
                arguments: [
                    "-c", "import os, sys; os.execv(sys.argv[1], sys.argv[1:])", nginx.executable.path,
                ] + arguments + ["-g", "daemon off; master_process off;"],
                directory: prefix
            )
        } catch {
            try? FileManager.default.removeItem(at: prefix)
            throw Failure(description: "TLS front: cannot start nginx: \(error)")
        }
        return TLSFront(httpbin: httpbin, authority: authority, ports: ports, server: server)
    }

    /// How a start attempt ended.
    private enum Readiness {
        case ready
        /// nginx could not bind a port that another process took: worth another attempt.
        case portTaken(String)
        case failed(String)
    }

    /// Waits for nginx's `OS:` start-up notice (logged after every listening socket is bound and before nginx
    /// serves) or its exit, then connects to each port.
    private func waitUntilReady(deadline: Duration) async -> Readiness {
        let clock = ContinuousClock()
        let end = clock.now + deadline
        let started = ": OS: "
        _ = await server.output.wait(timeout: deadline) { $0.hasEnded || $0.errorText.contains(started) }
        var snapshot = server.output.current
        if snapshot.hasEnded {
            if snapshot.errorText.contains("Address already in use") {
                return .portTaken("a port was taken:\n\(snapshot.errorText)")
            }
            return .failed("nginx exited before serving:\n\(snapshot.errorText)")
        }
        guard snapshot.errorText.contains(started) else {
            return .failed("nginx did not report its start within \(deadline):\n\(snapshot.errorText)")
        }
        for port in [http2Port, http1Port, untrustedPort] {
            while true {
                let problem = Self.connectProbe(port: port)
                guard let problem else { break }
                // Not expected once nginx reported its start; retried until the deadline, waiting on nginx's exit.
                if clock.now >= end {
                    return .failed("nginx does not accept connections on port \(port): \(problem)")
                }
                _ = await server.output.wait(timeout: .milliseconds(50)) { $0.hasEnded }
                snapshot = server.output.current
                if snapshot.hasEnded { return .failed("nginx exited:\n\(snapshot.errorText)") }
            }
        }
        return .ready
    }

    /// Connects to `127.0.0.1:port` and closes the connection; `nil` when it connected, else what failed.
    private static func connectProbe(port: Int) -> String? {
        let descriptor = socket(AF_INET, socketStreamType, 0)
        guard descriptor >= 0 else { return "socket() failed: errno \(errno)" }
        defer { close(descriptor) }
        var limit = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        return connected == 0 ? nil : "connect() failed: errno \(errno)"
    }

    #if canImport(Glibc)
    private static let socketStreamType = Int32(SOCK_STREAM.rawValue)
    #else
    private static let socketStreamType = SOCK_STREAM
    #endif
}
