import Foundation
import NetTapCore

/// Streams a stored body from its file: 64 KiB reads on a background queue, paused while the app is more than
/// 1 MiB behind, stopped when the app cancels.
enum CachedBody {
    /// Bytes per read.
    static let chunkSize = 64 * 1024
    /// Bytes unread by the app above which reading pauses.
    static let highWater = 1024 * 1024
    /// Bytes unread by the app at or below which paused reading resumes.
    static let lowWater = 256 * 1024

    private static let queue = DispatchQueue(label: "NetTapCache.CachedBody", attributes: .concurrent)

    /// The body of a stored entry.
    ///
    /// - Parameters:
    ///   - handle: The open body file; closed when the body ends.
    ///   - byteCount: The stored size; a file that ends early fails the body with
    ///     `URLError(.networkConnectionLost)`.
    /// - Returns: The streamed body, its ``ResponseBody/expectedLength`` the stored size.
    static func make(handle: FileHandle, byteCount: Int) -> ResponseBody {
        let file = ReadOnlyFile(handle: handle)
        guard byteCount > 0 else { return .empty }
        var bodyWriter: BodyWriter?
        let body = ResponseBody.stream(expectedLength: Int64(byteCount)) { bodyWriter = $0 }
        guard let writer = bodyWriter else { return body }
        let gate = PressureGate()
        body.channel.setPressureHandler(highWater: highWater, lowWater: lowWater) { gate.setClosed($0) }
        let producer = Task {
            do {
                var sent = 0
                while sent < byteCount {
                    try Task.checkCancellation()
                    await gate.waitUntilOpen()
                    try Task.checkCancellation()
                    let chunk = try await file.read(upTo: min(chunkSize, byteCount - sent))
                    guard !chunk.isEmpty else {
                        throw URLError(
                            .networkConnectionLost,
                            userInfo: [
                                NSLocalizedDescriptionKey:
                                    "the offline cache's copy ended after \(sent) of \(byteCount) bytes"
                            ]
                        )
                    }
                    writer.write(chunk)
                    sent += chunk.count
                }
                writer.finish()
            } catch {
                writer.finish(throwing: error)
            }
        }
        writer.onCancel {
            producer.cancel()
            gate.cancel()
        }
        return body
    }

    /// A file handle read only on the background queue, closed when released.
    private final class ReadOnlyFile: @unchecked Sendable {
        private let handle: FileHandle

        init(handle: FileHandle) {
            self.handle = handle
        }

        deinit {
            try? handle.close()
        }

        func read(upTo count: Int) async throws -> Data {
            try await withCheckedThrowingContinuation { continuation in
                CachedBody.queue.async { [handle] in
                    do {
                        continuation.resume(returning: try handle.read(upToCount: count) ?? Data())
                    } catch {
                        continuation.resume(throwing: error)
                    }
                }
            }
        }
    }
}
