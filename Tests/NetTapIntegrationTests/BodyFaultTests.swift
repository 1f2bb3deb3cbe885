import Foundation
import NetTapCore
import NetTapMocking
import NetTapShaping
import NetTapTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Faults inside a body: an upstream doing them (``FaultServer``), a stub simulating them and shaping simulating
/// them on a well-formed upstream give the app the same outcome, in every caller style.
///
/// The same outcome is everything ``FailureShape`` reads: the error's domain, code, type, description, userInfo
/// keys, failing URL (relative to each side's own request) and underlying error, and what arrived before it (a
/// delegate's head, `expectedContentLength`, headers and bytes; nothing for async and completion-handler callers).
/// A stall also takes as long as the real one: the request's own 2 s timeout, with no timer of NetTap's.
@Suite("Body faults: an upstream doing it, a stub and shaping simulating it look alike", .serialized)
struct BodyFaultTests {
    /// One fault, as the fault server acts it out and as NetTap simulates it.
    struct FaultCase: Sendable, CustomTestStringConvertible {
        var name: String
        /// The fault server's path that does it for real.
        var real: FaultServer.Fault
        var realParameters: [String: String]
        /// The well-formed answer shaping faults: `/ok` (with a length) or `/chunked` (without).
        var wellFormed: FaultServer.Fault
        /// The simulated fault.
        var fault: BodyFault
        /// Whether a stub (whose bodies always have a length) can simulate it.
        var stubbable: Bool
        /// The code both give.
        var code: URLError.Code

        var testDescription: String { name }
    }

    static let length = 1000

    static let cases: [FaultCase] = [
        FaultCase(
            name: "reset after 400 of 1000 bytes",
            real: .resetMidBody,
            realParameters: ["length": "\(length)", "sent": "400"],
            wellFormed: .ok,
            fault: .dropConnection(afterBytes: 400),
            stubbable: true,
            code: .networkConnectionLost
        ),
        FaultCase(
            name: "reset right after the head",
            real: .resetMidBody,
            realParameters: ["length": "\(length)", "sent": "0"],
            wellFormed: .ok,
            fault: .dropConnection(afterBytes: 0),
            stubbable: true,
            code: .networkConnectionLost
        ),
        FaultCase(
            name: "close after 400 of 1000 bytes",
            real: .shortBody,
            realParameters: ["length": "\(length)", "sent": "400"],
            wellFormed: .ok,
            fault: .truncate(afterBytes: 400),
            stubbable: true,
            code: .unknown
        ),
        FaultCase(
            name: "silence after 400 of 1000 bytes",
            real: .stallMidBody,
            realParameters: ["length": "\(length)", "sent": "400"],
            wellFormed: .ok,
            fault: .stall(afterBytes: 400),
            stubbable: true,
            code: .timedOut
        ),
        FaultCase(
            name: "chunked: close after 400 bytes",
            real: .shortChunked,
            realParameters: ["sent": "400"],
            wellFormed: .chunked,
            fault: .truncate(afterBytes: 400),
            stubbable: false,
            code: .unknown
        ),
        FaultCase(
            name: "chunked: reset after 400 bytes",
            real: .resetMidChunked,
            realParameters: ["sent": "400"],
            wellFormed: .chunked,
            fault: .dropConnection(afterBytes: 400),
            stubbable: false,
            code: .networkConnectionLost
        ),
    ]

    /// The request timeout of a stall case, in seconds: what a stall waits for.
    static let timeout: TimeInterval = 2

    /// A request with `timeout`, or, for a case that must not time out, the default 60 s: on a loaded machine a
    /// 2 s idle timeout can fire before a busy test process delivers the bytes before a reset.
    private static func request(_ url: URL, stalls: Bool = false) -> URLRequest {
        var request = URLRequest(url: url)
        request.timeoutInterval = stalls ? timeout : 60
        return request
    }

