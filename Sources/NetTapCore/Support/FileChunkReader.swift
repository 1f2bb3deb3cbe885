import Foundation

/// Reads an open file in chunks on a background queue, so a file body never sits whole in memory and file reads
/// never block Swift's cooperative threads.
///
/// The reader owns the handle and closes it when released.
///
/// Thread safety: used by one body producer at a time; the handle is only touched on a dispatch queue.
package final class FileChunkReader: @unchecked Sendable {
    private static let queue = DispatchQueue(label: "NetTapCore.FileChunkReader", attributes: .concurrent)

    private let handle: FileHandle

    /// Takes ownership of an open handle.
    package init(handle: FileHandle) {
        self.handle = handle
    }

    deinit {
        try? handle.close()
    }

    /// Moves the read position to `offset` bytes from the start of the file.
    ///
    /// - Throws: The error `FileHandle` reports when seeking fails.
    package func seek(toOffset offset: UInt64) async throws {
        try await onQueue { handle in try handle.seek(toOffset: offset) }
    }

    /// Reads up to `count` bytes (at least 1 is asked for); empty at the end of the file.
    ///
    /// - Throws: The error `FileHandle` reports when reading fails.
    package func read(upTo count: Int) async throws -> Data {
        let size = max(1, count)
        return try await onQueue { handle in try handle.read(upToCount: size) ?? Data() }
    }

    /// Runs blocking file work on the reading queue.
    private func onQueue<T: Sendable>(_ work: @escaping @Sendable (FileHandle) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Self.queue.async { [handle] in
                continuation.resume(with: Result { try work(handle) })
            }
        }
    }
}
