import Dispatch
import Foundation

/// Marks the stretch of a thread during which NetTap runs on URLSession's work queue (the protocol's
/// `startLoading`), so code that may call URLSession leaves that queue first.
///
/// FoundationNetworking's sessions all target one process-wide serial queue, and creating or resuming a task
/// waits on it synchronously (`workQueue.sync`): called from that queue, it traps ("dispatch_sync called on
/// queue already owned by current thread"). Handlers start inline there (`Task.immediate`), so before a stage
/// NetTap does not know (an app's handler, a dynamic stub, the URLSession transport) the pipeline calls
/// ``leave()``, which moves the task to the global executor.
package enum URLSessionQueueWindow {
    /// Whether the current thread is inside the window.
    package static var isCurrent: Bool {
        pthread_getspecific(key.value) != nil
    }

    /// Runs `body` with the current thread marked as being on URLSession's work queue, then resumes the tasks
    /// that left the window meanwhile.
    package static func run(_ body: () -> Void) {
        let window = Window()
        let previous = pthread_getspecific(key.value)
        pthread_setspecific(key.value, Unmanaged.passUnretained(window).toOpaque())
        body()
        pthread_setspecific(key.value, previous)
        for continuation in window.leaving { continuation.resume() }
    }

    /// Suspends the calling task until the window ends, when it runs inside it (started with `Task.immediate`
    /// there); returns at once otherwise.
    ///
    /// The task resumes on the global executor once `run`'s body returned, so it never continues on this thread
    /// while the window lasts: a continuation resumed from another thread could race the suspension and go on
    /// inline.
    package static func leave() async {
        guard let slot = pthread_getspecific(key.value) else { return }
        let window = Unmanaged<Window>.fromOpaque(slot).takeUnretainedValue()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            window.leaving.append(continuation)
        }
    }

    /// One window: the tasks waiting for it to end (only its own thread touches it).
    private final class Window {
        var leaving: [CheckedContinuation<Void, Never>] = []
    }

    private static let key = ThreadKey()

    /// The thread-specific slot, created once per process.
    private final class ThreadKey: Sendable {
        let value: pthread_key_t

        init() {
            var key = pthread_key_t()
            pthread_key_create(&key, nil)
            value = key
        }
    }
}

/// A pipeline stage whose synchronous part (up to its first real suspension) never calls URLSession, runs no app
/// code without leaving first (``URLSessionQueueWindow/leave()``) and never waits, so it may start on
/// URLSession's work queue.
///
/// NetTap's own handlers and the libcurl transport conform; any other stage starts after the pipeline left the
/// queue.
package protocol StartsInline {}
