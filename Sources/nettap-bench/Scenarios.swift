import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How many requests, rounds and processes each scenario uses.
struct Plan {
    /// Sequential small GETs per variant for the latency figures (after the warm-up).
    var latencyCount: Int
    /// Unmeasured sequential GETs per variant before the latency rounds.
    var latencyWarmUp: Int
    /// Rounds the latency requests are split into; variants alternate within each round.
    var latencyRounds: Int
    /// Small GETs per variant for the throughput figure.
    var throughputCount: Int
    /// Rounds the throughput requests are split into.
    var throughputRounds: Int
    /// Requests in flight at once in the throughput and resources scenarios.
    var width = 16
    /// Download rounds; each round runs one child per variant and caller kind.
    var downloadRounds: Int
    /// Small GETs a resources child sends in its measured part.
    var resourcesCount: Int

    /// The full run: 2,000 latency samples and 5,000 throughput requests per variant, 3 download rounds,
    /// 10,000 requests per resources child.
    static let full = Plan(
        latencyCount: 2_000,
        latencyWarmUp: 200,
        latencyRounds: 20,
        throughputCount: 5_000,
        throughputRounds: 5,
        downloadRounds: 3,
        resourcesCount: 10_000
    )

    /// The smoke run: small counts, one download round.
    static let quick = Plan(
        latencyCount: 200,
        latencyWarmUp: 50,
        latencyRounds: 4,
        throughputCount: 500,
        throughputRounds: 2,
        downloadRounds: 1,
        resourcesCount: 1_000
    )
}

/// The scenarios the parent process runs and the rows they add to the report.
///
/// Latency and throughput run in this process with one session per variant, alternating the variants round by
/// round. Downloads and the resources check run each variant in a child process of its own.
struct Scenarios {
    /// The server's base URL, for example `http://127.0.0.1:8080`.
    let base: URL
    /// The counts.
    let plan: Plan
    /// One session per variant, created once.
    let sessions: [Variant: URLSession]
    /// The small file's size in bytes (learned from the first request).
    let smallBytes: Int

    /// The small file (about 200 bytes).
    var smallURL: URL { base.appendingPathComponent("small.txt") }
    /// The big file (256 MiB).
    var bigURL: URL { base.appendingPathComponent("big.bin") }

    /// Creates both sessions and checks that the server answers the small file the same way to both.
    /// - Parameters:
    ///   - base: The server's base URL.
    ///   - plan: The counts.
    /// - Throws: ``BenchError`` when the server does not answer 200, or the two variants disagree.
    init(base: URL, plan: Plan) async throws {
        self.base = base
        self.plan = plan
        var sessions: [Variant: URLSession] = [:]
        for variant in Variant.allCases { sessions[variant] = variant.makeSession() }
        self.sessions = sessions
        let small = URLRequest(url: base.appendingPathComponent("small.txt"))
        let direct = try await Fetch.get(small, on: Self.session(.direct, in: sessions), expectedBytes: nil)
        try await Fetch.get(small, on: Self.session(.nettap, in: sessions), expectedBytes: direct)
        smallBytes = direct
    }

    private static func session(_ variant: Variant, in sessions: [Variant: URLSession]) throws -> URLSession {
        guard let session = sessions[variant] else { throw BenchError("no session for \(variant.label)") }
        return session
    }

    /// This process's session for `variant`.
    /// - Parameter variant: The variant.
    /// - Returns: The session created in ``init(base:plan:)``.
    /// - Throws: ``BenchError`` when it is missing (it never is).
    func session(_ variant: Variant) throws -> URLSession {
        try Self.session(variant, in: sessions)
    }

    // MARK: - 1. Latency

