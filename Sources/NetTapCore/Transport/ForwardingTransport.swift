import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The transport that sends requests to the real network through pooled forwarding `URLSession`s.
///
/// One forwarding session serves every request of one app session (`ForwardingProfile`: the app session and
/// the settings it shares; in a typical app, one forwarding session for the process), so connections and the
/// per-host connection limit are per app session, as without NetTap; a forwarding session is invalidated
/// (its running tasks finish first) once its app session is gone. A delegate routes each inner task's
/// callbacks to its exchange by task identifier.
/// Redirects are followed here, not by the platform (Linux crashes on `wasRedirectedTo`), with the method
/// and body rules of RFC 9110 §15.4, the `Cookie` header rebuilt from cookie storage on every hop, and a
/// limit of 20 hops (`URLError(.httpTooManyRedirects)`).
///
/// Thread safety: the shared instance may be used from any thread.
public final class ForwardingTransport: Transport {
    /// The process-wide forwarding transport.
    public static let shared = ForwardingTransport()

    /// The most redirects followed before failing with `URLError(.httpTooManyRedirects)`, as URLSession does.
    public static let redirectLimit = 20

    private let pool = Locked<[ForwardingProfile: ForwardingSession]>([:])

    /// Creates a transport with its own forwarding sessions (tests and benchmarks use the shared one).
    public init() {}

    /// Sends the request to the network and returns once the final response head arrives.
    /// - Parameters:
    ///   - request: The request to send.
    ///   - context: The transaction's context; redirect hops and milestones are recorded there.
    /// - Returns: The final response; its body streams as bytes arrive.
    /// - Throws: The `URLError` the network produced, or `URLError(.cancelled)` when cancelled.
    public func send(_ request: URLRequest, context: TransactionContext) async throws -> HandlerResponse {
        let profile = context.forwardingProfile ?? .standard
        let session = forwardingSession(for: profile)
        let exchange = ForwardingExchange(
            request: request,
            context: context,
            session: session,
            sendsBodyAsStream: context.requestBodyWasStream
        )
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                exchange.start(onURLSessionQueue: URLSessionQueueWindow.isCurrent) { continuation.resume(with: $0) }
            }
        } onCancel: {
            exchange.cancel()
        }
    }

    /// The number of forwarding sessions in the pool: one per app session seen (and one for requests whose
    /// session is unknown), until a later request finds the app session gone and releases its forwarding
    /// session.
    public var sessionCount: Int { pool.withLock { $0.count } }

    /// The profiles of the pooled forwarding sessions (tests look at them).
    package var profiles: [ForwardingProfile] { pool.withLock { Array($0.keys) } }

    /// The pooled forwarding session for a profile, created on first use.
    ///
    /// Forwarding sessions of app sessions that are gone are removed first and invalidated with
    /// `finishTasksAndInvalidate()`, so their running requests complete.
    func forwardingSession(for profile: ForwardingProfile) -> ForwardingSession {
        let (session, released) = pool.withLock { pool -> (ForwardingSession, [ForwardingSession]) in
            var released: [ForwardingSession] = []
            if pool.keys.contains(where: \.isOrphaned) {
                for key in pool.keys where key.isOrphaned {
                    if let gone = pool.removeValue(forKey: key) { released.append(gone) }
                }
            }
            if let existing = pool[profile] { return (existing, released) }
            let created = ForwardingSession(profile: profile)
            pool[profile] = created
            return (created, released)
        }
        for gone in released { gone.session.finishTasksAndInvalidate() }
        return session
    }
}

/// One forwarding `URLSession` and the delegate that demultiplexes its callbacks.
///
/// On Linux the delegate queue runs on the session's own work queue, which targets the process-wide serial
/// queue of every URLSession (platform-notes §7, design b): callbacks arrive already serialised with
/// URLSession's bookkeeping, without a thread hop, and the libcurl handle can be paused from there.
final class ForwardingSession: Sendable {
    let session: URLSession
    let router: ForwardingRouter
    /// Marks code running on a forwarding session's work queue.
    static let workQueueKey = DispatchSpecificKey<Void>()
    /// The session's serial work queue, where libcurl is driven; `nil` when not reachable.
    let workQueue: DispatchQueue?

    init(profile: ForwardingProfile) {
        let router = ForwardingRouter()
        let queue = ForwardingDelegateQueue()
        queue.onBacklogChange = { [weak router] backedUp in router?.setBackedUp(backedUp) }
        queue.name = "NetTap.forwarding"
        queue.maxConcurrentOperationCount = 1
        self.router = router
        let session = URLSession(configuration: profile.makeConfiguration(), delegate: router, delegateQueue: queue)
        self.session = session
        #if canImport(FoundationNetworking)
        let workQueue =
            CallerInspector.storedProperty("workQueue", of: session).flatMap(CallerInspector.unwrap)
            as? DispatchQueue
        self.workQueue = workQueue
        if let workQueue {
            workQueue.setSpecific(key: Self.workQueueKey, value: ())
            queue.underlyingQueue = workQueue
            queue.directQueue = workQueue
        }
        #else
        self.workQueue = nil
        #endif
    }
}

