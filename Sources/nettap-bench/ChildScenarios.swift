import Foundation
import NetTapCore
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The child side of the process-isolated scenarios (`nettap-bench child download|resources|throughput …`).
///
/// Each child creates one session for its variant, warms it up, takes a baseline of `VmRSS`, the peak and the
/// open descriptors, runs the measured part, and prints a ``ChildReport`` as one line of JSON on standard output.
enum ChildScenarios {
    /// Runs the child named by `arguments` and prints its report.
    /// - Parameter arguments: The arguments after `child`.
    /// - Returns: The process exit status: 0 on success, 1 when the measurement failed, 2 on bad arguments.
    static func main(_ arguments: [String]) async -> Int32 {
        do {
            let options = try ChildOptions(arguments)
            let report: ChildReport
            switch options.scenario {
            case "download":
                report = try await download(options)
            case "resources":
                report = try await resources(options)
            case "throughput":
                report = try await throughput(options)
            default:
                throw BenchError("unknown child scenario \(options.scenario)")
            }
            let json = try JSONEncoder().encode(report)
            print(String(decoding: json, as: UTF8.self))
            return 0
        } catch {
            FileHandle.standardError.write(Data("nettap-bench child: \(error)\n".utf8))
            return 1
        }
    }

    // MARK: - Download

    /// Downloads the big file once, as a delegate caller that only counts bytes or as a completion-handler
    /// caller, and reports throughput and the peak RSS growth.
    private static func download(_ options: ChildOptions) async throws -> ChildReport {
        let counter = ByteCounter()
        let session = options.variant.makeSession(delegate: options.mode == "delegate" ? counter : nil)
        try await Fetch.get(URLRequest(url: options.warmUpURL), on: session, expectedBytes: nil)
        let baseline = try Baseline.take()
        let clock = ContinuousClock()
        let start = clock.now
        let (bytes, status): (Int64, Int)
        switch options.mode {
        case "delegate":
            let task = session.dataTask(with: options.url)
            (bytes, status) = try await withCheckedThrowingContinuation { continuation in
                counter.expect(continuation)
                task.resume()
            }
        case "completion":
            (bytes, status) = try await withCheckedThrowingContinuation { continuation in
                let task = session.dataTask(with: options.url) { data, response, error in
                    if let error {
                        continuation.resume(throwing: error)
                    } else {
                        let status = (response as? HTTPURLResponse)?.statusCode ?? -1
                        continuation.resume(returning: (Int64(data?.count ?? 0), status))
                    }
                }
                task.resume()
            }
        default:
            throw BenchError("unknown download mode \(options.mode)")
        }
        let elapsed = clock.now - start
        guard status == 200 else { throw BenchError("\(options.url): status \(status), expected 200") }
        if let expected = options.expectedBytes, bytes != expected {
            throw BenchError("\(options.url): \(bytes) bytes, expected \(expected)")
        }
        return try baseline.report(
            variant: options.variant.rawValue,
            scenario: "download",
            mode: options.mode,
            bytes: bytes,
            requests: 1,
            seconds: elapsed.seconds
        )
    }

    // MARK: - Throughput

    /// Sends small GETs with `--width` in flight through one ``Route`` (ten times the width, at most `--count`,
    /// unmeasured first),
    /// checking every body, and reports the wall time and this process's CPU time over the measured requests.
    private static func throughput(_ options: ChildOptions) async throws -> ChildReport {
        guard let body = options.expectedBody else { throw BenchError("child throughput: needs --expect-body") }
        let client = try options.route.makeClient(url: options.url, body: body)
        _ = try await client.concurrently(count: min(options.width * 10, options.count), width: options.width)
        let baseline = try Baseline.take()
        guard let cpuBefore = ProcessMetrics.cpuSeconds else { throw BenchError("no process CPU clock") }
        let elapsed = try await client.concurrently(count: options.count, width: options.width)
        guard let cpuAfter = ProcessMetrics.cpuSeconds else { throw BenchError("no process CPU clock") }
        var report = try baseline.report(
            variant: options.route.rawValue,
            scenario: "throughput",
            mode: nil,
            bytes: Int64(options.count * body.count),
            requests: options.count,
            seconds: elapsed.seconds
        )
        report.cpuSeconds = cpuAfter - cpuBefore
        return report
    }

    // MARK: - Resources

    /// Sends many small requests (16 in flight) and reports the RSS and descriptor growth they leave behind.
    private static func resources(_ options: ChildOptions) async throws -> ChildReport {
        let session = options.variant.makeSession()
        let request = URLRequest(url: options.url)
        let width = 16
        _ = try await Fetch.concurrently(
            count: 200,
            width: width,
            request: request,
            on: session,
            expectedBytes: options.expectedBytes.map(Int.init)
        )
        try await Task.sleep(for: .milliseconds(500))
        let baseline = try Baseline.take()
        let elapsed = try await Fetch.concurrently(
            count: options.count,
            width: width,
            request: request,
            on: session,
            expectedBytes: options.expectedBytes.map(Int.init)
        )
        // Let idle connections, delegate queues and capture bookkeeping settle before reading the figures.
        try await Task.sleep(for: .milliseconds(500))
        let bytes = Int64(options.count) * (options.expectedBytes ?? 0)
        return try baseline.report(
            variant: options.variant.rawValue,
            scenario: "resources",
            mode: nil,
            bytes: bytes,
            requests: options.count,
            seconds: elapsed.seconds
        )
    }
}

