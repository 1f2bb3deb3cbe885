import Dispatch
import Foundation
import NetTapCore
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An optional scenario (`--only breakdown`) that splits NetTap's small-request cost into its parts.
///
/// Five ways of getting the small file, alternated round by round in this process:
/// - `direct`: `data(for:)` on a default session (the baseline).
/// - `inner`: what the forwarding transport does alone: a data task created on a global queue, on a session
///   with a delegate on a serial `OperationQueue`, its bytes gathered from `didReceive data`.
/// - `bare`: a minimal `URLProtocol` that answers the same bytes inline in `startLoading`: the floor of any
///   custom protocol in FoundationNetworking.
/// - `shim`: NetTap with a transport that answers at once from memory: the interception, pipeline, capture
///   and relay cost with no second request.
/// - `nettap`: NetTap as shipped (interception + forwarding + capture).
///
/// `nettap ≈ shim + inner − (a direct request's own overhead)`; whichever part dominates is where to look.
struct Breakdown {
    /// The small file.
    let url: URL
    /// Its size in bytes.
    let smallBytes: Int
    /// The counts (the latency and throughput counts are reused).
    let plan: Plan

    private enum Way: String, CaseIterable {
        case direct
        case inner
        case bare
        case shim
        case nettap
    }

    /// Measures sequential latency (p50, p99) and 16-in-flight throughput for the five ways.
    /// - Parameter nettapSession: The process's NetTap session (used for `shim` and `nettap`).
    /// - Throws: The first failed request.
    func run(nettapSession: URLSession) async throws {
        let direct = Variant.direct.makeSession()
        BareProtocol.body.withLock { $0 = Data(repeating: UInt8(ascii: "x"), count: smallBytes) }
        let bare = BareProtocol.makeSession()
        let inner = InnerForwarder()
        let synthetic = SyntheticTransport(body: Data(repeating: UInt8(ascii: "x"), count: smallBytes))
        let original = NetTapInterceptor.shared.transport
        defer { NetTapInterceptor.shared.transport = original }
        let clients = Clients(
            request: URLRequest(url: url),
            smallBytes: smallBytes,
            direct: direct,
            bare: bare,
            inner: inner,
            synthetic: synthetic,
            original: original,
            nettap: nettapSession
        )
        let samples = try await latencySamples(clients)
        let rates = try await throughputRates(clients)
        let inspectMicroseconds = Self.inspectMicroseconds(on: nettapSession, request: clients.request)
        printTable(samples: samples, rates: rates, inspectMicroseconds: inspectMicroseconds)
    }

    /// What each way sends through, and the request every way sends.
    private struct Clients: Sendable {
        let request: URLRequest
        let smallBytes: Int
        let direct: URLSession
        let bare: URLSession
        let inner: InnerForwarder
        let synthetic: SyntheticTransport
        /// The shared interceptor's own transport.
        let original: any Transport
        /// The process's NetTap session.
        let nettap: URLSession

        /// Sends one request the way `way` does and checks its size.
        func once(_ way: Way) async throws {
            switch way {
            case .direct:
                try await Fetch.get(request, on: direct, expectedBytes: smallBytes)
            case .inner:
                let count = try await inner.get(request)
                guard count == smallBytes else { throw BenchError("inner: \(count) bytes, expected \(smallBytes)") }
            case .bare:
                try await Fetch.get(request, on: bare, expectedBytes: smallBytes)
            case .shim:
                NetTapInterceptor.shared.transport = synthetic
                try await Fetch.get(request, on: nettap, expectedBytes: smallBytes)
            case .nettap:
                NetTapInterceptor.shared.transport = original
                try await Fetch.get(request, on: nettap, expectedBytes: smallBytes)
            }
        }

        /// Points the shared interceptor at the transport `way` measures: the synthetic one for `shim`, its own
        /// for `nettap`.
        func selectTransport(for way: Way) {
            if way == .shim { NetTapInterceptor.shared.transport = synthetic }
            if way == .nettap { NetTapInterceptor.shared.transport = original }
        }

        /// Adds one request the way `way` does to `group`.
        func add(_ way: Way, to group: inout ThrowingTaskGroup<Void, any Error>) {
            let request = request
            let smallBytes = smallBytes
            switch way {
            case .direct, .bare, .shim, .nettap:
                let session = way == .direct ? direct : way == .bare ? bare : nettap
                group.addTask { try await Fetch.get(request, on: session, expectedBytes: smallBytes) }
            case .inner:
                let inner = inner
                group.addTask { _ = try await inner.get(request) }
            }
        }
    }

    /// Sequential request times in µs per way, after a warm-up, alternating the order of the ways round by round.
    private func latencySamples(_ clients: Clients) async throws -> [Way: [Double]] {
        let ways = Way.allCases
        for way in ways {
            for _ in 0..<plan.latencyWarmUp { try await clients.once(way) }
        }
        var samples: [Way: [Double]] = [:]
        let clock = ContinuousClock()
        let perRound = max(1, plan.latencyCount / plan.latencyRounds)
        for round in 0..<plan.latencyRounds {
            let order = round.isMultiple(of: 2) ? ways : ways.reversed()
            for way in order {
                for _ in 0..<perRound {
                    let start = clock.now
                    try await clients.once(way)
                    samples[way, default: []].append((clock.now - start).seconds * 1e6)
                }
            }
        }
        return samples
    }

