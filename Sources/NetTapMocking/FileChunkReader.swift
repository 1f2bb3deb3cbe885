import Foundation

/// Reads a file in chunks on a background queue, so a large stub body never sits whole in memory and file
/// reads never block Swift's cooperative threads.
///
/// Thread safety: used by one body producer at a time; the file handle is only touched on `queue`.
final class FileChunkReader: @unchecked Sendable {
    /// The chunk size: 64 KiB.
    static let chunkSize = 64 * 1024

    private static let queue = DispatchQueue(label: "NetTapMocking.FileChunkReader", attributes: .concurrent)

    let url: URL
    let byteCount: Int64
    private let handle: FileHandle

    /// Opens the file.
    /// - Throws: `URLError(.fileDoesNotExist)` naming the path when it cannot be opened.
    init(url: URL) throws {
        self.url = url
        let path = url.path
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            (attributes[.type] as? FileAttributeType) != .typeDirectory,
            let handle = FileHandle(forReadingAtPath: path)
        else {
            throw URLError(
                .fileDoesNotExist,
                userInfo: [
                    NSLocalizedDescriptionKey: "stub body file not found: \(path)",
                    NSFilePathErrorKey: path,
                ]
            )
        }
        self.handle = handle
        self.byteCount = (attributes[.size] as? NSNumber)?.int64Value ?? 0
    }

    deinit {
        try? handle.close()
    }

    /// Reads up to `count` bytes (at most ``chunkSize``); empty at the end of the file.
    func read(upTo count: Int) async throws -> Data {
        let size = min(max(1, count), Self.chunkSize)
        return try await withCheckedThrowingContinuation { continuation in
            Self.queue.async { [handle] in
                do {
                    continuation.resume(returning: try handle.read(upToCount: size) ?? Data())
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }
}
