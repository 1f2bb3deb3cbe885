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
/// Latency runs in this process with one session per variant (and one client per ``Route``), alternating round by
/// round. Throughput, downloads and the resources check run each variant in a child process of its own.
struct Scenarios {
    /// The server's base URL, for example `http://127.0.0.1:8080`.
    let base: URL
    /// The counts.
    let plan: Plan
    /// One session per variant, created once.
    let sessions: [Variant: URLSession]
    /// The small file's size in bytes (learned from the first request).
    let smallBytes: Int
    /// The small file's bytes, as the server answers them to a plain URLSession.
    let smallBody: Data
    /// The base URL of the server's HTTPS listener, for the `https` scenario.
    let tlsBase: URL?

    /// The small file (about 200 bytes).
    var smallURL: URL { base.appendingPathComponent("small.txt") }
    /// The big file (256 MiB).
    var bigURL: URL { base.appendingPathComponent("big.bin") }

    /// Creates both sessions and checks that the server answers the small file the same way to both.
    /// - Parameters:
    ///   - base: The server's base URL.
    ///   - tlsBase: The base URL of its HTTPS listener, or `nil` when there is none.
    ///   - plan: The counts.
    /// - Throws: ``BenchError`` when the server does not answer 200, or the two variants disagree.
    init(base: URL, tlsBase: URL?, plan: Plan) async throws {
        self.base = base
        self.tlsBase = tlsBase
        self.plan = plan
        var sessions: [Variant: URLSession] = [:]
        for variant in Variant.allCases { sessions[variant] = variant.makeSession() }
        self.sessions = sessions
        let small = URLRequest(url: base.appendingPathComponent("small.txt"))
        let (body, response) = try await Self.session(.direct, in: sessions).data(for: small)
        guard (response as? HTTPURLResponse)?.statusCode == 200 else {
            throw BenchError("\(small.url?.absoluteString ?? "?"): the server did not answer 200")
        }
        try await Fetch.get(
            small,
            on: Self.session(.nettap, in: sessions),
            expectedBytes: body.count,
            expectedBody: body
        )
        smallBytes = body.count
        smallBody = body
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

    /// Sequential small GETs per route (direct, floor, NetTap, peer) in this process; p50 and p99 in
    /// microseconds, every body checked.
    /// - Returns: The p50 rows (NetTap's target ≤ 0.8) and the p99 rows (information), floor, NetTap and peer
    ///   each against direct.
    /// - Throws: The first failed request.
    func latency() async throws -> [Row] {
        let (stats, _) = try await routeLatency(url: smallURL, name: "small")
        return Self.latencyRows("small GET latency p50 (µs)", stats: stats, percentile: 50, target: .ratioAtMost(0.8))
            + Self.latencyRows("small GET latency p99 (µs)", stats: stats, percentile: 99, target: nil)
    }

    // MARK: - 2. Throughput

    /// Small GETs with 16 in flight, one child process per route and round; requests per second and CPU time
    /// per request.
    /// - Returns: The throughput rows (NetTap's target ≥ 1.5) and the CPU rows (information).
    /// - Throws: ``BenchError`` when a child fails.
    func throughput() async throws -> [Row] {
        let rates = try await routeThroughput(url: smallURL, name: "small")
        return Self.throughputRows(prefix: "", rates: rates, width: plan.width, target: .ratioAtLeast(1.5))
    }

    // MARK: - 3. Download

    /// Downloads the big file in child processes, per caller kind and variant, alternating the variants.
    /// - Returns: Per caller kind: MB/s (median over rounds; issue 14's target ≥ 1.0) and the peak RSS growth
    ///   (largest over rounds; targets: at most 16 MiB for delegate callers, no more than direct for completion
    ///   callers).
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
                    target: .ratioAtLeast(1.0)
                )
            )
            rows.append(
                Row(
                    figure: "256 MiB download, \(mode) caller, peak RSS growth (MiB)",
                    direct: peak(.direct),
                    nettap: peak(.nettap),
                    decimals: 1,
                    comparison: .difference,
                    target: mode == "delegate" ? .valueAtMost(16) : .differenceAtMost(0)
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