    /// Requests sent and seconds taken per way, ``Plan/width`` in flight, alternating the order round by round.
    private func throughputRates(_ clients: Clients) async throws -> [Way: (count: Int, seconds: Double)] {
        let ways = Way.allCases
        let clock = ContinuousClock()
        var rates: [Way: (count: Int, seconds: Double)] = [:]
        let perThroughputRound = max(plan.width, plan.throughputCount / plan.throughputRounds)
        for round in 0..<plan.throughputRounds {
            let order = round.isMultiple(of: 2) ? ways : ways.reversed()
            for way in order {
                let start = clock.now
                try await withThrowingTaskGroup(of: Void.self) { group in
                    clients.selectTransport(for: way)
                    var started = 0
                    while started < min(plan.width, perThroughputRound) {
                        clients.add(way, to: &group)
                        started += 1
                    }
                    while try await group.next() != nil {
                        if started < perThroughputRound {
                            clients.add(way, to: &group)
                            started += 1
                        }
                    }
                }
                let elapsed = (clock.now - start).seconds
                let previous = rates[way] ?? (0, 0)
                rates[way] = (previous.count + perThroughputRound, previous.seconds + elapsed)
            }
        }
        return rates
    }

    /// The reflection NetTap does per request (CallerInspector reads the task's session and work queue), in µs
    /// per call.
    private static func inspectMicroseconds(on session: URLSession, request: URLRequest) -> Double {
        let clock = ContinuousClock()
        let probeTask = session.dataTask(with: request)
        let probes = 2_000
        let probeStart = clock.now
        for _ in 0..<probes { _ = CallerInspector.inspect(probeTask) }
        let microseconds = (clock.now - probeStart).seconds * 1e6 / Double(probes)
        probeTask.cancel()
        return microseconds
    }

    /// Prints each way's latency and rate, and their ratios to `direct`, then the reflection's cost.
    private func printTable(
        samples: [Way: [Double]],
        rates: [Way: (count: Int, seconds: Double)],
        inspectMicroseconds: Double
    ) {
        let baseline = Stats(samples[.direct] ?? []).median
        let baseRate = rates[.direct].map { Double($0.count) / $0.seconds } ?? .nan
        print("way      p50 µs  p99 µs  p50/direct   req/s (\(plan.width) in flight)  rate/direct")
        for way in Way.allCases {
            let stats = Stats(samples[way] ?? [])
            let rate = rates[way].map { Double($0.count) / $0.seconds } ?? .nan
            let cells = [
                way.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0),
                Report.format(stats.median, decimals: 0).leftPadded(7),
                Report.format(stats.percentile(99), decimals: 0).leftPadded(7),
                Report.format(stats.median / baseline, decimals: 2).leftPadded(11),
                Report.format(rate, decimals: 0).leftPadded(23),
                Report.format(rate / baseRate, decimals: 2).leftPadded(12),
            ]
            print(cells.joined(separator: " "))
        }
        print(
            "CallerInspector.inspect (reflection, once per intercepted request): "
                + "\(Report.format(inspectMicroseconds, decimals: 1)) µs per call"
        )
    }
}

extension String {
    /// The string right-aligned in a field of `width` characters.
    fileprivate func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}

/// A transport that answers every request at once with a fixed 200 body, without any network.
private struct SyntheticTransport: Transport {
    let body: Data

    func send(_ request: URLRequest, context: TransactionContext) async throws -> HandlerResponse {
        context.markRequestSent(request)
        return HandlerResponse(
            statusCode: 200,
            headers: ["Content-Type": "text/plain", "Content-Length": String(body.count)],
            url: request.url,
            body: .data(body)
        )
    }
}

/// The forwarding transport's way of sending a request, without NetTap around it: a session with a data
/// delegate on a serial operation queue, tasks created on a global queue, bytes gathered per task.
private final class InnerForwarder: NSObject, URLSessionDataDelegate, Sendable {
    private struct Pending {
        var data = Data()
        var continuation: CheckedContinuation<Int, any Error>
    }

    private let pending = Mutex<[Int: Pending]>([:])
    private let session = Mutex<URLSession?>(nil)

    override init() {
        super.init()
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let created = URLSession(configuration: .default, delegate: self, delegateQueue: queue)
        session.withLock { $0 = created }
    }

    func get(_ request: URLRequest) async throws -> Int {
        guard let session = session.withLock({ $0 }) else { throw BenchError("inner: no session") }
        return try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                let task = session.dataTask(with: request)
                self.pending.withLock { $0[task.taskIdentifier] = Pending(continuation: continuation) }
                task.resume()
            }
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        pending.withLock { $0[dataTask.taskIdentifier]?.data.append(data) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let entry = pending.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        if let error {
            entry.continuation.resume(throwing: error)
        } else {
            entry.continuation.resume(returning: entry.data.count)
        }
    }
}
