import Foundation

/// The writing end a body producer task is given by `ResponseBody.produced(expectedLength:_:)`: a
/// ``BodyWriter`` and the gate that holds the producer back while the app is behind (back-pressure).
///
/// Thread safety: may be used from any thread; one producer writes at a time.
package struct GatedBodyWriter: Sendable {
    /// The body's writer.
    package let writer: BodyWriter
    /// Closed while more than the high-water mark is unread by the app, opened when it catches up or cancels.
    package let gate: PressureGate

    /// Writes chunks taken from `read` until `target` bytes have been written in all, checking for cancellation
    /// and waiting at the gate before every read.
    ///
    /// - Parameters:
    ///   - sent: The bytes of the body written before this call.
    ///   - target: The bytes of the body written in all when this call returns.
    ///   - length: The whole body's length in bytes, as its head promised.
    ///   - chunkSize: The most bytes asked of `read` at once.
    ///   - read: Returns up to the given number of bytes (at least 1 is asked for); empty when the source ended.
    ///   - endedEarly: Why the source ended before `target` (a file changed while it was served), given the bytes
    ///     written in all so far.
    /// - Returns: The bytes written in all: `target`.
    /// - Throws: `CancellationError` when the producer task is cancelled; what `read` throws; when the source ends
    ///   early, the error of a body cut short (`SimulatedFailure.truncatedBody`, the platform's words for a server
    ///   that closed early) with `endedEarly`'s explanation as its underlying error's failure reason.
    @discardableResult
    package func write(
        from sent: Int64,
        upTo target: Int64,
        of length: Int64,
        chunkSize: Int = ResponseBody.producerChunkSize,
        read: (Int) async throws -> Data,
        endedEarly: (Int64) -> String
    ) async throws -> Int64 {
        var sent = sent
        while sent < target {
            try Task.checkCancellation()
            await gate.waitUntilOpen()
            try Task.checkCancellation()
            let chunk = try await read(Int(min(Int64(chunkSize), target - sent)))
            guard !chunk.isEmpty else {
                throw SimulatedFailure.truncatedBody(remainingBytes: length - sent, url: nil, reason: endedEarly(sent))
            }
            writer.write(chunk)
            sent += Int64(chunk.count)
        }
        return sent
    }
}