/// The figures taken just before a measured part.
private struct Baseline {
    let residentBytes: Int64
    let peakWasReset: Bool
    let fileDescriptors: Int
    let fileDescriptorKinds: [String: Int]

    static func take() throws -> Baseline {
        let wasReset = ProcessMetrics.resetPeakResident()
        guard let resident = ProcessMetrics.residentBytes, let descriptors = ProcessMetrics.openFileDescriptorCount()
        else {
            throw BenchError("cannot read /proc/self/status or /proc/self/fd")
        }
        return Baseline(
            residentBytes: resident,
            peakWasReset: wasReset,
            fileDescriptors: descriptors,
            fileDescriptorKinds: ProcessMetrics.openFileDescriptorKinds()
        )
    }

    func report(
        variant: String,
        scenario: String,
        mode: String?,
        bytes: Int64,
        requests: Int,
        seconds: Double
    ) throws -> ChildReport {
        guard let peak = ProcessMetrics.peakResidentBytes, let resident = ProcessMetrics.residentBytes,
            let descriptors = ProcessMetrics.openFileDescriptorCount()
        else {
            throw BenchError("cannot read /proc/self/status or /proc/self/fd")
        }
        return ChildReport(
            variant: variant,
            scenario: scenario,
            mode: mode,
            bytes: bytes,
            requests: requests,
            seconds: seconds,
            baselineResidentBytes: residentBytes,
            peakResidentBytes: peak,
            endResidentBytes: resident,
            peakWasReset: peakWasReset,
            fileDescriptorsBefore: fileDescriptors,
            fileDescriptorsAfter: descriptors,
            fileDescriptorKindsBefore: fileDescriptorKinds,
            fileDescriptorKindsAfter: ProcessMetrics.openFileDescriptorKinds(),
            capturedTransactions: variant == Variant.nettap.rawValue
                ? NetTapInterceptor.shared.captureLog.transactions.count : nil
        )
    }
}

/// A data delegate that only counts body bytes and reports the end of one task.
private final class ByteCounter: NSObject, URLSessionDataDelegate, Sendable {
    private struct State {
        var bytes: Int64 = 0
        var continuation: CheckedContinuation<(Int64, Int), any Error>?
    }

    private let state = Mutex(State())

    /// Sets the continuation resumed with `(bytes, status)` when the task completes.
    func expect(_ continuation: CheckedContinuation<(Int64, Int), any Error>) {
        state.withLock { $0.continuation = continuation }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        state.withLock { $0.bytes += Int64(data.count) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (bytes, continuation) = state.withLock { state in
            defer { state.continuation = nil }
            return (state.bytes, state.continuation)
        }
        if let error {
            continuation?.resume(throwing: error)
        } else {
            let status = (task.response as? HTTPURLResponse)?.statusCode ?? -1
            continuation?.resume(returning: (bytes, status))
        }
    }
}

/// The arguments of a child: `download --mode delegate|completion --via direct|nettap --url URL
/// --warm-up-url URL [--expect-bytes N]`, `resources --via direct|nettap --url URL --count N [--expect-bytes N]`
/// or `throughput --via direct|floor|nettap|peer --url URL --count N --width N --expect-body BASE64`.
private struct ChildOptions {
    var scenario: String
    var variant = Variant.direct
    /// The route of a throughput child (`--via`); its ``variant`` is the same name where one exists.
    var route = Route.direct
    /// Requests in flight in a throughput child (`--width`).
    var width = 16
    /// The body every answer of a throughput child must have (`--expect-body`, base64).
    var expectedBody: Data?
    var mode = "delegate"
    var url: URL
    var warmUpURL: URL
    var count = 10_000
    var expectedBytes: Int64?

    init(_ arguments: [String]) throws {
        guard let scenario = arguments.first else { throw BenchError("child: missing scenario") }
        self.scenario = scenario
        var values: [String: String] = [:]
        var index = 1
        while index < arguments.count {
            let name = arguments[index]
            guard name.hasPrefix("--"), index + 1 < arguments.count else {
                throw BenchError("child: unexpected argument \(name)")
            }
            values[name] = arguments[index + 1]
            index += 2
        }
        guard let urlText = values["--url"], let url = URL(string: urlText) else {
            throw BenchError("child: missing or invalid --url")
        }
        self.url = url
        self.warmUpURL = values["--warm-up-url"].flatMap(URL.init(string:)) ?? url
        if let via = values["--via"] {
            guard let route = Route(rawValue: via) else { throw BenchError("child: unknown --via \(via)") }
            self.route = route
            self.variant = Variant(rawValue: via) ?? .direct
        }
        if let mode = values["--mode"] { self.mode = mode }
        if let count = values["--count"] {
            guard let parsed = Int(count), parsed > 0 else { throw BenchError("child: invalid --count \(count)") }
            self.count = parsed
        }
        if let width = values["--width"] {
            guard let parsed = Int(width), parsed > 0 else { throw BenchError("child: invalid --width \(width)") }
            self.width = parsed
        }
        if let body = values["--expect-body"] {
            guard let parsed = Data(base64Encoded: body) else { throw BenchError("child: invalid --expect-body") }
            self.expectedBody = parsed
        }
        if let expected = values["--expect-bytes"] {
            guard let parsed = Int64(expected) else { throw BenchError("child: invalid --expect-bytes \(expected)") }
            self.expectedBytes = parsed
        }
    }
}