    /// What `handler` (in a fresh interceptor) gives the app for `request`, and how long it took.
    private static func send(
        _ request: URLRequest,
        through handler: (any TransactionHandler)?,
        style: CallerStyle
    ) async throws -> (FailureShape, Duration) {
        let interceptor = handler.map { handler in
            let interceptor = NetTapInterceptor()
            interceptor.handlers = [handler]
            return interceptor
        }
        let start = ContinuousClock.now
        let observed = try #require(
            await withDeadline(.seconds(120)) {
                await CallRecorder(interceptor: interceptor).send(request, style: style)
            }
        )
        return (FailureShape(observed, url: try #require(request.url)), ContinuousClock.now - start)
    }

    /// The stub that answers like the fault server's well-formed `/ok`, then acts out `fault`.
    private static func stub(_ fault: BodyFault) -> MockHandler {
        let response = StubResponse.data(
            FaultServer.pattern(count: length),
            headers: ["Content-Type": "application/octet-stream", "Connection": "close"]
        )
        return MockHandler(mocks: MockSet(stubs: [Stub("fault", matching: .any, response: response.withFault(fault))]))
    }

    @Test(
        "the upstream fault and its simulations give the app the same outcome",
        arguments: cases,
        CallerStyle.allCases
    )
    func sameOutcome(fault: FaultCase, style: CallerStyle) async throws {
        let server = try await FaultServer.shared()
        let realURL = server.url(fault.real, fault.realParameters)
        let stalls = fault.code == .timedOut
        let (real, realTime) = try await Self.send(Self.request(realURL, stalls: stalls), through: nil, style: style)
        #expect(real.error == "\(NSURLErrorDomain) \(fault.code.rawValue)", "the platform's own outcome: \(real)")
        let delegateSees = style == .delegate
        #expect(real.status == (delegateSees ? 200 : nil), "only a delegate sees the head")
        let sent = Int(fault.realParameters["sent"] ?? "0") ?? 0
        #expect(real.body == (delegateSees ? FaultServer.pattern(count: sent) : Data()))

        var sides: [(String, URL, any TransactionHandler)] = []
        if fault.stubbable { sides.append(("stub", realURL, Self.stub(fault.fault))) }
        let shaper = NetworkShaper(profile: NetworkProfile(fault: fault.fault))
        let wellFormed = server.url(fault.wellFormed, ["length": "\(Self.length)"])
        sides.append(("shaping", wellFormed, ShapingHandler(shaper: shaper)))
        for (side, url, handler) in sides {
            let (simulated, time) = try await Self.send(
                Self.request(url, stalls: stalls),
                through: handler,
                style: style
            )
            expectSameFailure(simulated, as: real, "\(side) \(style)")
            guard fault.code == .timedOut else { continue }
            // The request's own timeout ends both: whole seconds, on the platform's timer and the interceptor's.
            for elapsed in [realTime, time] {
                #expect(elapsed >= .milliseconds(1900) && elapsed < .seconds(60), "\(side): took \(elapsed)")
            }
        }
    }

    @Test(
        "a fault at or past a body's length changes nothing, as a server that finished first",
        arguments: CallerStyle.allCases
    )
    func faultPastTheEnd(style: CallerStyle) async throws {
        let server = try await FaultServer.shared()
        let url = server.url(.ok, ["length": "\(Self.length)"])
        let (direct, _) = try await Self.send(Self.request(url), through: nil, style: style)
        for fault in [
            BodyFault.dropConnection(afterBytes: 1000), .truncate(afterBytes: 5000), .stall(afterBytes: 1000),
        ] {
            for (side, handler) in [
                ("stub", Self.stub(fault) as any TransactionHandler),
                ("shaping", ShapingHandler(shaper: NetworkShaper(profile: NetworkProfile(fault: fault)))),
            ] {
                let (answered, _) = try await Self.send(Self.request(url), through: handler, style: style)
                #expect(answered.error == "none", "\(side) \(fault)")
                #expect(answered.status == 200, "\(side) \(fault)")
                #expect(answered.body == direct.body, "\(side) \(fault)")
                #expect(answered.expectedContentLength == direct.expectedContentLength, "\(side) \(fault)")
            }
        }
    }

    @Test("a stub's fault from a mocks file acts like the one built in code", arguments: CallerStyle.allCases)
    func faultFromMocksFile(style: CallerStyle) async throws {
        let server = try await FaultServer.shared()
        let url = server.url(.shortBody, ["length": "\(Self.length)", "sent": "400"])
        let (real, _) = try await Self.send(Self.request(url), through: nil, style: style)
        let json = """
            {"stubs": [{"name": "cut", "match": {"path": "/short-body"}, "response": {
              "base64": "\(FaultServer.pattern(count: Self.length).base64EncodedString())",
              "headers": {"Content-Type": "application/octet-stream", "Connection": "close"},
              "fault": {"type": "truncate", "afterBytes": 400}}}]}
            """
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nettap-fault-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("mocks.json")
        try Data(json.utf8).write(to: file)
        let mocks = try MockSet(configuration: .load(contentsOf: file))
        let (simulated, _) = try await Self.send(Self.request(url), through: MockHandler(mocks: mocks), style: style)
        expectSameFailure(simulated, as: real, "mocks file \(style)")
    }
}
