import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What the pipeline knows about the transaction in flight, shared by every handler and the transport.
///
/// Handlers use it to say who answered (``answer(by:)``), leave notes (``annotate(_:_:)``) and read the
/// injected ``clock``. The transport records redirect hops and milestones here.
///
/// Thread safety: all members may be used from any thread.
public final class TransactionContext: Sendable {
    private struct State {
        var answeredBy = CapturedTransaction.answeredByNetwork
        var annotations: [String: String] = [:]
        var findings: [Finding] = []
        var redirects: [RedirectHop] = []
        var requestSent: Double?
        var firstByte: Double?
        var sentRequest: URLRequest?
        var isSentRequestFrozen = false
        var forwardingProfile: ForwardingProfile?
        var requestBodyWasStream = false
        var requestBodyWasUpload = false
        var wire: WireDetails?
        var wireRequestHeaders: HeaderFields?
        var trustRules: [TrustRule] = []
    }

    /// The transaction's identifier, the same as the captured ``CapturedTransaction/id``.
    public let id: UUID
    /// Wall-clock start of the transaction.
    public let startDate: Date
    /// The clock handlers wait on for delays; injected so tests can drive time.
    public let clock: any Clock<Duration>
    private let startInstant: ContinuousClock.Instant
    private let state = Locked(State())

    /// Creates a context.
    /// - Parameters:
    ///   - id: The transaction identifier.
    ///   - startDate: Wall-clock start.
    ///   - clock: The clock for delays; `ContinuousClock` by default.
    public init(id: UUID = UUID(), startDate: Date = Date(), clock: any Clock<Duration> = ContinuousClock()) {
        self.id = id
        self.startDate = startDate
        self.clock = clock
        self.startInstant = ContinuousClock.now
    }

    /// Milliseconds elapsed since the transaction started (monotonic).
    public var elapsedMilliseconds: Double {
        let elapsed = ContinuousClock.now - startInstant
        return Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
    }

    /// Records that `name` answered the request instead of the network.
    /// - Parameter name: The handler's ``TransactionHandler/name``.
    public func answer(by name: String) {
        state.withLock { $0.answeredBy = name }
    }

    /// Who answered so far: `network` unless a handler called ``answer(by:)``.
    public var answeredBy: String { state.withLock { $0.answeredBy } }

    /// Adds or replaces a note, exported in the transaction's annotations and HAR `comment`.
    /// - Parameters:
    ///   - key: The note's name, for example `stub`.
    ///   - value: Its value.
    public func annotate(_ key: String, _ value: String) {
        state.withLock { $0.annotations[key] = value }
    }

    /// The notes added so far.
    public var annotations: [String: String] { state.withLock { $0.annotations } }

    /// Adds a finding, kept on the captured transaction's ``CapturedTransaction/findings`` in the order added.
    ///
    /// Findings added until the transaction ends (also while its body streams) are captured.
    /// - Parameter finding: What was found.
    public func addFinding(_ finding: Finding) {
        state.withLock { $0.findings.append(finding) }
    }

    /// The findings added so far, in order.
    public var findings: [Finding] { state.withLock { $0.findings } }

    /// Records a redirect hop (called by transports that follow redirects).
    /// - Parameter hop: The hop.
    public func recordRedirect(_ hop: RedirectHop) {
        state.withLock { $0.redirects.append(hop) }
    }

    /// The redirect hops recorded so far.
    public var redirects: [RedirectHop] { state.withLock { $0.redirects } }

    /// Marks the moment the request left for the network; the first call counts.
    ///
    /// Later calls (for redirect hops) do not change the time.
    /// - Parameter request: The request as finally sent (after rewrites).
    public func markRequestSent(_ request: URLRequest) {
        let now = elapsedMilliseconds
        state.withLock { state in
            if state.requestSent == nil { state.requestSent = now }
            if !state.isSentRequestFrozen { state.sentRequest = request }
        }
    }

    /// Notes the request as a pipeline stage receives it, so the capture shows what the answering stage saw.
    package func noteStageRequest(_ request: URLRequest) {
        state.withLock { state in
            if !state.isSentRequestFrozen { state.sentRequest = request }
        }
    }

    /// Keeps ``sentRequest`` as it is from now on (redirect hops must not replace the captured request).
    package func freezeSentRequest() {
        state.withLock { $0.isSentRequestFrozen = true }
    }

    /// Marks the arrival of the response head; the first call counts.
    public func markFirstByte() {
        let now = elapsedMilliseconds
        state.withLock { state in
            if state.firstByte == nil { state.firstByte = now }
        }
    }

    /// Whether the request reached the transport and no response head came back yet.
    package var isAwaitingTransportHead: Bool {
        state.withLock { $0.requestSent != nil && $0.firstByte == nil }
    }

    /// The milestones so far: request sent and first byte, in milliseconds.
    public var milestones: (requestSent: Double?, firstByte: Double?) {
        state.withLock { ($0.requestSent, $0.firstByte) }
    }

    /// The request as the last stage that ran received it (a handler that answered, or the transport), after
    /// rewrites; for redirected requests, that of the first hop.
    public var sentRequest: URLRequest? { state.withLock { $0.sentRequest } }

    /// The caller-session settings the forwarding transport must mirror (set by the interceptor).
    package var forwardingProfile: ForwardingProfile? {
        get { state.withLock { $0.forwardingProfile } }
        set { state.withLock { $0.forwardingProfile = newValue } }
    }

    /// Whether the app sent the body as a stream, so the transport sends it as a stream too (chunked), as
    /// the platform would have.
    package var requestBodyWasStream: Bool {
        get { state.withLock { $0.requestBodyWasStream } }
        set { state.withLock { $0.requestBodyWasStream = newValue } }
    }

    /// The interceptor's trust rules in force for this request (none in release builds).
    package var trustRules: [TrustRule] {
        get { state.withLock { $0.trustRules } }
        set { state.withLock { $0.trustRules = newValue } }
    }

    /// What the transport saw on the wire so far (set by the transport).
    package var wire: WireDetails? {
        get { state.withLock { $0.wire } }
        set { state.withLock { $0.wire = newValue } }
    }

    /// The request header fields as the transport put them on the wire (the last hop's), when it knows them.
    package var wireRequestHeaders: HeaderFields? {
        get { state.withLock { $0.wireRequestHeaders } }
        set { state.withLock { $0.wireRequestHeaders = newValue } }
    }

    /// Whether the body came from an upload task's data, file or stream rather than the request's own
    /// `httpBody` (the platform adds its default `Content-Type` only for the latter).
    package var requestBodyWasUpload: Bool {
        get { state.withLock { $0.requestBodyWasUpload } }
        set { state.withLock { $0.requestBodyWasUpload = newValue } }
    }
}
