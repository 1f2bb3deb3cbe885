import Foundation
import NetTapCore
import NetTapHAR

/// Writes a cassette file as entries are recorded: the one place a cassette's file is written.
///
/// ``append(_:)`` is synchronous and cheap (callers are body-delivery callbacks); writing happens on the
/// actor, off the caller's thread. Appends that arrive while a write is running are written together by the
/// next write, so a burst of recordings costs few writes. ``flush()`` waits until everything appended
/// before it is on disk. A failed write is thrown by the next ``flush()`` and reported once on standard
/// error when it happens (the next successful write contains every entry, so nothing is lost while the
/// process lives).
///
/// Thread safety: an actor; ``append(_:)`` may be called from any thread.
package actor CassetteWriter {
    /// The file written.
    public nonisolated let fileURL: URL
    private var cassette: Cassette
    private nonisolated let inbox = Locked<[HAREntry]>([])
    private var isWriting = false
    private var idleWaiters: [CheckedContinuation<Void, Never>] = []
    private var lastError: (any Error)?
    private var writeCount = 0

    /// Creates a writer.
    ///
    /// - Parameters:
    ///   - fileURL: The cassette file.
    ///   - cassette: What the file starts with; entries are appended to it.
    package init(fileURL: URL, cassette: Cassette = Cassette()) {
        self.fileURL = fileURL
        self.cassette = cassette
    }

    /// Queues entries to append, and schedules a write.
    ///
    /// - Parameter entries: Redacted HAR entries, in order.
    public nonisolated func append(_ entries: [HAREntry]) {
        guard !entries.isEmpty else { return }
        inbox.withLock { $0 += entries }
        Task { await self.drain() }
    }

    /// Waits until every entry appended before the call is written.
    ///
    /// - Throws: The error of the last write when it failed (`EncodingError`, `CocoaError`, `POSIXError`).
    package func flush() async throws {
        await drain()
        if isWriting {
            await withCheckedContinuation { idleWaiters.append($0) }
        }
        if let lastError { throw lastError }
    }

    /// The cassette as written or about to be written.
    package var current: Cassette { cassette }

    /// How many times the file was written (for tests of coalescing).
    package var writes: Int { writeCount }

    /// Writes until the inbox is empty; returns at once when a write loop is already running.
    private func drain() async {
        guard !isWriting else { return }
        isWriting = true
        while true {
            let pending = inbox.withLock { pending -> [HAREntry] in
                defer { pending = [] }
                return pending
            }
            guard !pending.isEmpty else { break }
            cassette.entries += pending
            let snapshot = cassette
            let url = fileURL
            do {
                try await Task.detached { try snapshot.save(to: url) }.value
                lastError = nil
            } catch {
                // Never silent: an app that does not call flush() still hears of it, once per failure streak.
                if lastError == nil {
                    FileHandle.standardError.write(
                        Data(
                            ("NetTap: cassette \(url.path) could not be written: \(error); the recordings stay in "
                                + "memory and are written with the next recording or flush()\n").utf8
                        )
                    )
                }
                lastError = error
            }
            writeCount += 1
        }
        isWriting = false
        let waiters = idleWaiters
        idleWaiters = []
        for waiter in waiters { waiter.resume() }
    }
}
