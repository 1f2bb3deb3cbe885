import Foundation
import NetTapCore

/// Writes one response body to its entry's `.partial` file as the app receives it.
///
/// The body goes to disk chunk by chunk (never held whole); past the entry limit, or when a write fails, the
/// file is removed and the rest of the body only passes through. ``finish()`` closes a complete file for the
/// commit; ``abandon(reason:)`` (a cancelled or failed body) removes it.
///
/// Thread safety: every member may be used from any thread; writes happen under the lock, in order.
final class CacheEntryWriter: Sendable {
    private enum Phase {
        case writing(FileHandle)
        case abandoned(String)
        case finished
    }

    private struct State {
        var phase: Phase
        var byteCount = 0
    }

    /// The entry's identifier.
    let id: UUID
    /// The file written: `<id>.body.partial`.
    let partialURL: URL
    private let limit: Int
    private let directory: URL
    private let state: Locked<State>

    /// Creates the `.partial` file (mode 0600).
    ///
    /// - Throws: `POSIXError` when the file cannot be created.
    init(cache: OfflineCache) throws {
        let id = UUID()
        self.id = id
        self.partialURL = cache.bodyURL(id).appendingPathExtension(CacheFiles.partialExtension)
        self.limit = cache.maxEntryBytes
        self.directory = cache.directory
        self.state = Locked(State(phase: .writing(try CacheFiles.create(partialURL))))
    }

    /// Writes a chunk (unless abandoned).
    func append(_ data: Data) {
        let failure = state.withLock { state -> String? in
            guard case .writing(let handle) = state.phase else { return nil }
            guard state.byteCount + data.count <= limit else {
                try? handle.close()
                state.phase = .abandoned("body larger than maxEntryBytes (\(limit) bytes)")
                return ""
            }
            do {
                try handle.write(contentsOf: data)
                state.byteCount += data.count
                return nil
            } catch {
                try? handle.close()
                state.phase = .abandoned("write failed: \(error)")
                return "could not write \(partialURL.lastPathComponent): \(error); the response is not stored"
            }
        }
        guard let failure else { return }
        CacheFiles.remove([partialURL])
        if !failure.isEmpty { CacheFiles.note(failure, directory: directory) }
    }

    /// Stops writing and removes the file (a cancelled or failed body); does nothing after ``finish()``.
    func abandon(reason: String) {
        let removes = state.withLock { state -> Bool in
            guard case .writing(let handle) = state.phase else { return false }
            try? handle.close()
            state.phase = .abandoned(reason)
            return true
        }
        if removes { CacheFiles.remove([partialURL]) }
    }

    /// Closes the complete file.
    ///
    /// - Returns: The body's size in bytes, or why nothing is stored (the body was abandoned or the file could
    ///   not be closed; the file is removed then).
    func finish() -> Result<Int, Abandoned> {
        let result = state.withLock { state -> Result<Int, Abandoned> in
            switch state.phase {
            case .writing(let handle):
                do {
                    try handle.close()
                    state.phase = .finished
                    return .success(state.byteCount)
                } catch {
                    state.phase = .abandoned("closing failed: \(error)")
                    return .failure(Abandoned(reason: "closing failed: \(error)"))
                }
            case .abandoned(let reason):
                return .failure(Abandoned(reason: reason))
            case .finished:
                return .failure(Abandoned(reason: "finished twice"))
            }
        }
        if case .failure = result { CacheFiles.remove([partialURL]) }
        return result
    }

    /// Why a body was not stored.
    struct Abandoned: Error {
        var reason: String
    }
}
