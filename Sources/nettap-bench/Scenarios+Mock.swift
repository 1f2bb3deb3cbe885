import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Scenarios {
    // MARK: - 5. Mock

    /// Mocked and replayed answers against the server: sequential latency (p50, p95) and throughput with
    /// ``Plan/width`` in flight, for the six ``MockVariant``s, every body compared byte for byte.
    ///
    /// The counts are the latency and throughput scenarios' (per variant); the variants alternate round by round.
    /// - Returns: Per NetTap variant (mocked, cassette replay): the p50 row (target ≤ 0.4 × direct), the p95 row
    ///   (information) and the throughput row (target ≥ 3 × direct); then the floor's and the peer's p50 and
    ///   throughput over the network (information); then NetTap's own time per mocked request (mocked p50 −
    ///   bare-protocol p50, information; its ratio is the fraction of a direct request).
    /// - Throws: The first failed request, a body that differs, or ``BenchError`` when a NetTap variant's
    ///   request was answered by anything but its handler.
    func mock() async throws -> [Row] {
        let request = URLRequest(url: smallURL)
        let (body, _) = try await session(.direct).data(for: request)
        guard body.count == smallBytes else {
            throw BenchError("mock: \(smallURL.absoluteString) answered \(body.count) bytes, expected \(smallBytes)")
        }
        let sessions = try await MockSessions(url: smallURL, body: body, direct: session(.direct))
        defer { sessions.close() }

        let latency = try await mockLatency(sessions: sessions)
        let throughput = try await mockThroughput(sessions: sessions)
        let checked = try sessions.checkAnsweredInProcess()
        logMockFigures(latency: latency, throughput: throughput, checked: checked)

        let direct = latency[.direct] ?? Stats([])
        let bare = latency[.bare] ?? Stats([])
        var rows = answeredRows(latency: latency, throughput: throughput)
        rows += networkRows(latency: latency, throughput: throughput)
        let mocked = latency[.mocked] ?? Stats([])
        rows.append(
            Row(
                figure: "mocked: NetTap's own µs/request (mocked p50 − bare protocol p50)",
                direct: direct.median,
                nettap: mocked.median - bare.median,
                decimals: 0,
                comparison: .ratio,
                target: nil
            )
        )
        return rows
    }

    /// Logs every variant's figures, how many answers were checked, and NetTap's own CPU per mocked request.
    private func logMockFigures(
        latency: [MockVariant: Stats],
        throughput: [MockVariant: MockRate],
        checked: [MockVariant: Int]
    ) {
        let direct = latency[.direct] ?? Stats([])
        var lines: [String] = []
        for variant in MockVariant.allCases {
            let stats = latency[variant] ?? Stats([])
            let rate = throughput[variant]
            lines.append(
                "\(variant.label): p50 \(Report.format(stats.median, decimals: 0)) "
                    + "p95 \(Report.format(stats.percentile(95), decimals: 0)) "
                    + "p99 \(Report.format(stats.percentile(99), decimals: 0)) µs, "
                    + "\(Report.format(rate?.perSecond ?? .nan, decimals: 0)) req/s, "
                    + "CPU \(Report.format(rate?.cpuMicroseconds ?? .nan, decimals: 0)) µs/req"
            )
        }
        Log.detail("mock (n=\(direct.count) latency samples each)  " + lines.joined(separator: "  |  "))
        let ownCPU = (throughput[.mocked]?.cpuMicroseconds ?? .nan) - (throughput[.bare]?.cpuMicroseconds ?? .nan)
        Log.detail(
            "answeredBy checked on the last \(checked[.mocked] ?? 0) mocked and \(checked[.replayed] ?? 0) "
                + "replayed transactions (capture log); NetTap's own CPU per mocked request (mocked − bare): "
                + "\(Report.format(ownCPU, decimals: 0)) µs"
        )
    }

    /// The p50 (with its target), p95 and throughput rows of the variants NetTap answers: mocked, cassette replay.
    private func answeredRows(latency: [MockVariant: Stats], throughput: [MockVariant: MockRate]) -> [Row] {
        let direct = latency[.direct] ?? Stats([])
        var rows: [Row] = []
        for (variant, name) in [(MockVariant.mocked, "mocked"), (.replayed, "cassette replay")] {
            let stats = latency[variant] ?? Stats([])
            rows += [
                Row(
                    figure: "\(name) small GET latency p50 (µs)",
                    direct: direct.median,
                    nettap: stats.median,
                    decimals: 0,
                    comparison: .ratio,
                    target: .ratioAtMost(0.4)
                ),
                Row(
                    figure: "\(name) small GET latency p95 (µs)",
                    direct: direct.percentile(95),
                    nettap: stats.percentile(95),
                    decimals: 0,
                    comparison: .ratio,
                    target: nil
                ),
                Row(
                    figure: "\(name) small GET throughput, \(plan.width) in flight (req/s)",
                    direct: throughput[.direct]?.perSecond ?? .nan,
                    nettap: throughput[variant]?.perSecond ?? .nan,
                    decimals: 0,
                    comparison: .ratio,
                    target: .ratioAtLeast(3)
                ),
            ]
        }
        return rows
    }

    /// The p50 and throughput rows of the floor and the peer over the network (information).
    private func networkRows(latency: [MockVariant: Stats], throughput: [MockVariant: MockRate]) -> [Row] {
        let direct = latency[.direct] ?? Stats([])
        var rows: [Row] = []
        for variant in [MockVariant.floor, .peer] {
            rows += [
                Row(
                    figure: "network small GET latency p50 (µs), mock run",
                    direct: direct.median,
                    nettap: (latency[variant] ?? Stats([])).median,
                    decimals: 0,
                    comparison: .ratio,
                    target: nil,
                    via: variant.label
                ),
                Row(
                    figure: "network small GET throughput, \(plan.width) in flight (req/s), mock run",
                    direct: throughput[.direct]?.perSecond ?? .nan,
                    nettap: throughput[variant]?.perSecond ?? .nan,
                    decimals: 0,
                    comparison: .ratio,
                    target: nil,
                    via: variant.label
                ),
            ]
        }
        return rows
    }

    /// Sequential GETs per variant after a warm-up, alternating the variants round by round.
    private func mockLatency(
        sessions: MockSessions
    ) async throws -> [MockVariant: Stats] {
        for variant in MockVariant.order(forRound: 0) {
            let client = try sessions.client(variant)
            for _ in 0..<plan.latencyWarmUp { try await client.get() }
        }
        var samples: [MockVariant: [Double]] = [:]
        let perRound = max(1, plan.latencyCount / plan.latencyRounds)
        let clock = ContinuousClock()
        for round in 0..<plan.latencyRounds {
            for variant in MockVariant.order(forRound: round) {
                let client = try sessions.client(variant)
                for _ in 0..<perRound {
                    let start = clock.now
                    try await client.get()
                    samples[variant, default: []].append((clock.now - start).seconds * 1e6)
                }
            }
        }
        return samples.mapValues(Stats.init)
    }

    /// Requests per second and this process's CPU time per request, ``Plan/width`` in flight.
    private func mockThroughput(
        sessions: MockSessions
    ) async throws -> [MockVariant: MockRate] {
        for variant in MockVariant.order(forRound: 0) {
            _ = try await sessions.client(variant).concurrently(count: plan.width * 10, width: plan.width)
        }
        var rates: [MockVariant: MockRate] = [:]
        let perRound = max(plan.width, plan.throughputCount / plan.throughputRounds)
        for round in 0..<plan.throughputRounds {
            for variant in MockVariant.order(forRound: round) {
                let cpuBefore = ProcessMetrics.cpuSeconds ?? .nan
                let elapsed = try await sessions.client(variant).concurrently(count: perRound, width: plan.width)
                let cpu = (ProcessMetrics.cpuSeconds ?? .nan) - cpuBefore
                rates[variant, default: MockRate()].add(requests: perRound, seconds: elapsed.seconds, cpuSeconds: cpu)
            }
        }
        return rates
    }
}
