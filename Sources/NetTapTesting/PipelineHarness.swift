import Foundation
import NetTapCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Runs requests through handlers and a transport without URLSession or sockets: the embedded test harness
/// for handler authors.
///
/// ```swift
/// let harness = PipelineHarness(handlers: [MyHandler()], transport: FakeTransport(body: Data("net".utf8)))
/// let result = try await harness.send(URLRequest(url: url))
/// #expect(result.statusCode == 200)
/// #expect(result.answeredBy == "network")
/// ```
public struct PipelineHarness: Sendable {
    /// What one request produced.
    public struct Result: Sendable {
        /// The response head (its body already consumed into ``body``).
        public var response: HandlerResponse
        /// The whole body.
        public var body: Data
        /// Who answered: `network` (the transport) or a handler's name.
        public var answeredBy: String
        /// The notes handlers added.
        public var annotations: [String: String]
        /// The findings handlers added (`TransactionContext.findings`), read after the whole body.
        public var findings: [Finding]
        /// The redirect hops the transport recorded.
        public var redirects: [RedirectHop]
        /// The request as it reached the transport or the answering handler, after rewrites.
        public var sentRequest: URLRequest?

        /// The response status code.
        public var statusCode: Int { response.statusCode }
    }

    /// The pipeline under test.
    public var pipeline: Pipeline
    /// The clock handed to handlers through the context.
    public var clock: any Clock<Duration>

    /// Creates a harness.
    /// - Parameters:
    ///   - handlers: The handlers, outermost first.
    ///   - transport: The transport at the end; a ``FakeTransport`` answering 200 with an empty body by default.
    ///   - clock: The clock handlers sleep on; `ContinuousClock` by default, a ``ManualClock`` in timing tests.
    public init(
        handlers: [any TransactionHandler],
        transport: any Transport = FakeTransport(),
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.pipeline = Pipeline(handlers: handlers, transport: transport)
        self.clock = clock
    }

    /// Sends one request through the pipeline and reads the whole body.
    /// - Parameter request: The request.
    /// - Returns: The response, its body, and what the context recorded.
    /// - Throws: What a handler or the transport throws.
    public func send(_ request: URLRequest) async throws -> Result {
        let context = TransactionContext(clock: clock)
        let response = try await pipeline.send(request, context: context)
        let body = try await response.body.collect()
        return Result(
            response: response,
            body: body,
            answeredBy: context.answeredBy,
            annotations: context.annotations,
            findings: context.findings,
            redirects: context.redirects,
            sentRequest: context.sentRequest
        )
    }
}
