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
        // Resident memory depends on glibc's mmap threshold (see scripts/soak): say which one this run has.
        let threshold = ProcessInfo.processInfo.environment["MALLOC_MMAP_THRESHOLD_"]
        print(
            "allocator: "
                + (threshold.map { "MALLOC_MMAP_THRESHOLD_=\($0) (large blocks always mapped)" }
                    ?? "glibc defaults (dynamic mmap threshold)")
        )
        let small = try await Self.fetchDirectly(base.appendingPathComponent("small.txt"))
        let mid = try await Self.fetchDirectly(base.appendingPathComponent("mid.bin"))
        guard mid.count == 10 * 1024 * 1024 else {
            throw BenchError("soak: \(base.absoluteString)/mid.bin has \(mid.count) bytes, not 10 MiB")
        }
        let smallDigest = try StreamingDigest.hash(small, using: .sha256)
        let midDigest = try StreamingDigest.hash(mid, using: .sha256)
        let mockDigest = try StreamingDigest.hash(Self.mockBody, using: .sha256)
        let upload = Data(repeating: 0x61, count: 1024 * 1024)

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
        let shaped = NetworkProfile(latency: .milliseconds(10), downloadBytesPerSecond: 10_000_000)
        interceptor.handlers = [
            ShapingHandler(shaper: NetworkShaper(rules: [ShapingRule(.query(["shaped": "1"]), profile: shaped)])),
            MockHandler(
                mocks: MockSet(stubs: [
                    Stub("soak item", matching: .host(Self.mockHost), response: .data(Self.mockBody))
                ])
            ),
        ]
        let configuration = URLSessionConfiguration.default
        configuration.httpMaximumConnectionsPerHost = 16
        configuration.timeoutIntervalForRequest = 120
        var session: URLSession? =
            direct ? URLSession(configuration: configuration) : interceptor.makeSession(configuration: configuration)

        let tally = Tally()
        let warmUp = max(1, count / 10)
        var baseline: Resources?
        let clock = ContinuousClock()
        let start = clock.now
        var finished = 0
        // Sends requests `range`, `width` at a time, and returns when all of them are done.
        func sendAll(_ range: Range<Int>) async {
            guard let session else { return }
            var next = range.lowerBound
            await withTaskGroup(of: Void.self) { group in
                func add(_ index: Int) {
                    group.addTask {
                        await self.send(
                            index,
                            session: session,
                            digests: (small: smallDigest, mid: midDigest, mock: mockDigest),
                            upload: upload,
                            tally: tally
                        )
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
        // The baseline is taken with nothing in flight, as the end is: otherwise it would count whichever
        // 10 MiB bodies happened to be in transfer at that moment.
        await sendAll(0..<warmUp)
        try? await store.flush()
        baseline = Resources.now
        Log.detail("warm-up done (\(warmUp) requests, none in flight): \(Self.describe(baseline ?? Resources.now))")
        await sendAll(warmUp..<count)
        let elapsed = start.duration(to: clock.now)
        var storeProblem: String?
        do {
            try await store.flush()
            let check = try await store.integrityCheck()
            if check != ["ok"] { storeProblem = "integrity_check: \(check.joined(separator: "; "))" }
        } catch {
            storeProblem = "\(error)"
        }
        let stored = (try? await store.count()) ?? 0
        interceptor.captureLog.removeObserver(storeToken)
        let capturedCount = captured.current
        // The session goes, as an app's would, and with it the connections it kept for reuse.
        session?.finishTasksAndInvalidate()
        session = nil

        // Idle worker threads and connections may take a moment to go; wait for them, up to 15 s.
        let reference = baseline ?? Resources.now
        var end = Resources.now
        let deadline = clock.now + .seconds(15)
        while clock.now < deadline, end.threads > reference.threads || end.descriptors > reference.descriptors {
            try? await Task.sleep(for: .milliseconds(250))
            end = Resources.now
        }
        let growth = end.residentBytes - reference.residentBytes
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let checks: [(String, String, String, Bool)] = [
            (
                "requests NetTap captured", direct ? "0 (direct)" : "\(count)", "\(capturedCount)",
                capturedCount == (direct ? 0 : count)
            ),
            ("wrong bodies (SHA-256)", "0", "\(tally.wrongBodies)", tally.wrongBodies == 0),
            ("failed requests", "0", "\(tally.failures)", tally.failures == 0),
            ("store sound (integrity_check)", "ok", storeProblem ?? "ok", storeProblem == nil),
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
                + "(\(Report.format(Double(count) / seconds, decimals: 0))/s); \(kinds); \(stored) transactions kept "
                + "in the store (within its size limit)"
        )
        print("soak: at the end \(Self.describe(end))")
        for sample in tally.samples { print("soak: \(sample)") }
        return direct || checks.allSatisfy(\.3)
    }

    /// Sends request `index` and checks what came back.
    private func send(
        _ index: Int,
        session: URLSession,
        digests: (small: Data, mid: Data, mock: Data),
        upload: Data,
        tally: Tally
    ) async {
        let kind = Self.kind(of: index)
        var request: URLRequest
        var expected: Data?
        var expectedStatus = 200
        var echoed: Data?
        switch kind {
        case .small:
            request = URLRequest(url: base.appendingPathComponent("small.txt"))
            expected = digests.small
        case .mid:
            request = URLRequest(url: base.appendingPathComponent("mid.bin"))
            expected = digests.mid
        case .shaped:
            request = URLRequest(url: URL(string: base.absoluteString + "/small.txt?shaped=1") ?? base)
            expected = digests.small
        case .upload:
            request = URLRequest(url: base.appendingPathComponent("upload"))
            request.httpMethod = "POST"
            request.httpBody = upload
            expectedStatus = 204
        case .echo:
            let size = 1024 + (index &* 7919) % (63 * 1024)
            let body = Data((0..<size).map { UInt8(ascii: "a") + UInt8(($0 &+ index) % 26) })
            request = URLRequest(url: httpbin.appendingPathComponent("anything"))
            request.httpMethod = "POST"
            request.httpBody = body
            request.setValue("text/plain", forHTTPHeaderField: "Content-Type")
            echoed = body
        case .query:
            request = URLRequest(url: URL(string: httpbin.absoluteString + "/get?i=\(index)") ?? httpbin)
        case .mock:
            if direct {
                // Nothing answers the stub's host without NetTap.
                tally.done(kind)
                return
            }
            request = URLRequest(url: URL(string: "http://\(Self.mockHost)/item/\(index)") ?? base)
            expected = digests.mock
        }
        do {
            let (data, response) = try await session.data(for: request)
            let status = (response as? HTTPURLResponse)?.statusCode ?? 0
            guard status == expectedStatus else {
                tally.wrong("\(kind.rawValue) #\(index): status \(status), expected \(expectedStatus)")
                return
            }
            if let expected, try StreamingDigest.hash(data, using: .sha256) != expected {
                tally.wrong("\(kind.rawValue) #\(index): \(data.count) bytes with another SHA-256")
                return
            }
            if let echoed {
                let json = try JSONSerialization.jsonObject(with: data) as? [String: Any]
                let text = json?["data"] as? String ?? ""
                if try StreamingDigest.hash(Data(text.utf8), using: .sha256)
                    != StreamingDigest.hash(echoed, using: .sha256)
                {
                    tally.wrong("echo #\(index): the echoed body differs (\(text.utf8.count) of \(echoed.count) bytes)")
                    return
                }
            }
            if kind == .query {
                let json = try JSONSerialization.jsonObject(with: data) as? [String: Any]
                let arguments = json?["args"] as? [String: Any]
                if arguments?["i"] as? String != "\(index)" {
                    tally.wrong("query #\(index): args \(String(describing: arguments))")
                    return
                }
            }
            tally.done(kind)
        } catch {
            tally.failed("\(kind.rawValue) #\(index): \(error)")
        }
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
