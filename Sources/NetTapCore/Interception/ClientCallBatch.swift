import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Client calls queued during one round of a transport's event loop, handed to their work queues together when
/// the round ends.
///
/// A small forwarded answer arrives in one round of the libcurl loop: head, body and end. Handed over one by one,
/// the head wakes the task's work queue and the end wakes it again a few microseconds later; collected, the three
/// calls take one hop. An answer a handler made in memory (a stub, a cassette entry) is relayed the same way, in one
/// hop (``collecting(_:)``). Calls keep their order per queue; a thread that has no batch dispatches at once.
final class ClientCallBatch: @unchecked Sendable {
    private var entries: [(queue: DispatchQueue, calls: [@Sendable () -> Void])] = []

    /// The batch of the current thread, if it collects one (``collectOnCurrentThread()``).
    static var current: ClientCallBatch? {
        guard let key, let pointer = pthread_getspecific(key) else { return nil }
        return Unmanaged<ClientCallBatch>.fromOpaque(pointer).takeUnretainedValue()
    }

    private static let key: pthread_key_t? = {
        var key = pthread_key_t()
        return pthread_key_create(&key, nil) == 0 ? key : nil
    }()

    /// Makes this batch the current thread's, for the rest of the thread's life.
    ///
    /// The event loop's thread calls it once; the batch must outlive the thread. When the thread cannot collect,
    /// its calls dispatch at once.
    func collectOnCurrentThread() {
        guard let key = Self.key else { return }
        _ = pthread_setspecific(key, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Runs `body` with the current thread collecting client calls, then hands them over in one hop per queue.
    ///
    /// On a thread that collects already (the libcurl loop's), `body` just
    /// runs. Use it only where no other thread relays for the same requests meanwhile (a body that is already
    /// complete), or a call from that thread could overtake the collected ones.
    ///
    /// - Parameter body: The synchronous work whose client calls are collected.
    static func collecting(_ body: () -> Void) {
        guard current == nil, let key = Self.key else {
            body()
            return
        }
        let batch = ClientCallBatch()
        withExtendedLifetime(batch) {
            _ = pthread_setspecific(key, Unmanaged.passUnretained(batch).toOpaque())
            body()
            _ = pthread_setspecific(key, nil)
            batch.flush()
        }
    }

    /// Queues `call` for `queue` (on the collecting thread only).
    func add(_ call: @escaping @Sendable () -> Void, for queue: DispatchQueue) {
        if let index = entries.lastIndex(where: { $0.queue === queue }) {
            entries[index].calls.append(call)
        } else {
            entries.append((queue, [call]))
        }
    }

    /// Hands every queued call to its queue, one dispatch per queue, in the order they were added (on the
    /// collecting thread only).
    func flush() {
        guard !entries.isEmpty else { return }
        let ready = entries
        entries.removeAll(keepingCapacity: true)
        for (queue, calls) in ready {
            queue.async {
                for call in calls { call() }
            }
        }
    }
}
