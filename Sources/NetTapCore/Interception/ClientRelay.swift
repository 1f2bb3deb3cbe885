import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Delivers the pipeline's outcome to the URL Loading System's client, safely.
///
/// - Every client call runs on the app task's work queue (on Linux, a queue that targets the process-wide
///   URLSession queue), so it is serialised with URLSession's own bookkeeping; calling from elsewhere
///   crashes FoundationNetworking under load. Calls made on the libcurl loop's thread take one hop per loop
///   round (``ClientCallBatch``).
/// - A lock-guarded phase (`running → finished | stopped`) makes sure no client call happens after the
///   finish or after `stopLoading`: a late call crashes the process on Linux.
/// - Body bytes go chunk by chunk to delegate callers, and as one buffer to callers that only keep the last
///   `didLoad` chunk (completion handlers and async APIs on Linux).
final class ClientRelay: @unchecked Sendable {
    enum Phase {
        case running
        case finished
        case stopped
    }

    private let lock = NSRecursiveLock()
    private var phase = Phase.running
    private var buffer = Data()
    private var unacknowledged = 0
    private var pendingAsync = 0
    private var onStop: (@Sendable () -> Void)?
    /// The thread that may call the client inline (``deliveringInline(_:)``): `startLoading`'s, while it runs.
    private var inlineThread: pthread_t?
    private let queue: DispatchQueue
    // The protocol holds the relay; the relay lets go of the protocol (and of the stop action) once it has
    // finished or stopped, so the two do not keep each other alive after the request.
    private var owner: URLProtocol?
    private let client: any URLProtocolClient
    private let delivery: CallerInfo.Delivery
    private let delegateQueue: OperationQueue?

    /// Creates the relay for one protocol instance.
    ///
    /// - Parameters:
    ///   - owner: The protocol instance the client calls name.
    ///   - client: The URL Loading System's client.
    ///   - queue: The app task's serial work queue.
    ///   - delivery: How the app consumes the body.
    ///   - delegateQueue: The app session's delegate queue; marker operations queued there tell when the app's
    ///     delegate has taken the chunks (back-pressure).
    init(
        owner: URLProtocol,
        client: any URLProtocolClient,
        queue: DispatchQueue,
        delivery: CallerInfo.Delivery,
        delegateQueue: OperationQueue? = nil
    ) {
        self.owner = owner
        self.client = client
        self.queue = queue
        self.delivery = delivery
        self.delegateQueue = delegateQueue
    }

    /// Whether the relay still delivers (neither finished nor stopped).
    var isRunning: Bool {
        lock.lock()
        defer { lock.unlock() }
        return phase == .running
    }

    /// Registers the action `stop()` runs (cancel the pipeline); runs it at once when already stopped, and
    /// drops it when already finished.
    func setStopAction(_ action: @escaping @Sendable () -> Void) {
        lock.lock()
        let stopped = phase == .stopped
        if phase == .running { onStop = action }
        lock.unlock()
        if stopped { action() }
    }

    /// Marks the relay stopped (from `stopLoading`); no client call happens afterwards.
    /// - Returns: `true` when it was running.
    @discardableResult
    func stop() -> Bool {
        lock.lock()
        let wasRunning = phase == .running
        if wasRunning { phase = .stopped }
        let action = onStop
        onStop = nil
        owner = nil
        buffer = Data()
        lock.unlock()
        if wasRunning { action?() }
        return wasRunning
    }

    /// Runs `body` with client calls made on the current thread going to the client at once (in order: not
    /// while calls from other threads still wait on the work queue).
    ///
    /// For `startLoading`, which runs on the task's work queue and may call the client itself, as any
    /// `URLProtocol` answering inline does. Calls from other threads meanwhile still hop to the work queue.
    func deliveringInline(_ body: () -> Void) {
        lock.lock()
        inlineThread = pthread_self()
        lock.unlock()
        body()
        lock.lock()
        inlineThread = nil
        lock.unlock()
    }

    func head(_ response: URLResponse) {
        perform { client, owner in
            client.urlProtocol(owner, didReceive: response, cacheStoragePolicy: .notAllowed)
        }
    }