    /// Sequential small GETs with `data(for:)`; p50 and p99 per variant, in microseconds.
    /// - Returns: The p50 row (target ≤ 1.25) and the p99 row (information).
    /// - Throws: The first failed request.
    func latency() async throws -> [Row] {
        let request = URLRequest(url: smallURL)
        for variant in Variant.order(forRound: 0) {
            for _ in 0..<plan.latencyWarmUp {
                try await Fetch.get(request, on: session(variant), expectedBytes: smallBytes)
            }
        }
        var samples: [Variant: [Double]] = [:]
        let perRound = max(1, plan.latencyCount / plan.latencyRounds)
        let clock = ContinuousClock()
        for round in 0..<plan.latencyRounds {
            for variant in Variant.order(forRound: round) {
                let session = try session(variant)
                for _ in 0..<perRound {
                    let start = clock.now
                    try await Fetch.get(request, on: session, expectedBytes: smallBytes)
                    samples[variant, default: []].append((clock.now - start).seconds * 1e6)
                }
            }
        }
        let direct = Stats(samples[.direct] ?? [])
        let nettap = Stats(samples[.nettap] ?? [])
        Log.detail(
            "latency µs (n=\(direct.count) each)  direct: mean \(Report.format(direct.mean, decimals: 0)) "
                + "p90 \(Report.format(direct.percentile(90), decimals: 0)) "
                + "max \(Report.format(direct.maximum, decimals: 0))  |  NetTap: mean "
                + "\(Report.format(nettap.mean, decimals: 0)) p90 \(Report.format(nettap.percentile(90), decimals: 0)) "
                + "max \(Report.format(nettap.maximum, decimals: 0))"
        )
        return [
            Row(
                figure: "small GET latency p50 (µs)",
                direct: direct.median,
                nettap: nettap.median,
                decimals: 0,
                comparison: .ratio,
                target: .ratioAtMost(1.25)
            ),
            Row(
                figure: "small GET latency p99 (µs)",
                direct: direct.percentile(99),
                nettap: nettap.percentile(99),
                decimals: 0,
                comparison: .ratio,
                target: nil
            ),
        ]
    }

    // MARK: - 2. Throughput

    /// Small GETs with 16 in flight; requests per second per variant.
    /// - Returns: The throughput row (target ≥ 0.85).
    /// - Throws: The first failed request.
    func throughput() async throws -> [Row] {
        let request = URLRequest(url: smallURL)
        for variant in Variant.order(forRound: 0) {
            _ = try await Fetch.concurrently(
                count: plan.width * 10,
                width: plan.width,
                request: request,
                on: session(variant),
                expectedBytes: smallBytes
            )
        }
        var seconds: [Variant: Double] = [:]
        var counts: [Variant: Int] = [:]
        var perRoundRates: [Variant: [String]] = [:]
        let perRound = max(plan.width, plan.throughputCount / plan.throughputRounds)
        for round in 0..<plan.throughputRounds {
            for variant in Variant.order(forRound: round) {
                let elapsed = try await Fetch.concurrently(
                    count: perRound,
                    width: plan.width,
                    request: request,
                    on: session(variant),
                    expectedBytes: smallBytes
                )
                seconds[variant, default: 0] += elapsed.seconds
                counts[variant, default: 0] += perRound
                perRoundRates[variant, default: []].append(
                    Report.format(Double(perRound) / elapsed.seconds, decimals: 0)
                )
            }
        }
        func rate(_ variant: Variant) -> Double {
            Double(counts[variant] ?? 0) / (seconds[variant] ?? .nan)
        }
        Log.detail(
            "throughput req/s per round  direct: \((perRoundRates[.direct] ?? []).joined(separator: " "))  |  "
                + "NetTap: \((perRoundRates[.nettap] ?? []).joined(separator: " "))"
        )
        return [
            Row(
                figure: "small GET throughput, \(plan.width) in flight (req/s)",
                direct: rate(.direct),
                nettap: rate(.nettap),
                decimals: 0,
                comparison: .ratio,
                target: .ratioAtLeast(0.85)
            )
        ]
    }

    // MARK: - 3. Download

    /// Downloads the big file in child processes, per caller kind and variant, alternating the variants.
    /// - Returns: Per caller kind: MB/s (median over rounds; target ≥ 0.8) and the peak RSS growth (largest
    ///   over rounds; the delegate row's target is direct + 32 MiB).
    /// - Throws: ``BenchError`` when a child fails.
    func download() async throws -> [Row] {
        let expected = try await bigFileLength()
        var reports: [String: [Variant: [ChildReport]]] = [:]
        let modes = ["delegate", "completion"]
        for round in 0..<plan.downloadRounds {
            for mode in modes {
                for variant in Variant.order(forRound: round) {
                    let report = try await ChildProcess.run([
                        "download", "--mode", mode, "--via", variant.rawValue, "--url", bigURL.absoluteString,
                        "--warm-up-url", smallURL.absoluteString, "--expect-bytes", String(expected),
                    ])
                    Log.detail(
                        "download round \(round + 1) \(mode) \(variant.label): "
                            + "\(Report.format(Self.megabytesPerSecond(report), decimals: 1)) MB/s, peak RSS "
                            + "\(Report.signed(Self.mebibytes(report.peakResidentDelta), decimals: 1)) MiB "
                            + "(baseline \(Report.format(Self.mebibytes(report.baselineResidentBytes), decimals: 1)) MiB"
                            + (report.peakWasReset ? ")" : ", peak not reset)")
                    )
                    reports[mode, default: [:]][variant, default: []].append(report)
                }
            }
        }
        var rows: [Row] = []
        for mode in modes {
            let byVariant = reports[mode] ?? [:]
            func rate(_ variant: Variant) -> Double {
                Stats((byVariant[variant] ?? []).map(Self.megabytesPerSecond)).median
            }
            func peak(_ variant: Variant) -> Double {
                Stats((byVariant[variant] ?? []).map { Self.mebibytes($0.peakResidentDelta) }).maximum
            }
            rows.append(
                Row(
                    figure: "256 MiB download, \(mode) caller (MB/s)",
                    direct: rate(.direct),
                    nettap: rate(.nettap),
                    decimals: 1,
                    comparison: .ratio,
                    target: .ratioAtLeast(0.8)
                )
            )
            rows.append(
                Row(
                    figure: "256 MiB download, \(mode) caller, peak RSS growth (MiB)",
                    direct: peak(.direct),
                    nettap: peak(.nettap),
                    decimals: 1,
                    comparison: .difference,
                    target: mode == "delegate" ? .differenceAtMost(32) : nil
                )
            )
        }
        return rows
    }

