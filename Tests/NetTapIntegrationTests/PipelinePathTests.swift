import Foundation
import NetTapCore
import NetTapTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Passes every request on unchanged: enough to send traffic down the pipeline path (a Swift task around the
/// handlers) instead of the forwarding fast path.
private struct PassOn: TransactionHandler {
    let name = "pass-on"
    func handle(_ request: URLRequest, context: TransactionContext, next: Next) async throws -> HandlerResponse {
        try await next(request)
    }
}

@Suite("The pipeline path (requests through handlers) under load")
struct PipelinePathTests {
    /// This found body bytes lost when the forwarding transfer was paused while libcurl still read the header:
    /// FoundationNetworking then reported no head and NetTap dropped the body (0 bytes, no error).
    @Test("96 concurrent 100 KiB downloads through a handler arrive intact in every caller style")
    func concurrentThroughHandler() async throws {
        let server = try await HTTPBin.shared()
        let interceptor = NetTapInterceptor()
        interceptor.handlers = [PassOn()]
        let client = Client(name: "pipeline", interceptor: interceptor)
        let seeded = server.url("/bytes/102400?seed=11")
        let expected = await Client.direct.send(URLRequest(url: seeded), style: .async)
        #expect(expected.body.count == 102_400)
        let outcomes = await withTaskGroup(of: (Int, Outcome).self) { group in
            for index in 0..<96 {
                let style = CallerStyle.allCases[index % CallerStyle.allCases.count]
                let url = index.isMultiple(of: 2) ? seeded : server.url("/stream-bytes/102400?seed=11&chunk_size=700")
                group.addTask { (index, await client.send(URLRequest(url: url), style: style)) }
            }
            var outcomes: [(Int, Outcome)] = []
            for await outcome in group { outcomes.append(outcome) }
            return outcomes
        }
        #expect(outcomes.count == 96)
        for (index, outcome) in outcomes {
            #expect(outcome.error == nil, "request \(index): \(outcome)")
            #expect(outcome.body.count == 102_400, "request \(index): \(outcome.body.count) bytes")
            if index.isMultiple(of: 2) {
                #expect(outcome.body == expected.body, "request \(index): bytes differ")
            }
        }
        let captured = interceptor.captureLog.transactions
        #expect(captured.count == 96)
        #expect(captured.allSatisfy { $0.response?.body?.totalByteCount == 102_400 })
    }
}