    /// Relays one body chunk.
    /// - Parameters:
    ///   - data: The bytes.
    ///   - acknowledge: Told how many bytes the app has taken, so the producer can apply back-pressure. For
    ///     delegate callers this is reported in batches of about ``acknowledgementBatch`` bytes by a marker
    ///     operation queued on the app's (serial) delegate queue behind the delegate's `didReceive(data:)`.
    func chunk(_ data: Data, acknowledge: (@Sendable (Int) -> Void)? = nil) {
        switch delivery {
        case .streamToDelegate:
            let delegateQueue = delegateQueue
            let count = data.count
            let fallback: (@Sendable () -> Void)?
            if let acknowledge {
                fallback = { acknowledge(count) }
            } else {
                fallback = nil
            }
            perform(always: fallback) { [self] client, owner in
                client.urlProtocol(owner, didLoad: data)
                guard let acknowledge else { return }
                unacknowledged += count
                guard unacknowledged >= Self.acknowledgementBatch || delegateQueue == nil else { return }
                let batch = unacknowledged
                unacknowledged = 0
                if let delegateQueue {
                    delegateQueue.addOperation { acknowledge(batch) }
                } else {
                    acknowledge(batch)
                }
            }
        case .singleBuffer:
            lock.lock()
            if phase == .running { buffer.append(data) }
            lock.unlock()
            acknowledge?(data.count)
        }
    }

    /// Bytes relayed to a delegate caller before one acknowledgement marker is queued.
    static let acknowledgementBatch = 512 * 1024

    func finish() {
        perform(ending: true) { [self] client, owner in
            if !buffer.isEmpty {
                let body = buffer
                buffer = Data()
                client.urlProtocol(owner, didLoad: body)
            }
            client.urlProtocolDidFinishLoading(owner)
        }
    }

    func fail(_ error: any Error) {
        perform(ending: true) { client, owner in
            client.urlProtocol(owner, didFailWithError: error)
        }
    }

    /// Runs `call` on the work queue while the relay is running; otherwise runs `always` (if given) instead,
    /// so a producer waiting for an acknowledgement is never left waiting.
    private func perform(
        ending: Bool = false,
        always: (@Sendable () -> Void)? = nil,
        _ call: @escaping @Sendable (any URLProtocolClient, URLProtocol) -> Void
    ) {
        // On a forwarding session's work queue we already run on URLSession's process-wide serial queue, the
        // queue the app task's work queue targets too: call the client here, unless earlier calls still wait
        // on the task's queue (order must be kept).
        if Self.deliversInlineOnURLSessionQueue, DispatchQueue.getSpecific(key: ForwardingSession.workQueueKey) != nil {
            lock.lock()
            if pendingAsync == 0 {
                defer { lock.unlock() }
                execute(ending: ending, always: always, call)
                return
            }
            lock.unlock()
        }
        lock.lock()
        if pendingAsync == 0, let inlineThread, pthread_equal(inlineThread, pthread_self()) != 0 {
            defer { lock.unlock() }
            execute(ending: ending, always: always, call)
            return
        }
        pendingAsync += 1
        lock.unlock()
        let hop: @Sendable () -> Void = { [self] in
            lock.lock()
            defer { lock.unlock() }
            pendingAsync -= 1
            execute(ending: ending, always: always, call)
        }
        // On the libcurl loop, the calls of one round go to the work queue together (ClientCallBatch).
        if let batch = ClientCallBatch.current {
            batch.add(hop, for: queue)
        } else {
            queue.async(execute: hop)
        }
    }

    /// Makes one client call if still running.
    ///
    /// Called with the lock held.
    private func execute(
        ending: Bool,
        always: (@Sendable () -> Void)?,
        _ call: @Sendable (any URLProtocolClient, URLProtocol) -> Void
    ) {
        guard phase == .running, let owner else {
            always?()
            return
        }
        if ending {
            phase = .finished
            onStop = nil
            self.owner = nil
        }
        call(client, owner)
    }

    /// Whether client calls may be made inline from a forwarding session's work queue.
    ///
    /// True on swift-corelibs-foundation 6.0 and later, where every session's work queue targets one process-wide
    /// serial queue (`CallerInspectorTests` checks it); Apple platforms never run forwarding callbacks there.
    static let deliversInlineOnURLSessionQueue = true
}
