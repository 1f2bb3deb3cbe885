import Foundation
import NetTapCore
import NetTapCrypto
import NetTapMocking
import NetTapShaping
import NetTapStore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

#if canImport(Glibc)
import Glibc
#endif

/// The soak (`--only soak`, run by `scripts/soak`): many requests through NetTap at once, checked byte for byte,
/// while the process's resources are watched.
///
/// Sends `count` requests (20,000; 2,000 with `--quick`), 64 in flight, through one app session of an
/// interceptor whose pipeline has a `ShapingHandler` (10 ms and 10 MB/s for `?shaped=1`), a `MockHandler` (a
/// 4 KiB stub for `soak.nettap.example`) and the forwarding transport, with every transaction captured into a
/// `TransactionStore`. The mix, spread evenly: 40 % a 200-byte file and 2 % a 10 MiB file from nginx, 10 % the
/// small file shaped, 3 % 1 MiB uploads to nginx (204), 15 % POSTs of 1–64 KiB to httpbin's `/anything` (the
/// echoed `data` must be the body), 5 % httpbin `/get?i=N` (the echoed argument must be N), 25 % the stub.
/// Every body is checked by SHA-256 against the bytes fetched directly (without NetTap) before the run.
///
/// Resources: after the first 10 % (warm-up: the capture log is full and every kind of request has run many
/// times), once they have all finished, the resident memory, open file descriptors and threads are taken
/// as the baseline; then the other 90 % run; after the last request, the store's flush and the session's
/// invalidation (so connections kept for reuse, as many as happen to be open, are not counted), descriptors and
/// threads must come back to it (idle worker threads and connections get up to 15 s to go) and resident memory may have grown by less than 20 MiB.
/// `scripts/soak` runs it with a fixed glibc mmap threshold (`MALLOC_MMAP_THRESHOLD_`; the first line printed
/// says which), so resident memory measures what the program holds rather than glibc's arena retention.
/// Passing means: no wrong body, no failed request, the store sound (`PRAGMA integrity_check`), and those
/// three resource checks; the exit status of `nettap-bench` is 1 otherwise.
struct SoakBench {
    /// nginx: `/small.txt`, `/mid.bin` (10 MiB) and `POST /upload` (204).
    let base: URL
    /// httpbin.
    let httpbin: URL
    /// Requests in all.
    let count: Int
    /// Whether to send through a plain `URLSession` instead (for comparison: the stubbed requests are skipped,
    /// the shaped ones go unshaped, and the checks never fail the run).
    let direct: Bool
    /// Requests in flight.
    let width = 64

    /// What one request of the mix is.
    enum Kind: String, CaseIterable {
        case small, mid, shaped, upload, echo, query, mock
    }

    /// The mix per 100 requests.
    static let mix: [(Kind, Int)] = [
        (.small, 40), (.mid, 2), (.shaped, 10), (.upload, 3), (.echo, 15), (.query, 5), (.mock, 25),
    ]

    /// The kind of request `index`, spread so every stretch of 100 requests has the whole mix.
    static func kind(of index: Int) -> Kind {
        let table = mix.flatMap { kind, share in Array(repeating: kind, count: share) }
        return table[(index &* 37) % table.count]
    }

    /// The host the stub answers.
    static let mockHost = "soak.nettap.example"

