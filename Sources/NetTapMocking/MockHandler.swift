import Foundation
import NetTapCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The pipeline handler that answers requests from a ``MockSet``'s stubs.
///
/// ```
///  request ─▶ MockHandler ──(a stub matches)──▶ stub response (latency, pacing, failure, redirect)
///                 │
///                 └──(no stub matches)──▶ unmatched policy: pass through │ fail │ record
/// ```
///
/// The stub that answers is the most specific matching one of the active scenario's stubs or, when none of
/// them matches, of the base stubs; ties go to the newest (see ``MockSet``). The handler then calls `context.answer(by: name)`, so the
/// transaction's `answeredBy` is `mock` (the default ``name``), and annotates:
///
/// | key | value |
/// | --- | --- |
/// | `stub` | the stub's name |
/// | `scenario` | the scenario the stub belongs to (absent for base stubs) |
/// | `alternative` | the active alternative that answered (alternative stubs only) |
/// | `sequence` | the 0-based position in the sequence that answered (sequence stubs only) |
/// | `state` | the stub's state machine and its move: `cart: Started → item added`, or `cart: item added` when it stays |
/// | `template` | why a templated status could not be used (the answer is then 500) |
/// | `unmatched` | under ``UnmatchedPolicy/fail``: the explanation the request failed with (no stub matched) |
///
/// Requests no stub matches are kept in ``MockSet/unmatchedRequests`` and handled by the
/// ``UnmatchedPolicy``: apps usually pass them through (the default), tests usually fail them so a missing
/// stub is noticed at once.
///
/// ```swift
/// let mocks = try MockSet(configuration: .load(contentsOf: mocksURL))
/// interceptor.handlers = [MockHandler(mocks: mocks)]                       // in the app
/// let harness = PipelineHarness(handlers: [MockHandler(mocks: mocks, unmatched: .fail)])   // in a test
/// ```
///
/// Thread safety: one handler serves concurrent requests; its state lives in the mock set.
public struct MockHandler: TransactionHandler {
    /// What happens to a request no stub matches.
    public enum UnmatchedPolicy: Sendable, Hashable {
        /// Pass it on to the rest of the pipeline (the network): the default for apps.
        case passThrough
        /// Fail it with `URLError(.resourceUnavailable)` whose description names the request and the closest
        /// stub with the reason it missed: the choice for tests.
        case fail
        /// Pass it on, and add the real response as a new stub (method and exact URL) to the active scenario,
        /// or to the base stubs when none is active, once its body has arrived; secrets are redacted with the
        /// handler's ``MockHandler/redactor``.
        case record
    }

    /// The annotation key holding the answering stub's name.
    public static let stubAnnotation = "stub"
    /// The annotation key holding the answering stub's scenario.
    public static let scenarioAnnotation = "scenario"
    /// The annotation key holding the alternative that answered.
    public static let alternativeAnnotation = "alternative"
    /// The annotation key holding the position in a sequence that answered (0-based).
    public static let sequenceAnnotation = "sequence"
    /// The annotation key holding the answering stub's state machine step, such as `cart: Started → item added`.
    public static let stateAnnotation = "state"
    /// The annotation key holding why a templated answer's status could not be used.
    public static let templateAnnotation = "template"
    /// The annotation key holding why a request was refused under ``UnmatchedPolicy/fail`` (the error's
    /// description); such a request is answered by this handler, not the network.
    public static let unmatchedAnnotation = "unmatched"

    /// The handler's name, the transaction's `answeredBy` when a stub answers: `mock` by default.
    public let name: String
    /// The stubs and scenarios.
    public let mocks: MockSet
    /// What happens to requests no stub matches.
    public let unmatchedPolicy: UnmatchedPolicy
    /// The largest response body, in bytes, the ``UnmatchedPolicy/record`` policy keeps in a new stub; a larger
    /// response is passed on but not recorded.
    public let recordingByteLimit: Int
    /// Replaces secrets in responses recorded by the ``UnmatchedPolicy/record`` policy before they become stubs.
    public let redactor: Redactor

