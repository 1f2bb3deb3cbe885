// nettap-bench: measures what NetTap costs against direct URLSession, on one machine, in one run.
//
//   nettap-bench --base http://127.0.0.1:PORT [--tls-base https://127.0.0.1:PORT] [--httpbin URL] [--quick]
//                [--only latency|throughput|mock|https|download|resources|breakdown|shaping|store|report|soak|inspector|
//                        mock-template]
//
// Normally started by scripts/bench, which runs nginx and serves small.txt (about 200 bytes), mid.bin (10 MiB)
// and big.bin (256 MiB), over HTTP and HTTPS; scripts/soak adds httpbin. Exits 0 whether or not NetTap meets its targets (this is a
// measurement) except for the soak, which exits 1 when a check fails; 1 when the benchmark itself failed; 2 on
// bad arguments. `nettap-bench child …` is the hidden subcommand for the per-variant processes.
import Foundation
import NetTapCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The command-line options of the parent run.
struct BenchOptions {
    /// The scenarios a run includes by default, in the order they run.
    static let scenarioNames = ["latency", "throughput", "mock", "https", "download", "resources"]
    /// Every scenario name: the default ones, and `breakdown`, `shaping`, `store` and `report`, which run only
    /// when named with `--only`.
    static let allScenarioNames =
        scenarioNames + ["breakdown", "shaping", "store", "report", "soak", "inspector", "mock-template"]

    /// The usage text.
    static let usage = """
        usage: nettap-bench --base URL [--httpbin URL [--direct]] [--quick] [--only NAME[,NAME…]]

          --base URL     the server serving /small.txt and /big.bin (scripts/bench starts one)
          --tls-base URL the same server's HTTPS listener, for the https scenario (scripts/bench passes it)
          --httpbin URL  an httpbin server, for the soak (scripts/soak starts one)
          --direct       the soak through a plain URLSession, for comparison
          --quick      small counts, for a smoke run
          --only NAME  run only these scenarios: \(allScenarioNames.joined(separator: ", "))
                       (breakdown, which splits NetTap's small-request cost into parts, shaping, which checks
                       NetTapShaping's rates, latency and CPU in about 1–2 minutes, and store, which measures
                       NetTapStore's inserts per second with 1 KiB bodies, and report, which times
                       NetTapReport's HTML rendering of 10,000 transactions, and soak, 20,000 checked requests
                       64 at a time with resource checks (needs --httpbin; scripts/soak), and inspector, which
                       measures forwarded requests with a DevTools client connected, and mock-template, which
                       compares a templated stub with a state change to a plain stub (no server), run only when
                       named)
        """

    /// The server's base URL.
    var base: URL
    /// The server's HTTPS base URL, for the `https` scenario.
    var tlsBase: URL?
    /// The httpbin server's base URL, for the soak.
    var httpbin: URL?
    /// Whether the soak runs through a plain URLSession.
    var isDirect = false
    /// Whether to use ``Plan/quick`` instead of ``Plan/full``.
    var isQuick = false
    /// The scenarios to run.
    var scenarios = scenarioNames

    /// Parses the arguments after the program name.
    /// - Parameter arguments: For example `["--base", "http://127.0.0.1:8080", "--quick"]`.
    /// - Throws: ``BenchError`` naming the bad or missing argument.
    init(_ arguments: [String]) throws {
        var base: URL?
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--base":
                guard let text = iterator.next(), let url = URL(string: text), url.scheme != nil, url.host != nil else {
                    throw BenchError("--base needs a URL such as http://127.0.0.1:8080")
                }
                base = url
            case "--tls-base":
                guard let text = iterator.next(), let url = URL(string: text), url.scheme == "https", url.host != nil
                else {
                    throw BenchError("--tls-base needs a URL such as https://127.0.0.1:8443")
                }
                tlsBase = url
            case "--httpbin":
                guard let text = iterator.next(), let url = URL(string: text), url.scheme != nil, url.host != nil else {
                    throw BenchError("--httpbin needs a URL such as http://127.0.0.1:8081")
                }
                httpbin = url
            case "--direct":
                isDirect = true
            case "--quick":
                isQuick = true
            case "--only":
                guard let list = iterator.next() else { throw BenchError("--only needs a scenario name") }
                let names = list.split(separator: ",").map(String.init)
                let known = Self.allScenarioNames.joined(separator: ", ")
                for name in names where !Self.allScenarioNames.contains(name) {
                    throw BenchError("--only: unknown scenario \(name); one of \(known)")
                }
                scenarios = Self.allScenarioNames.filter(names.contains)
            case "-h", "--help":
                throw BenchError(Self.usage)
            default:
                throw BenchError("unknown argument \(argument)")
            }
        }
        guard let base else { throw BenchError("--base is required") }
        self.base = base
    }
}

