import Dispatch
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Delivers the pipeline's outcome to the URL Loading System's client, safely.
///
/// - Every client call runs on the app task's work queue (on Linux, a queue that targets the process-wide
///   URLSession queue), so it is serialised with URLSession's own bookkeeping; calling from elsewhere
///   crashes FoundationNetworking under load.
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
    private var onStop: (@Sendable () -> Void)?
    private let queue: DispatchQueue
    private let owner: URLProtocol
    private let client: any URLProtocolClient
    private let delivery: CallerInfo.Delivery

    init(owner: URLProtocol, client: any URLProtocolClient, queue: DispatchQueue, delivery: CallerInfo.Delivery) {
        self.owner = owner
        self.client = client
        self.queue = queue
        self.delivery = delivery
    }

    /// Whether the relay still delivers (neither finished nor stopped).
    var isRunning: Bool {
        lock.lock()
        defer { lock.unlock() }
        return phase == .running
    }

    /// Registers the action `stop()` runs (cancel the pipeline); runs it at once when already stopped.
    func setStopAction(_ action: @escaping @Sendable () -> Void) {
        lock.lock()
        let stopped = phase == .stopped
        if !stopped { onStop = action }
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
        buffer = Data()
        lock.unlock()
        if wasRunning { action?() }
        return wasRunning
    }

    func head(_ response: URLResponse) {
        perform { client, owner in
            client.urlProtocol(owner, didReceive: response, cacheStoragePolicy: .notAllowed)
        }
    }

    func chunk(_ data: Data, delivered: (@Sendable () -> Void)? = nil) {
        switch delivery {
        case .streamToDelegate:
            perform { client, owner in
                client.urlProtocol(owner, didLoad: data)
            }
            if let delivered { queue.async { delivered() } }
        case .singleBuffer:
            lock.lock()
            if phase == .running { buffer.append(data) }
            lock.unlock()
            delivered?()
        }
    }

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

    private func perform(ending: Bool = false, _ call: @escaping @Sendable (any URLProtocolClient, URLProtocol) -> Void)
    {
        queue.async { [self] in
            lock.lock()
            defer { lock.unlock() }
            guard phase == .running else { return }
            if ending { phase = .finished }
            call(client, owner)
        }
    }
}