    /// Creates the handler.
    ///
    /// - Parameters:
    ///   - mocks: The stubs and scenarios.
    ///   - unmatched: What happens to requests no stub matches; ``UnmatchedPolicy/passThrough`` by default
    ///     (use ``UnmatchedPolicy/fail`` in tests).
    ///   - recordingByteLimit: Bytes; 10 MiB by default.
    ///   - redactor: Replaces secrets in recorded responses (`Set-Cookie` cookie values, `Authorization`-like
    ///     headers, `token`-like body fields; secret query items match any value); `Redactor.default` by
    ///     default.
    ///   - name: The handler's name; `mock` by default.
    public init(
        mocks: MockSet,
        unmatched: UnmatchedPolicy = .passThrough,
        recordingByteLimit: Int = 10 * 1024 * 1024,
        redactor: Redactor = .default,
        name: String = "mock"
    ) {
        self.mocks = mocks
        self.unmatchedPolicy = unmatched
        self.recordingByteLimit = recordingByteLimit
        self.redactor = redactor
        self.name = name
    }

    /// Answers from the winning stub, or applies the unmatched policy.
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - context: The transaction's context: answered-by, annotations and the clock for latency and pacing.
    ///   - next: The rest of the pipeline, for unmatched requests that pass through or are recorded.
    /// - Returns: The stub's response, or the response from `next`.
    /// - Throws: The stub's simulated `URLError`; `URLError(.resourceUnavailable)` for an unmatched request
    ///   under ``UnmatchedPolicy/fail``; `URLError(.fileDoesNotExist)` for a missing body file;
    ///   `CancellationError` when cancelled during the latency; what `next` throws.
    /// - Complexity: O(number of active stubs) matcher evaluations.
    public func handle(_ request: URLRequest, context: TransactionContext, next: Next) async throws -> HandlerResponse {
        guard let resolution = mocks.resolve(request) else {
            mocks.recordUnmatched(request)
            switch unmatchedPolicy {
            case .passThrough:
                return try await next(request)
            case .fail:
                // Explained only here: a pass-through app does not pay for an explanation nobody reads.
                let explanation = mocks.explainUnmatched(request)
                context.answer(by: name)
                context.annotate(Self.unmatchedAnnotation, explanation)
                throw SimulatedFailure.error(.resourceUnavailable, url: request.url, description: explanation)
            case .record:
                return try await record(request, response: try await next(request))
            }
        }
        context.answer(by: name)
        context.annotate(Self.stubAnnotation, resolution.stubName)
        if let scenario = resolution.scenario { context.annotate(Self.scenarioAnnotation, scenario) }
        if let alternative = resolution.alternative { context.annotate(Self.alternativeAnnotation, alternative) }
        if let index = resolution.sequenceIndex { context.annotate(Self.sequenceAnnotation, String(index)) }
        if let step = resolution.transition {
            let move = step.from == step.to ? step.to : "\(step.from) → \(step.to)"
            context.annotate(Self.stateAnnotation, "\(step.machine): \(move)")
        }
        var response = resolution.response
        if response.isTemplated {
            let environment = MockSet.templateEnvironment(resolution, startDate: context.startDate)
            let (rendered, problem) = response.rendered(for: request, environment: environment)
            if let problem { context.annotate(Self.templateAnnotation, problem) }
            response = rendered
        }
        return try await response.answer(request, clock: context.clock)
    }

    /// Relays the network's response to the app and, once its body has arrived whole, adds it as a stub.
    private func record(_ request: URLRequest, response: HandlerResponse) async throws -> HandlerResponse {
        let original = response.body
        var relay = response
        var bodyWriter: BodyWriter?
        relay.body = ResponseBody.stream(expectedLength: original.expectedLength) { bodyWriter = $0 }
        guard let writer = bodyWriter else { return response }
        let limit = recordingByteLimit
        let mocks = self.mocks
        let redactor = self.redactor
        let pump = Task {
            var kept = Data()
            var isTooLarge = false
            do {
                for try await chunk in original {
                    writer.write(chunk)
                    if !isTooLarge {
                        kept.append(chunk)
                        if kept.count > limit {
                            isTooLarge = true
                            kept = Data()
                        }
                    }
                }
                // The stub is in place before the app sees the end of the body, so its next request finds it.
                if !isTooLarge {
                    let stub = RecordedStub.make(request: request, response: response, body: kept, redactor: redactor)
                    if let scenario = mocks.activeScenario {
                        mocks.add(stub, toScenario: scenario)
                    } else {
                        mocks.add(stub)
                    }
                }
                writer.finish()
            } catch {
                writer.finish(throwing: error)
            }
        }
        relay.body.channel.onCancel {
            pump.cancel()
            original.channel.cancel()
        }
        return relay
    }
}

/// Starts on URLSession's queue: its synchronous part neither calls URLSession nor blocks.
extension MockHandler: StartsInline {}
