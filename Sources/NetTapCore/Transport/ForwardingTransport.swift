import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The transport that sends requests to the real network through one shared forwarding `URLSession`.
///
/// One session serves every request with the same ``ForwardingProfile`` (in a typical app: one session for
/// the process); a delegate routes each inner task's callbacks to its exchange by task identifier.
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
    public func send(_ request: URLRequest, context: TransactionContext) async throws -> HTTPResponse {
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
                exchange.start(continuation)
            }
        } onCancel: {
            exchange.cancel()
        }
    }

    /// The number of forwarding sessions created so far (one per distinct caller profile).
    public var sessionCount: Int { pool.withLock { $0.count } }

    private func forwardingSession(for profile: ForwardingProfile) -> ForwardingSession {
        pool.withLock { pool in
            if let existing = pool[profile] { return existing }
            let created = ForwardingSession(profile: profile)
            pool[profile] = created
            return created
        }
    }
}

/// One forwarding `URLSession` and the delegate that demultiplexes its callbacks.
final class ForwardingSession: Sendable {
    let session: URLSession
    let router: ForwardingRouter

    init(profile: ForwardingProfile) {
        let router = ForwardingRouter()
        let queue = OperationQueue()
        queue.name = "NetTap.forwarding"
        queue.maxConcurrentOperationCount = 1
        self.router = router
        self.session = URLSession(configuration: profile.makeConfiguration(), delegate: router, delegateQueue: queue)
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
        let method = challenge.protectionSpace.authenticationMethod
        let httpAuthentication = [
            NSURLAuthenticationMethodHTTPBasic, NSURLAuthenticationMethodHTTPDigest, NSURLAuthenticationMethodNTLM,
            NSURLAuthenticationMethodNegotiate, NSURLAuthenticationMethodDefault,
        ]
        guard httpAuthentication.contains(method) else {
            completionHandler(.performDefaultHandling, nil)
            return
        }
        #if canImport(FoundationNetworking)
        // The 401 head and body were already relayed; refusing here ends the inner task with -999, which
        // the exchange turns into a normal finish, so the caller receives the 401 exactly as sent.
        exchange(for: task)?.refusedAuthenticationChallenge(from: task)
        completionHandler(.cancelAuthenticationChallenge, nil)
        #else
        completionHandler(.performDefaultHandling, nil)
        #endif
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let exchange = exchanges.withLock { $0.removeValue(forKey: task.taskIdentifier) }
        exchange?.didComplete(task: task, error: error)
    }
}