    /// The stub's body: 4 KiB of deterministic bytes.
    static let mockBody = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 5) })

    /// What went wrong, for the report.
    private final class Tally: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var wrongBodies = 0
        private(set) var failures = 0
        private(set) var samples: [String] = []
        private(set) var byKind: [Kind: Int] = [:]

        func done(_ kind: Kind) {
            lock.withLock { byKind[kind, default: 0] += 1 }
        }

        func wrong(_ text: String) {
            lock.withLock {
                wrongBodies += 1
                if samples.count < 10 { samples.append(text) }
            }
        }

        func failed(_ text: String) {
            lock.withLock {
                failures += 1
                if samples.count < 10 { samples.append(text) }
            }
        }
    }

    /// Resource figures at one moment.
    struct Resources {
        var residentBytes: Int64
        var descriptors: Int
        var threads: Int

        /// The figures now; free memory the allocator caches is returned to the system first (glibc's
        /// `malloc_trim(0)`, every arena), so the resident figure is what the program holds, not what malloc
        /// keeps for later.
        static var now: Resources {
            _ = SoakBench.mallocTrim?(0)
            return Resources(
                residentBytes: ProcessMetrics.residentBytes ?? 0,
                descriptors: ProcessMetrics.openFileDescriptorCount() ?? 0,
                threads: ProcessMetrics.threadCount ?? 0
            )
        }
    }

    /// glibc's `malloc_trim(3)`, looked up at run time (the Glibc module does not export it); `nil` elsewhere.
    static let mallocTrim: (@convention(c) (Int) -> Int32)? = {
        #if canImport(Glibc)
        guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
        #else
        return nil
        #endif
    }()

    /// Runs the soak and prints the table.
    /// - Returns: Whether every check passed.
    /// - Throws: ``BenchError`` when the servers cannot be reached or the store cannot be opened.
    func run() async throws -> Bool {
        Self.printAllocator()
        let payloads = try await fetchPayloads()
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("nettap-soak-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try TransactionStore(url: directory.appendingPathComponent("soak.sqlite"))
        let interceptor = NetTapInterceptor()
        let storeToken = interceptor.captureLog.addObserver(store)
        let captured = Locked(0)
        let counter = interceptor.captureLog.addObserver(
            ClosureObserver { event in
                if case .finished = event { captured.withLock { $0 += 1 } }
            }
        )
        defer { interceptor.captureLog.removeObserver(counter) }
        interceptor.handlers = Self.handlers()
        var session: URLSession? = makeSession(for: interceptor)

        let tally = Tally()
        let warmUp = max(1, count / 10)
        let clock = ContinuousClock()
        let start = clock.now
        var finished = 0
        // The baseline is taken with nothing in flight, as the end is: otherwise it would count whichever
        // 10 MiB bodies happened to be in transfer at that moment.
        await sendAll(0..<warmUp, session: session, payloads: payloads, tally: tally, finished: &finished)
        try? await store.flush()
        let baseline = Resources.now
        Log.detail("warm-up done (\(warmUp) requests, none in flight): \(Self.describe(baseline))")
        await sendAll(warmUp..<count, session: session, payloads: payloads, tally: tally, finished: &finished)
        let elapsed = start.duration(to: clock.now)
        let storeProblem = await Self.problem(of: store)
        let stored = (try? await store.count()) ?? 0
        interceptor.captureLog.removeObserver(storeToken)
        let capturedCount = captured.current
        // The session goes, as an app's would, and with it the connections it kept for reuse.
        session?.finishTasksAndInvalidate()
        session = nil

        let outcome = Outcome(
            captured: capturedCount,
            stored: stored,
            storeProblem: storeProblem,
            baseline: baseline,
            end: await Self.resourcesOnceIdle(comparedWith: baseline, clock: clock),
            elapsed: elapsed
        )
        let checks = checks(of: outcome, tally: tally)
        printReport(outcome, checks: checks, tally: tally)
        return direct || checks.allSatisfy(\.3)
    }

    /// The expected bodies' SHA-256 digests, fetched without NetTap, and the upload's bytes.
    private struct Payloads {
        var small: Data
        var mid: Data
        var mock: Data
        var upload: Data
    }

    /// What the run measured, for the checks and the report.
    private struct Outcome {
        /// The transactions the capture log finished.
        var captured: Int
        /// The transactions the store kept.
        var stored: Int
        /// Why the store is not sound, or `nil`.
        var storeProblem: String?
        /// The resources after the warm-up.
        var baseline: Resources
        /// The resources at the end, once idle threads and connections went.
        var end: Resources
        /// The time the requests took.
        var elapsed: Duration
    }

    /// Says which glibc mmap threshold this run has: resident memory depends on it (see scripts/soak).
    private static func printAllocator() {
        let threshold = ProcessInfo.processInfo.environment["MALLOC_MMAP_THRESHOLD_"]
        print(
            "allocator: "
                + (threshold.map { "MALLOC_MMAP_THRESHOLD_=\($0) (large blocks always mapped)" }
                    ?? "glibc defaults (dynamic mmap threshold)")
        )
    }

    /// Fetches the server's files directly and digests what every body must be.
    private func fetchPayloads() async throws -> Payloads {
        let small = try await Self.fetchDirectly(base.appendingPathComponent("small.txt"))
        let mid = try await Self.fetchDirectly(base.appendingPathComponent("mid.bin"))
        guard mid.count == 10 * 1024 * 1024 else {
            throw BenchError("soak: \(base.absoluteString)/mid.bin has \(mid.count) bytes, not 10 MiB")
        }
        return Payloads(
            small: try StreamingDigest.hash(small, using: .sha256),
            mid: try StreamingDigest.hash(mid, using: .sha256),
            mock: try StreamingDigest.hash(Self.mockBody, using: .sha256),
            upload: Data(repeating: 0x61, count: 1024 * 1024)
        )
    }

    /// The pipeline: shaping for `?shaped=1`, then the stub for ``mockHost``.
    private static func handlers() -> [any TransactionHandler] {
        let shaped = NetworkProfile(latency: .milliseconds(10), downloadBytesPerSecond: 10_000_000)
        return [
            ShapingHandler(shaper: NetworkShaper(rules: [ShapingRule(.query(["shaped": "1"]), profile: shaped)])),
            MockHandler(
                mocks: MockSet(stubs: [
                    Stub("soak item", matching: .host(Self.mockHost), response: .data(Self.mockBody))
                ])
            ),
        ]
    }

    /// The app session: 16 connections per host, 120 s per request; through NetTap unless ``direct``.
    private func makeSession(for interceptor: NetTapInterceptor) -> URLSession {
        let configuration = URLSessionConfiguration.default
        configuration.httpMaximumConnectionsPerHost = 16
        configuration.timeoutIntervalForRequest = 120
        return direct ? URLSession(configuration: configuration) : interceptor.makeSession(configuration: configuration)
    }

    /// Sends requests `range`, ``width`` at a time, and returns when all of them are done; `finished` counts the
    /// requests done in the whole run, for a progress line every tenth.
    private func sendAll(
        _ range: Range<Int>,
        session: URLSession?,
        payloads: Payloads,
        tally: Tally,
        finished: inout Int
    ) async {
        guard let session else { return }
        var next = range.lowerBound
        await withTaskGroup(of: Void.self) { group in
            func add(_ index: Int) {
                group.addTask {
                    await self.send(index, session: session, payloads: payloads, tally: tally)
                }
            }
            while next < min(range.lowerBound + width, range.upperBound) {
                add(next)
                next += 1
            }
            for await _ in group {
                finished += 1
                if finished % max(1, count / 10) == 0 {
                    Log.detail("\(finished) of \(count) requests: \(Self.describe(Resources.now))")
                }
                if next < range.upperBound {
                    add(next)
                    next += 1
                }
            }
        }
    }

    /// Flushes the store and checks it: `nil` when sound, else what is wrong.
    private static func problem(of store: TransactionStore) async -> String? {
        do {
            try await store.flush()
            let check = try await store.integrityCheck()
            if check != ["ok"] { return "integrity_check: \(check.joined(separator: "; "))" }
        } catch {
            return "\(error)"
        }
        return nil
    }

    /// The resources once threads and descriptors are back to `reference`, or after 15 s (idle worker threads
    /// and connections may take a moment to go).
    private static func resourcesOnceIdle(
        comparedWith reference: Resources,
        clock: ContinuousClock
    ) async -> Resources {
        var end = Resources.now
        let deadline = clock.now + .seconds(15)
        while clock.now < deadline, end.threads > reference.threads || end.descriptors > reference.descriptors {
            try? await Task.sleep(for: .milliseconds(250))
            end = Resources.now
        }
        return end
    }

    /// The checks' rows: figure, target, achieved and whether it passed.
    private func checks(of outcome: Outcome, tally: Tally) -> [(String, String, String, Bool)] {
        let reference = outcome.baseline
        let end = outcome.end
        let growth = end.residentBytes - reference.residentBytes
        return [
            (
                "requests NetTap captured", direct ? "0 (direct)" : "\(count)", "\(outcome.captured)",
                outcome.captured == (direct ? 0 : count)
            ),
            ("wrong bodies (SHA-256)", "0", "\(tally.wrongBodies)", tally.wrongBodies == 0),
            ("failed requests", "0", "\(tally.failures)", tally.failures == 0),
            ("store sound (integrity_check)", "ok", outcome.storeProblem ?? "ok", outcome.storeProblem == nil),
            (
                "open descriptors after (baseline \(reference.descriptors))", "≤ baseline", "\(end.descriptors)",
                end.descriptors <= reference.descriptors
            ),
            (
                "threads after (baseline \(reference.threads))", "≤ baseline", "\(end.threads)",
                end.threads <= reference.threads
            ),
            (
                "resident memory growth after warm-up (MiB)", "< 20",
                Report.format(Double(growth) / 1_048_576, decimals: 1),
                growth < 20 * 1_048_576
            ),
        ]
    }

    /// Prints the checks' table, the run's figures, the resources at the end and the first problems.
    private func printReport(_ outcome: Outcome, checks: [(String, String, String, Bool)], tally: Tally) {
        let elapsed = outcome.elapsed
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        print("")
        if direct { print("plain URLSession, for comparison (these checks do not fail the run):") }
        print(
            Columns.render(
                [["figure", "target", "achieved", "result"]]
                    + checks.map { [$0.0, $0.1, $0.2, $0.3 ? "PASS" : "FAIL"] }
            )
        )
        print("")
        let kinds = Kind.allCases.map { "\($0.rawValue) \(tally.byKind[$0] ?? 0)" }.joined(separator: ", ")
        print(
            "soak: \(count) requests, \(width) in flight, in \(Report.format(seconds, decimals: 1)) s "
                + "(\(Report.format(Double(count) / seconds, decimals: 0))/s); \(kinds); \(outcome.stored) transactions "
                + "kept in the store (within its size limit)"
        )
        print("soak: at the end \(Self.describe(outcome.end))")
        for sample in tally.samples { print("soak: \(sample)") }
    }

    /// What one request is and what must come back.
    private struct Expectation {
        var request: URLRequest
        /// The body's SHA-256, when it is known in advance.
        var digest: Data?
        var status = 200
        /// The body httpbin must echo as `data`.
        var echoed: Data?
    }

    /// Request `index` of the mix, or `nil` for a stubbed one sent ``direct`` (nothing answers it without NetTap).
    private func expectation(for index: Int, kind: Kind, payloads: Payloads) -> Expectation? {
        switch kind {
        case .small:
            let url = base.appendingPathComponent("small.txt")
            return Expectation(request: URLRequest(url: url), digest: payloads.small)
        case .mid:
            let url = base.appendingPathComponent("mid.bin")
            return Expectation(request: URLRequest(url: url), digest: payloads.mid)
        case .shaped:
            let url = URL(string: base.absoluteString + "/small.txt?shaped=1") ?? base
            return Expectation(request: URLRequest(url: url), digest: payloads.small)
        case .upload:
            var request = URLRequest(url: base.appendingPathComponent("upload"))
            request.httpMethod = "POST"
            request.httpBody = payloads.upload
            return Expectation(request: request, status: 204)
        case .echo:
            let size = 1024 + (index &* 7919) % (63 * 1024)
            let body = Data((0..<size).map { UInt8(ascii: "a") + UInt8(($0 &+ index) % 26) })
            var request = URLRequest(url: httpbin.appendingPathComponent("anything"))
            request.httpMethod = "POST"
            request.httpBody = body
            request.setValue("text/plain", forHTTPHeaderField: "Content-Type")
            return Expectation(request: request, echoed: body)
        case .query:
            let url = URL(string: httpbin.absoluteString + "/get?i=\(index)") ?? httpbin
            return Expectation(request: URLRequest(url: url))
        case .mock:
            if direct { return nil }
            let url = URL(string: "http://\(Self.mockHost)/item/\(index)") ?? base
            return Expectation(request: URLRequest(url: url), digest: payloads.mock)
        }
    }

    /// Sends request `index` and checks what came back.
    private func send(_ index: Int, session: URLSession, payloads: Payloads, tally: Tally) async {
        let kind = Self.kind(of: index)
        guard let expectation = expectation(for: index, kind: kind, payloads: payloads) else {
            tally.done(kind)
            return
        }
        do {
            let (data, response) = try await session.data(for: expectation.request)
            if let problem = try Self.problem(with: data, response: response, expected: expectation, kind, index) {
                tally.wrong(problem)
            } else {
                tally.done(kind)
            }
        } catch {
            tally.failed("\(kind.rawValue) #\(index): \(error)")
        }
    }

    /// What is wrong with the answer to request `index`, or `nil` when it is right.
    /// - Throws: When the body cannot be digested, or an echo or query answer is not JSON.
    private static func problem(
        with data: Data,
        response: URLResponse,
        expected: Expectation,
        _ kind: Kind,
        _ index: Int
    ) throws -> String? {
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard status == expected.status else {
            return "\(kind.rawValue) #\(index): status \(status), expected \(expected.status)"
        }
        if let digest = expected.digest, try StreamingDigest.hash(data, using: .sha256) != digest {
            return "\(kind.rawValue) #\(index): \(data.count) bytes with another SHA-256"
        }
        if let echoed = expected.echoed {
            let json = try JSONSerialization.jsonObject(with: data) as? [String: Any]
            let text = json?["data"] as? String ?? ""
            if try StreamingDigest.hash(Data(text.utf8), using: .sha256)
                != StreamingDigest.hash(echoed, using: .sha256)
            {
                return "echo #\(index): the echoed body differs (\(text.utf8.count) of \(echoed.count) bytes)"
            }
        }
        if kind == .query {
            let json = try JSONSerialization.jsonObject(with: data) as? [String: Any]
            let arguments = json?["args"] as? [String: Any]
            if arguments?["i"] as? String != "\(index)" {
                return "query #\(index): args \(String(describing: arguments))"
            }
        }
        return nil
    }

    /// The bytes of `url` fetched without NetTap.
    private static func fetchDirectly(_ url: URL) async throws -> Data {
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        let (data, response) = try await session.data(from: url)
        guard (response as? HTTPURLResponse)?.statusCode == 200 else {
            throw BenchError("soak: \(url.absoluteString) did not answer 200 (run scripts/soak, which starts nginx)")
        }
        return data
    }

    private static func describe(_ resources: Resources) -> String {
        let mebibytes = { (bytes: Int64?) in Report.format(Double(bytes ?? 0) / 1_048_576, decimals: 1) }
        return "resident \(mebibytes(resources.residentBytes)) MiB (anonymous "
            + "\(mebibytes(ProcessMetrics.statusField("RssAnon"))), file \(mebibytes(ProcessMetrics.statusField("RssFile")))), "
            + "\(resources.descriptors) descriptors, \(resources.threads) threads"
    }
}

/// A capture-log observer that calls a closure for every event.
struct ClosureObserver: TransactionObserver {
    let body: @Sendable (TransactionEvent) -> Void

    init(_ body: @escaping @Sendable (TransactionEvent) -> Void) {
        self.body = body
    }

    func observe(_ event: TransactionEvent) {
        body(event)
    }
}
