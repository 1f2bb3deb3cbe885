import Foundation
import NetTapCore

/// Streams a byte range of an opened file as a `ResponseBody`, never holding more than a few chunks.
///
/// A producer task reads 64 KiB chunks with `FileHandle` on a dispatch queue (file reads never block Swift's
/// cooperative threads) and writes them to the body. While more than ``highWater`` bytes are unread by the
/// app it waits at a gate until the app is down to ``lowWater`` (the body's back-pressure marks, acknowledged
/// by the interceptor as the app's delegate takes the bytes). When the reader goes away (the app cancels, a
/// timeout, a body that may not be delivered) the producer is cancelled and the file closed.
enum FileBody {
    /// The read size: 64 KiB.
    static let chunkSize = 64 * 1024
    /// Bytes unread by the app above which the producer pauses: 1 MiB.
    static let highWater = 1024 * 1024
    /// Bytes unread by the app at or below which a paused producer resumes: 256 KiB.
    static let lowWater = 256 * 1024

    private static let queue = DispatchQueue(label: "NetTapFiles.FileBody", attributes: .concurrent)

    /// Creates the body and starts its producer.
    ///
    /// - Parameters:
    ///   - file: The opened file; kept open until the body ends.
    ///   - offset: The first byte to send.
    ///   - length: How many bytes to send.
    /// - Returns: A body whose `expectedLength` is `length`.
    static func make(file: OpenedFile, offset: Int64, length: Int64) -> ResponseBody {
        var bodyWriter: BodyWriter?
        let body = ResponseBody.stream(expectedLength: length) { bodyWriter = $0 }
        guard let writer = bodyWriter else { return body }
        let gate = PressureGate()
        body.channel.setPressureHandler(highWater: highWater, lowWater: lowWater) { gate.setClosed($0) }
        let producer = Task {
            do {
                try await produce(file: file, offset: offset, length: length, into: writer, gate: gate)
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

    private static func produce(
        file: OpenedFile,
        offset: Int64,
        length: Int64,
        into writer: BodyWriter,
        gate: PressureGate
    ) async throws {
        if offset > 0 {
            try await onQueue { try file.handle.seek(toOffset: UInt64(offset)) }
        }
        var sent: Int64 = 0
        while sent < length {
            try Task.checkCancellation()
            await gate.waitUntilOpen()
            try Task.checkCancellation()
            let count = Int(min(Int64(chunkSize), length - sent))
            let chunk = try await onQueue { try file.handle.read(upToCount: count) ?? Data() }
            guard !chunk.isEmpty else {
                throw URLError(
                    .networkConnectionLost,
                    userInfo: [
                        NSLocalizedDescriptionKey: "local file \(file.path) ended after \(offset + sent) bytes, "
                            + "\(length - sent) bytes short of what its size promised; was it changed while served?"
                    ]
                )
            }
            writer.write(chunk)
            sent += Int64(chunk.count)
        }
    }

    /// Runs blocking file work on the reading queue.
    private static func onQueue<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(with: Result { try work() })
            }
        }
    }
}
