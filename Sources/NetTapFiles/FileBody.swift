import Foundation
import NetTapCore

/// Streams a byte range of an opened file as a `ResponseBody`, never holding more than a few chunks.
///
/// `ResponseBody.file(reading:offset:length:endedEarly:)` reads 64 KiB chunks with `FileHandle` on a dispatch
/// queue (file reads never block Swift's cooperative threads), pauses while more than 1 MiB is unread by the app
/// until it is down to 256 KiB, and stops and closes the file when the reader goes away (the app cancels, a
/// timeout, a body that may not be delivered).
enum FileBody {
    /// Creates the body and starts its producer.
    ///
    /// - Parameters:
    ///   - file: The opened file; kept open until the body ends.
    ///   - offset: The first byte to send.
    ///   - length: How many bytes to send.
    /// - Returns: A body whose `expectedLength` is `length`.
    static func make(file: OpenedFile, offset: Int64, length: Int64) -> ResponseBody {
        let path = file.path
        return .file(reading: FileChunkReader(handle: file.handle), offset: offset, length: length) { sent in
            "local file \(path) ended after \(offset + sent) bytes, "
                + "\(length - sent) bytes short of what its size promised; was it changed while served?"
        }
    }
}
