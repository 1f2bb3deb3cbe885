import Foundation
import NetTapCore
import NetTapMocking

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An optional scenario (`--only mock-template`, seconds; needs no server) that measures what a templated stub with a
/// state change costs against a plain stub, through URLSession.
///
/// Two private interceptors, capture on, `MockHandler(unmatched: .fail)`, answer `GET /item?n=7` (header `X-User`):
/// - `plain`: one stub answering, from memory, the 200 bytes of JSON the templates render (with a fixed id);
/// - `templated`: two templated stubs of a state machine that answer in turn, each moving the machine to the other's
///   state (`tick` → `tock` → `tick`), so every request takes a transition; the body renders `{{randomId}}`,
///   `{{request.path.0}}`, `{{request.query.n}}` and `{{request.header.X-User}}` into 200 bytes of JSON.
///
/// Sequential latency (p50, p95) and throughput with 16 in flight, the two alternating round by round, every answer's
/// status and size checked (and the plain body byte for byte); the target is the issue's: templated throughput within
/// 10 % of plain (ratio ≥ 0.90), p50 latency at most 1.10 × plain.
struct MockTemplateBench {
    /// The counts: the run's, with four times the latency samples and throughput requests in a full run (each
    /// request is cheap, and the two variants differ by little, so more rounds steady the ratio).
    let plan: Plan

    /// Creates the scenario.
    ///
    /// - Parameter isQuick: Whether to use the quick counts as they are.
    init(isQuick: Bool) {
        var plan = isQuick ? Plan.quick : Plan.full
        if !isQuick {
            plan.latencyCount *= 4
            plan.latencyRounds *= 4
            plan.throughputCount *= 4
            plan.throughputRounds *= 4
        }
        self.plan = plan
    }

    private static let url = URL(string: "http://127.0.0.1:1/item?n=7") ?? URL(fileURLWithPath: "/")
    /// The rendered body's size: the plain body has the same.
    private static let bodySize = 200

    /// Runs the measurement and prints the table.
    ///
    /// - Throws: A request's error, or ``BenchError`` for a wrong answer or a machine that did not move.
    func run() async throws {
        let (plainMocks, templatedMocks) = try Self.mockSets()
        let plain = NetTapInterceptor()
        plain.handlers = [MockHandler(mocks: plainMocks, unmatched: .fail)]
        let templated = NetTapInterceptor()
        templated.handlers = [MockHandler(mocks: templatedMocks, unmatched: .fail)]
        let sessions = [plain.makeSession(), templated.makeSession()]
        defer { for session in sessions { session.finishTasksAndInvalidate() } }
        var request = URLRequest(url: Self.url)
        request.setValue("ada", forHTTPHeaderField: "X-User")
        let clients = [
            MockTemplateClient(session: sessions[0], request: request, body: Self.plainBody),
            MockTemplateClient(session: sessions[1], request: request, body: nil),
        ]
        let latency = try await latencies(clients)
        let rates = try await throughputs(clients)
        try Self.checkMoves(templatedMocks, templated)
        print("")
        print(Columns.render(Self.table(latency: latency, rates: rates)))
        print("")
    }

    /// The plain stub's set, and the templated state machine's.
    private static func mockSets() throws -> (MockSet, MockSet) {
        let plain = MockSet(stubs: [
            Stub(
                "plain",
                matching: .method("GET") && .path("/item"),
                response: .data(plainBody, headers: ["Content-Type": "application/json"])
            )
        ])
        var stubs: [Stub] = []
        for (name, next) in [("tick", "tock"), ("tock", "tick")] {
            let requires = name == "tick" ? StubState.started : name
            let moveTo = next == "tick" ? StubState.started : next
            let template =
                #"{"id":"{{randomId}}","path":"{{request.path.0}}","n":"{{request.query.n}}","#
                + #""user":"{{request.header.X-User}}","state":"\#(name)","pad":""#
            let padding = String(repeating: "x", count: bodySize - renderedSize(of: template) - 2)
            let response = StubResponse.text(template + padding + "\"}", headers: ["Content-Type": "application/json"])
            stubs.append(
                try Stub(name, matching: .method("GET") && .path("/item"), response: response).templated()
                    .withState(machine: "ping", requires: requires, moveTo: moveTo)
            )
        }
        let templated = MockSet(stubs: stubs)
        templated.randomSeed = 1
        return (plain, templated)
    }

    /// What the `tick` template renders to, with one fixed id: the same fields and size, so the capture and its
    /// redaction cost the two variants the same and only the templates and the state change differ.
    private static let plainBody: Data = {
        let prefix =
            #"{"id":"1b4e28ba-2fa1-4d2e-883f-0016d3cca427","path":"item","n":"7","user":"ada","state":"tick","#
            + #""pad":""#
        return Data((prefix + String(repeating: "x", count: bodySize - prefix.utf8.count - 2) + "\"}").utf8)
    }()

