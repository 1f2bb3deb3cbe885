import Foundation
import NetTapCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The "peer" route: the session-per-request recipe of the common URLSession loggers and blog posts (netfox,
/// Wormholy and the like), as a minimal `URLProtocol`.
///
/// For each intercepted request `startLoading` creates a new `URLSession` from
/// `URLSessionConfiguration.default` (whose protocol classes do not include this one, so it cannot loop), with a
/// delegate, and forwards the request through a data task. The delegate buffers the body and, when the task
/// completes, relays the response, the whole body in one `didLoad` (on Linux completion-handler callers keep only
/// the last chunk) and the end to the client; then it invalidates that session (`finishTasksAndInvalidate`).
/// `stopLoading` cancels it (`invalidateAndCancel`). Redirects are followed by the inner session.
///
/// On Linux `startLoading` and `stopLoading` run on the queue every FoundationNetworking session's work queue
/// targets, and creating a task or invalidating a session waits on that queue (`DispatchQueue.sync`), which
/// traps there; so both hop to a global queue first, as any forwarder that works on Linux has to. And the
/// client must be called on the intercepted task's own work queue (FoundationNetworking's `_ProtocolClient`
/// reads the session's task tables unlocked: called from the inner session's delegate queue it crashes under
/// 16 in flight), so the relay delivers there; the queue is found the way NetTap finds it (`CallerInspector`,
/// reflection), and without it the relay calls the client inline, as the Apple-platform loggers do.
final class PeerProtocol: URLProtocol {
    /// The relay of this request; set in `startLoading`, read in `stopLoading` (both on the loading thread).
    nonisolated(unsafe) private var relay: PeerRelay?

    /// Creates a session whose requests this protocol intercepts (it comes first in `protocolClasses`).
    /// - Returns: The session, with a default configuration otherwise.
    static func makeSession() -> URLSession {
        let configuration = URLSessionConfiguration.default
        configuration.protocolClasses = [PeerProtocol.self] + (configuration.protocolClasses ?? [])
        return URLSession(configuration: configuration)
    }

    override class func canInit(with request: URLRequest) -> Bool {
        let scheme = request.url?.scheme?.lowercased()
        return scheme == "http" || scheme == "https"
    }

    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
        guard let client else { return }
        let relay = PeerRelay(owner: self, client: client, clientQueue: CallerInspector.inspect(task).workQueue)
        self.relay = relay
        let request = request
        DispatchQueue.global().async { relay.start(request) }
    }

    override func stopLoading() {
        guard let relay else { return }
        DispatchQueue.global().async { relay.stop() }
    }
}

/// The delegate of one ``PeerProtocol`` request's own session: buffers the body and relays the outcome.
///
/// `@unchecked Sendable`: every stored property is guarded by `lock`; the protocol and its client are
/// Foundation types without Sendable conformances, called as any `URLProtocol` calls its client from its
/// session's delegate queue.
final class PeerRelay: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    /// Guards the properties below.
    private let lock = NSLock()
    /// The protocol instance the client calls name; `nil` once finished or stopped.
    private var owner: URLProtocol?
    /// The URL Loading System's client; `nil` once finished or stopped.
    private var client: (any URLProtocolClient)?
    /// The session made for this request; `nil` once invalidated.
    private var session: URLSession?
    /// The body received so far.
    private var body = Data()
    /// The intercepted task's work queue, where the client is called; `nil`: called inline.
    private let clientQueue: DispatchQueue?

    /// Creates the relay.
    /// - Parameters:
    ///   - owner: The protocol instance.
    ///   - client: Its client.
    ///   - clientQueue: The intercepted task's work queue, or `nil` to call the client inline.
    init(owner: URLProtocol, client: any URLProtocolClient, clientQueue: DispatchQueue?) {
        self.owner = owner
        self.client = client
        self.clientQueue = clientQueue
    }

    /// Creates this request's session and starts the data task.
    /// - Parameter request: The intercepted request, forwarded unchanged.
    func start(_ request: URLRequest) {
        let session = URLSession(configuration: .default, delegate: self, delegateQueue: nil)
        lock.withLock { self.session = session }
        session.dataTask(with: request).resume()
    }

    /// Stops relaying and cancels the session.
    func stop() {
        let session = lock.withLock {
            defer {
                owner = nil
                client = nil
                self.session = nil
            }
            return self.session
        }
        session?.invalidateAndCancel()
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        lock.withLock { body.append(data) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (owner, client, body) = lock.withLock {
            defer {
                self.owner = nil
                self.client = nil
                self.session = nil
                self.body = Data()
            }
            return (self.owner, self.client, self.body)
        }
        session.finishTasksAndInvalidate()
        guard let owner, let client else { return }
        let outcome = PeerOutcome(owner: owner, client: client, response: task.response, body: body, error: error)
        if let clientQueue {
            clientQueue.async { outcome.deliver() }
        } else {
            outcome.deliver()
        }
    }
}

/// The end of one ``PeerProtocol`` request, handed to the intercepted task's work queue.
///
/// `@unchecked Sendable`: created on the delegate queue, then only read, once, on the work queue.
private struct PeerOutcome: @unchecked Sendable {
    /// The protocol instance the client calls name.
    let owner: URLProtocol
    /// The URL Loading System's client.
    let client: any URLProtocolClient
    /// The inner task's response, or `nil` when it failed before one.
    let response: URLResponse?
    /// The whole body.
    let body: Data
    /// The inner task's error, or `nil`.
    let error: (any Error)?

    /// Calls the client: the response, the body in one `didLoad` and the end; or the failure.
    func deliver() {
        if let error {
            client.urlProtocol(owner, didFailWithError: error)
            return
        }
        guard let response else {
            client.urlProtocol(owner, didFailWithError: URLError(.badServerResponse))
            return
        }
        client.urlProtocol(owner, didReceive: response, cacheStoragePolicy: .notAllowed)
        if !body.isEmpty { client.urlProtocol(owner, didLoad: body) }
        client.urlProtocolDidFinishLoading(owner)
    }
}
