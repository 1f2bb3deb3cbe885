import Foundation
import NetTapCore

/// Streams a stored body from its file: 64 KiB reads on a background queue, paused while the app is more than
/// 1 MiB behind, stopped when the app cancels (`ResponseBody.file(reading:offset:length:endedEarly:)`).
enum CachedBody {
    /// The body of a stored entry.
    ///
    /// - Parameters:
    ///   - handle: The open body file; closed when the body ends.
    ///   - byteCount: The stored size; a file that ends early fails the body as a server that closes early does
    ///     (`SimulatedFailure.truncatedBody`: "transfer closed with N bytes remaining to read" on Linux).
    /// - Returns: The streamed body, its ``ResponseBody/expectedLength`` the stored size.
    static func make(handle: FileHandle, byteCount: Int) -> ResponseBody {
        let reader = FileChunkReader(handle: handle)
        guard byteCount > 0 else { return .empty }
        return .file(reading: reader, length: Int64(byteCount)) { sent in
            "the offline cache's copy ended after \(sent) of \(byteCount) bytes"
        }
    }
}