    /// The size a template renders to for the benchmark's request: a UUID for `{{randomId}}`, then the values.
    private static func renderedSize(of template: String) -> Int {
        template.replacingOccurrences(of: "{{randomId}}", with: String(repeating: "u", count: 36))
            .replacingOccurrences(of: "{{request.path.0}}", with: "item")
            .replacingOccurrences(of: "{{request.query.n}}", with: "7")
            .replacingOccurrences(of: "{{request.header.X-User}}", with: "ada").utf8.count
    }

    /// Sequential requests per client after a warm-up, alternating the clients round by round, in µs.
    private func latencies(_ clients: [MockTemplateClient]) async throws -> [Stats] {
        for client in clients {
            for _ in 0..<plan.latencyWarmUp { try await client.get() }
        }
        var samples: [[Double]] = clients.map { _ in [] }
        let perRound = max(1, plan.latencyCount / plan.latencyRounds)
        let clock = ContinuousClock()
        for round in 0..<plan.latencyRounds {
            for index in (round.isMultiple(of: 2) ? [0, 1] : [1, 0]) {
                for _ in 0..<perRound {
                    let start = clock.now
                    try await clients[index].get()
                    samples[index].append((clock.now - start).seconds * 1e6)
                }
            }
        }
        return samples.map(Stats.init)
    }

    /// Requests per second and CPU per request with ``Plan/width`` in flight, alternating round by round.
    private func throughputs(_ clients: [MockTemplateClient]) async throws -> [MockRate] {
        for client in clients { _ = try await client.concurrently(count: plan.width * 10, width: plan.width) }
        var rates = [MockRate(), MockRate()]
        let perRound = max(plan.width, plan.throughputCount / plan.throughputRounds)
        for round in 0..<plan.throughputRounds {
            for index in (round.isMultiple(of: 2) ? [0, 1] : [1, 0]) {
                let cpuBefore = ProcessMetrics.cpuSeconds ?? .nan
                let elapsed = try await clients[index].concurrently(count: perRound, width: plan.width)
                let cpu = (ProcessMetrics.cpuSeconds ?? .nan) - cpuBefore
                rates[index].add(requests: perRound, seconds: elapsed.seconds, cpuSeconds: cpu)
            }
        }
        return rates
    }

    /// Checks that every templated answer took a transition: the two stubs answered in turn.
    private static func checkMoves(_ mocks: MockSet, _ interceptor: NetTapInterceptor) throws {
        let ticks = mocks.hitCount(for: "tick")
        let tocks = mocks.hitCount(for: "tock")
        guard abs(ticks - tocks) <= 1, ticks > 0 else {
            throw BenchError("mock-template: the machine did not move on each answer (tick \(ticks), tock \(tocks))")
        }
        let steps = interceptor.captureLog.transactions.compactMap { $0.annotations[MockHandler.stateAnnotation] }
        guard steps.contains("ping: Started → tock"), steps.contains("ping: tock → Started") else {
            throw BenchError("mock-template: the capture does not show the state steps")
        }
        Log.detail(
            "mock-template: \(ticks + tocks) templated answers, each a transition (tick \(ticks), tock \(tocks))"
        )
    }

    /// The figures, templated against plain.
    private static func table(latency: [Stats], rates: [MockRate]) -> [[String]] {
        func row(_ figure: String, _ plain: Double, _ templated: Double, decimals: Int, target: Target?) -> [String] {
            let ratio = templated / plain
            let result: String
            switch target {
            case .ratioAtMost(let limit)?: result = ratio <= limit ? "PASS" : "MISS"
            case .ratioAtLeast(let limit)?: result = ratio >= limit ? "PASS" : "MISS"
            default: result = "info"
            }
            return [
                figure, Report.format(plain, decimals: decimals), Report.format(templated, decimals: decimals),
                Report.format(ratio, decimals: 2), target?.text ?? "—", result,
            ]
        }
        return [
            ["figure", "plain stub", "templated + state", "ratio", "target", "result"],
            row(
                "mock GET latency p50 (µs)",
                latency[0].median,
                latency[1].median,
                decimals: 0,
                target: .ratioAtMost(1.1)
            ),
            row(
                "mock GET latency p95 (µs)",
                latency[0].percentile(95),
                latency[1].percentile(95),
                decimals: 0,
                target: nil
            ),
            row(
                "mock GET throughput, 16 in flight (req/s)",
                rates[0].perSecond,
                rates[1].perSecond,
                decimals: 0,
                target: .ratioAtLeast(0.9)
            ),
            row("CPU per request (µs)", rates[0].cpuMicroseconds, rates[1].cpuMicroseconds, decimals: 1, target: nil),
        ]
    }
}

/// A session and the request it sends, with the plain body to compare byte for byte (`nil`: the size only).
struct MockTemplateClient {
    let session: URLSession
    let request: URLRequest
    let body: Data?

    /// Sends one request and checks the answer.
    func get() async throws {
        try await Fetch.get(request, on: session, expectedBytes: 200, expectedBody: body)
    }

    /// Sends `count` requests with `width` in flight.
    func concurrently(count: Int, width: Int) async throws -> Duration {
        try await Fetch.concurrently(
            count: count,
            width: width,
            request: request,
            on: session,
            expectedBytes: 200,
            expectedBody: body
        )
    }
}