/// Routes a forwarding session's delegate callbacks to the exchange that owns each inner task.
final class ForwardingRouter: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let exchanges = Locked<[Int: ForwardingExchange]>([:])

    func register(_ exchange: ForwardingExchange, for task: URLSessionTask) {
        exchanges.withLock { $0[task.taskIdentifier] = exchange }
    }

    private func exchange(for task: URLSessionTask) -> ForwardingExchange? {
        exchanges.withLock { $0[task.taskIdentifier] }
    }

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        exchange(for: dataTask)?.didReceive(response: response, from: dataTask)
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        exchange(for: dataTask)?.didReceive(data: data, from: dataTask)
    }

    /// Pauses (or resumes) receiving on every transfer in flight: the delegate queue is backed up (or drained).
    func setBackedUp(_ backedUp: Bool) {
        let all = exchanges.withLock { Array($0.values) }
        for exchange in all { exchange.setPaused(backedUp, for: .forwardingBacklog) }
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        exchange(for: task)?.willRedirect(response: response, newRequest: request, from: task)
        completionHandler(nil)
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        // FoundationNetworking acts on the disposition synchronously (cancelling or suspending the task), which
        // waits on URLSession's process-wide queue; this callback runs on that queue, so answer from another.
        let answer: @Sendable (URLSession.AuthChallengeDisposition) -> Void = { disposition in
            DispatchQueue.global().async { completionHandler(disposition, nil) }
        }
        let method = challenge.protectionSpace.authenticationMethod
        let httpAuthentication = [
            NSURLAuthenticationMethodHTTPBasic, NSURLAuthenticationMethodHTTPDigest, NSURLAuthenticationMethodNTLM,
            NSURLAuthenticationMethodNegotiate, NSURLAuthenticationMethodDefault,
        ]
        guard httpAuthentication.contains(method) else {
            answer(.performDefaultHandling)
            return
        }
        #if canImport(FoundationNetworking)
        // The 401 head and body were already relayed; refusing here ends the inner task with -999, which
        // the exchange turns into a normal finish, so the caller receives the 401 exactly as sent.
        exchange(for: task)?.refusedAuthenticationChallenge(from: task)
        answer(.cancelAuthenticationChallenge)
        #else
        answer(.performDefaultHandling)
        #endif
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let exchange = exchanges.withLock { $0.removeValue(forKey: task.taskIdentifier) }
        exchange?.didComplete(task: task, error: error)
    }
}

/// The forwarding session's delegate queue: counts the callbacks FoundationNetworking has queued but NetTap
/// has not run yet, and reports when that backlog crosses its marks.
///
/// On loopback, libcurl can read hundreds of megabytes before a single delegate callback runs; counting at
/// the moment a callback is queued (on the session's work queue, inside libcurl's write callback, where
/// `curl_easy_pause` may be called) lets NetTap pause the transfers before memory piles up.
final class ForwardingDelegateQueue: OperationQueue, @unchecked Sendable {
    /// Callbacks queued above which every transfer pauses, and at or below which they resume.
    static let highWater = 256
    static let lowWater = 32

    /// Told `true` when the backlog rises above ``highWater`` and `false` when it falls back to ``lowWater``.
    ///
    /// Set once, before the session is created.
    nonisolated(unsafe) var onBacklogChange: (@Sendable (Bool) -> Void)?
    /// The serial queue callbacks run on directly, skipping `Operation` bookkeeping (FoundationNetworking only ever queues closures here, in order, and needs nothing else from the queue).
    ///
    /// Set once, right after the session is created; `nil` keeps the ordinary operation queue.
    nonisolated(unsafe) var directQueue: DispatchQueue?
    private let backlog = Locked((pending: 0, isBackedUp: false))

    override func addOperation(_ block: @escaping @Sendable () -> Void) {
        let crossedUp = backlog.withLock { state -> Bool in
            state.pending += 1
            guard !state.isBackedUp, state.pending > Self.highWater else { return false }
            state.isBackedUp = true
            return true
        }
        if crossedUp { onBacklogChange?(true) }
        let run: @Sendable () -> Void = { [self] in
            block()
            let crossedDown = backlog.withLock { state -> Bool in
                state.pending -= 1
                guard state.isBackedUp, state.pending <= Self.lowWater else { return false }
                state.isBackedUp = false
                return true
            }
            if crossedDown { onBacklogChange?(false) }
        }
        if let directQueue {
            directQueue.async(execute: run)
        } else {
            super.addOperation(run)
        }
    }
}
