import Foundation
import NetTapCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Scenarios {
    /// The routes shown beside direct in the small-request tables, NetTap between the other two.
    static let comparedRoutes: [Route] = [.floor, .nettap, .peer]

    // MARK: - Measuring

    /// Sequential GETs of `url` per ``Route`` in this process after a warm-up, alternating the routes round by
    /// round; direct and NetTap use the run's sessions, peer a ``PeerProtocol`` session, floor a ``CurlFloor``.
    /// - Parameters:
    ///   - url: The small file's URL (HTTP or HTTPS).
    ///   - name: The scenario's name, for the detail line.
    ///   - peerShare: The fraction of the plan's requests the peer sends (1 over HTTP; over HTTPS it makes a
    ///     TLS connection per request, about 40 ms each, so fewer).
    /// - Returns: The latencies per route in microseconds, and the HTTP version the floor used.
    /// - Throws: The first failed request or different body.
    func routeLatency(
        url: URL,
        name: String,
        peerShare: Double = 1
    ) async throws -> (stats: [Route: Stats], floorVersion: String) {
        let request = URLRequest(url: url)
        let peer = PeerProtocol.makeSession()
        defer { peer.finishTasksAndInvalidate() }
        let floor = try CurlFloor(url: url, body: smallBody)
        let clients: [Route: SmallClient] = [
            .direct: .session(try session(.direct), request, smallBody),
            .nettap: .session(try session(.nettap), request, smallBody),
            .peer: .session(peer, request, smallBody),
            .floor: .floor(floor),
        ]
        for route in Route.order(forRound: 0) {
            guard let client = clients[route] else { continue }
            for _ in 0..<Self.share(plan.latencyWarmUp, route == .peer ? peerShare : 1) { try await client.get() }
        }
        var samples: [Route: [Double]] = [:]
        let perRound = max(1, plan.latencyCount / plan.latencyRounds)
        let clock = ContinuousClock()
        for round in 0..<plan.latencyRounds {
            for route in Route.order(forRound: round) {
                guard let client = clients[route] else { continue }
                for _ in 0..<Self.share(perRound, route == .peer ? peerShare : 1) {
                    let start = clock.now
                    try await client.get()
                    samples[route, default: []].append((clock.now - start).seconds * 1e6)
                }
            }
        }
        let stats = samples.mapValues(Stats.init)
        let lines = Route.allCases.map { route in
            let figures = stats[route] ?? Stats([])
            return "\(route.label): p50 \(Report.format(figures.median, decimals: 0)) "
                + "mean \(Report.format(figures.mean, decimals: 0)) "
                + "p90 \(Report.format(figures.percentile(90), decimals: 0)) "
                + "p99 \(Report.format(figures.percentile(99), decimals: 0)) "
                + "max \(Report.format(figures.maximum, decimals: 0))"
        }
        Log.detail(
            "\(name) latency µs (n=\(stats[.direct]?.count ?? 0) each, peer \(stats[.peer]?.count ?? 0))  "
                + lines.joined(separator: "  |  ")
        )
        return (stats, floor.httpVersion)
    }

    /// GETs of `url` with ``Plan/width`` in flight, one child process per route and round (alternating the
    /// routes), each warmed up with ten times the width first; the child measures its wall time and its CPU time
    /// (user + system) over the measured requests only.
    /// - Parameters:
    ///   - url: The small file's URL (HTTP or HTTPS).
    ///   - name: The scenario's name, for the detail line.
    ///   - peerShare: The fraction of the plan's requests the peer sends (see ``routeLatency(url:name:peerShare:)``).
    /// - Returns: Requests, seconds and CPU seconds per route, summed over the rounds.
    /// - Throws: ``BenchError`` when a child fails (a failed request or different body fails the child).
    func routeThroughput(url: URL, name: String, peerShare: Double = 1) async throws -> [Route: MockRate] {
        let perRound = max(plan.width, plan.throughputCount / plan.throughputRounds)
        var rates: [Route: MockRate] = [:]
        var perRoundRates: [Route: [String]] = [:]
        for round in 0..<plan.throughputRounds {
            for route in Route.order(forRound: round) {
                let report = try await ChildProcess.run([
                    "throughput", "--via", route.rawValue, "--url", url.absoluteString, "--count",
                    String(max(plan.width, Self.share(perRound, route == .peer ? peerShare : 1))),
                    "--width", String(plan.width), "--expect-body", smallBody.base64EncodedString(),
                ])
                guard let cpu = report.cpuSeconds else { throw BenchError("\(name): a child reported no CPU time") }
                rates[route, default: MockRate()].add(
                    requests: report.requests,
                    seconds: report.seconds,
                    cpuSeconds: cpu
                )
                perRoundRates[route, default: []].append(
                    Report.format(Double(report.requests) / report.seconds, decimals: 0)
                )
            }
        }
        let lines = Route.allCases.map { route in
            "\(route.label): \((perRoundRates[route] ?? []).joined(separator: " ")) "
                + "(CPU \(Report.format(rates[route]?.cpuMicroseconds ?? .nan, decimals: 0)) µs/req)"
        }
        Log.detail("\(name) throughput req/s per round  " + lines.joined(separator: "  |  "))
        return rates
    }

    /// `count` scaled by `share`, at least 1.
    private static func share(_ count: Int, _ share: Double) -> Int {
        max(1, Int((Double(count) * share).rounded()))
    }

    // MARK: - Rows

    /// Latency rows for one percentile: floor, NetTap and peer against direct.
    /// - Parameters:
    ///   - figure: The figure's name, for example `small GET latency p50 (µs)`.
    ///   - stats: The latencies per route.
    ///   - percentile: The percentile, 0...100.
    ///   - target: NetTap's target, or `nil` for information.
    /// - Returns: Three rows.
    static func latencyRows(
        _ figure: String,
        stats: [Route: Stats],
        percentile: Double,
        target: Target?
    ) -> [Row] {
        let direct = stats[.direct] ?? Stats([])
        return comparedRoutes.map { route in
            Row(
                figure: figure,
                direct: direct.percentile(percentile),
                nettap: (stats[route] ?? Stats([])).percentile(percentile),
                decimals: 0,
                comparison: .ratio,
                target: route == .nettap ? target : nil,
                via: route.label
            )
        }
    }

    /// Throughput rows (floor, NetTap, peer against direct), then the same for CPU time per request.
    /// - Parameters:
    ///   - prefix: Put before the figure names, for example `HTTPS `.
    ///   - rates: The totals per route.
    ///   - width: Requests in flight.
    ///   - target: NetTap's throughput target.
    /// - Returns: Six rows.
    static func throughputRows(prefix: String, rates: [Route: MockRate], width: Int, target: Target) -> [Row] {
        let direct = rates[.direct] ?? MockRate()
        let throughput = comparedRoutes.map { route in
            Row(
                figure: "\(prefix)small GET throughput, \(width) in flight (req/s)",
                direct: direct.perSecond,
                nettap: (rates[route] ?? MockRate()).perSecond,
                decimals: 0,
                comparison: .ratio,
                target: route == .nettap ? target : nil,
                via: route.label
            )
        }
        let cpu = comparedRoutes.map { route in
            Row(
                figure: "\(prefix)CPU per request, \(width) in flight (µs, bench process)",
                direct: direct.cpuMicroseconds,
                nettap: (rates[route] ?? MockRate()).cpuMicroseconds,
                decimals: 0,
                comparison: .ratio,
                target: nil,
                via: route.label
            )
        }
        return throughput + cpu
    }

    // MARK: - 6. HTTPS

    /// The small GET over HTTPS with keep-alive (nginx's TLS listener, HTTP/2 offered): sequential p50 and
    /// throughput with ``Plan/width`` in flight, with CPU per request, for the four routes (the peer, which makes
    /// a TLS connection per request, sends a tenth of the requests).
    /// - Returns: The p50 rows (information), the throughput rows (NetTap's target ≥ 1.3) and the CPU rows.
    /// - Throws: ``BenchError`` without `--tls-base` or when the HTTPS body differs from the HTTP one; the first
    ///   failed request.
    func https() async throws -> [Row] {
        guard let tlsBase else { throw BenchError("https: needs --tls-base https://127.0.0.1:PORT (scripts/bench)") }
        let url = tlsBase.appendingPathComponent("small.txt")
        let (body, _) = try await session(.direct).data(for: URLRequest(url: url))
        guard body == smallBody else { throw BenchError("https: \(url.absoluteString) answers other bytes than HTTP") }
        let (stats, floorVersion) = try await routeLatency(url: url, name: "https", peerShare: 0.1)
        let nettapVersion = NetTapInterceptor.shared.captureLog.transactions.last.map {
            $0.negotiatedHTTPVersion ?? "?"
        }
        Log.detail("https: the floor used \(floorVersion), NetTap's last capture \(nettapVersion ?? "none")")
        let rates = try await routeThroughput(url: url, name: "https", peerShare: 0.1)
        return Self.latencyRows("HTTPS small GET latency p50 (µs)", stats: stats, percentile: 50, target: nil)
            + Self.throughputRows(prefix: "HTTPS ", rates: rates, width: plan.width, target: .ratioAtLeast(1.3))
    }
}