/// Runs the selected scenarios and prints the table.
/// - Parameter options: The parsed options.
/// - Returns: `false` when the soak ran and failed a check (the other scenarios measure and never fail).
/// - Throws: ``BenchError`` or a request error when the benchmark itself fails.
func runBenchmark(_ options: BenchOptions) async throws -> Bool {
    var soakFailed = false
    let plan = options.isQuick ? Plan.quick : Plan.full
    // The store and report scenarios need no server; the others share one set of sessions.
    let needsServer = options.scenarios.contains { !["store", "report", "soak", "mock-template"].contains($0) }
    printHeader(options, plan: plan, needsServer: needsServer)
    let scenarios = needsServer ? try await Scenarios(base: options.base, tlsBase: options.tlsBase, plan: plan) : nil
    var report = Report()
    for name in options.scenarios {
        Log.step(name)
        if let passed = try await runWithoutServer(name, options) {
            if !passed { soakFailed = true }
            continue
        }
        guard let scenarios else { continue }
        report.rows += try await runScenario(name, of: scenarios, options, plan: plan)
    }
    print("load average at end: \(ProcessMetrics.loadAverage ?? "n/a")")
    guard !report.rows.isEmpty else { return !soakFailed }
    print("")
    print(report.render())
    let tally = report.tally
    print("")
    print("\(tally.met) of \(tally.total) targets met (a measurement, not a test: the exit status ignores targets)")
    return !soakFailed
}

/// Prints what runs, against what, on how many cores, the counts, and the load average at the start.
private func printHeader(_ options: BenchOptions, plan: Plan, needsServer: Bool) {
    let processors = ProcessInfo.processInfo.activeProcessorCount
    print(
        "nettap-bench \(options.isQuick ? "(quick)" : "(full)"): \(options.scenarios.joined(separator: ", "))"
            + (needsServer || options.scenarios.contains("soak") ? " against \(options.base.absoluteString)" : "")
            + ", \(processors) cores, \(Date().formatted(.iso8601))"
    )
    if needsServer {
        print(
            "latency \(plan.latencyCount)/variant in \(plan.latencyRounds) rounds; throughput "
                + "\(plan.throughputCount)/variant, \(plan.width) in flight, \(plan.throughputRounds) rounds; download "
                + "\(plan.downloadRounds) round(s); resources \(plan.resourcesCount) requests/child"
        )
    }
    print("load average at start: \(ProcessMetrics.loadAverage ?? "n/a") (other processes share these cores)")
}

/// Runs `store`, `report`, `soak` or `mock-template`, which need none of the shared sessions.
/// - Returns: Whether it passed (only the soak can fail), or `nil` for any other scenario.
private func runWithoutServer(_ name: String, _ options: BenchOptions) async throws -> Bool? {
    switch name {
    case "store":
        try await StoreBench(count: options.isQuick ? 5_000 : 50_000).run()
        return true
    case "report":
        ReportBench(count: options.isQuick ? 1_000 : 10_000).run()
        return true
    case "mock-template":
        try await MockTemplateBench(isQuick: options.isQuick).run()
        return true
    case "soak":
        guard let httpbin = options.httpbin else { throw BenchError("the soak needs --httpbin URL") }
        return try await SoakBench(
            base: options.base,
            httpbin: httpbin,
            count: options.isQuick ? 2_000 : 20_000,
            direct: options.isDirect
        ).run()
    default:
        return nil
    }
}

/// Runs a scenario that uses the shared sessions.
/// - Returns: Its rows for the table (none for `breakdown` and `shaping`, which print their own).
private func runScenario(
    _ name: String,
    of scenarios: Scenarios,
    _ options: BenchOptions,
    plan: Plan
) async throws -> [Row] {
    switch name {
    case "latency": return try await scenarios.latency()
    case "throughput": return try await scenarios.throughput()
    case "mock": return try await scenarios.mock()
    case "https": return try await scenarios.https()
    case "download": return try await scenarios.download()
    case "resources": return try await scenarios.resources()
    case "breakdown":
        let breakdown = Breakdown(url: scenarios.smallURL, smallBytes: scenarios.smallBytes, plan: plan)
        try await breakdown.run(nettapSession: scenarios.session(.nettap))
        return []
    case "shaping":
        try await ShapingBench(base: options.base).run()
        return []
    case "inspector":
        let bench = InspectorBench(
            url: scenarios.smallURL,
            body: scenarios.smallBody,
            rounds: options.isQuick ? 2 : 4,
            count: options.isQuick ? 2_000 : 6_000
        )
        return try await bench.run()
    default: throw BenchError("unknown scenario \(name)")
    }
}

// nettap-bench is built in release mode, where NetTap installs only when the app opts in (`Activation`); the
// benchmark measures NetTap, so it opts in (children too: they run this same code).
NetTapInterceptor.isEnabledInReleaseBuilds = true

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "child" {
    exit(await ChildScenarios.main(Array(arguments.dropFirst())))
}
let options: BenchOptions
do {
    options = try BenchOptions(arguments)
} catch {
    FileHandle.standardError.write(Data("nettap-bench: \(error)\n\n\(BenchOptions.usage)\n".utf8))
    exit(2)
}
do {
    exit(try await runBenchmark(options) ? 0 : 1)
} catch {
    FileHandle.standardError.write(Data("nettap-bench: benchmark failed: \(error)\n".utf8))
    exit(1)
}