    private func bigFileLength() async throws -> Int64 {
        var head = URLRequest(url: bigURL)
        head.httpMethod = "HEAD"
        let (_, response) = try await session(.direct).data(for: head)
        guard let http = response as? HTTPURLResponse, http.statusCode == 200, http.expectedContentLength > 0 else {
            throw BenchError("\(bigURL): HEAD did not answer 200 with a Content-Length")
        }
        return http.expectedContentLength
    }

    // MARK: - 4. Resources

    /// Sends many small requests in a child per variant and compares RSS and open descriptors before and after.
    /// - Returns: The RSS growth row (information) and the descriptor growth row (target: NetTap grows by 0).
    /// - Throws: ``BenchError`` when a child fails.
    func resources() async throws -> [Row] {
        var reports: [Variant: ChildReport] = [:]
        for variant in Variant.order(forRound: 0) {
            let report = try await ChildProcess.run([
                "resources", "--via", variant.rawValue, "--url", smallURL.absoluteString,
                "--count", String(plan.resourcesCount), "--expect-bytes", String(smallBytes),
            ])
            Log.detail(
                "resources \(variant.label): \(report.requests) requests in "
                    + "\(Report.format(report.seconds, decimals: 2)) s, RSS "
                    + "\(Report.format(Self.mebibytes(report.baselineResidentBytes), decimals: 1)) → "
                    + "\(Report.format(Self.mebibytes(report.endResidentBytes), decimals: 1)) MiB, fds "
                    + "\(report.fileDescriptorsBefore) → \(report.fileDescriptorsAfter)"
                    + (report.fileDescriptorKindChanges.isEmpty ? "" : " (\(report.fileDescriptorKindChanges))")
                    + (report.capturedTransactions.map { ", capture log holds \($0)" } ?? "")
            )
            reports[variant] = report
        }
        guard let direct = reports[.direct], let nettap = reports[.nettap] else {
            throw BenchError("resources: a variant did not report")
        }
        let count = plan.resourcesCount.formatted(.number)
        return [
            Row(
                figure: "RSS growth after \(count) requests (MiB)",
                direct: Self.mebibytes(direct.residentDelta),
                nettap: Self.mebibytes(nettap.residentDelta),
                decimals: 1,
                comparison: .difference,
                target: nil
            ),
            Row(
                figure: "open fd growth after \(count) requests",
                direct: Double(direct.fileDescriptorDelta),
                nettap: Double(nettap.fileDescriptorDelta),
                decimals: 0,
                comparison: .difference,
                target: .valueAtMost(0)
            ),
        ]
    }

    // MARK: - Units

    private static func megabytesPerSecond(_ report: ChildReport) -> Double {
        Double(report.bytes) / report.seconds / 1e6
    }

    private static func mebibytes(_ bytes: Int64) -> Double {
        Double(bytes) / 1_048_576
    }
}

/// Progress and detail lines, printed as they happen so a long run shows where it is.
enum Log {
    /// Prints one detail line (`  · text`).
    /// - Parameter text: The line.
    static func detail(_ text: String) {
        print("  · \(text)")
        fflush(nil)
    }

    /// Prints one progress line (`== text`).
    /// - Parameter text: The line.
    static func step(_ text: String) {
        print("== \(text)")
        fflush(nil)
    }
}
