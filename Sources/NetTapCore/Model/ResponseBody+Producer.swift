import Foundation

extension ResponseBody {
    /// The chunk size of a produced body's reads: 64 KiB.
    package static let producerChunkSize = 64 * 1024
    /// Bytes unread by the app above which a producer pauses: 1 MiB.
    package static let producerHighWater = 1024 * 1024
    /// Bytes unread by the app at or below which a paused producer resumes: 256 KiB.
    package static let producerLowWater = 256 * 1024

    /// A streamed body written by a producer task that pauses while the app is behind and stops when the reader
    /// goes away.
    ///
    /// While more than ``producerHighWater`` bytes are unread by the app the producer's gate is closed until the
    /// app is down to ``producerLowWater`` (the body's back-pressure marks, acknowledged by the interceptor as the
    /// app takes the bytes). When the reader goes away (the app cancels, a timeout, a body that may not be
    /// delivered) the task is cancelled and the gate opened for good. The body ends when `produce` returns, or
    /// with the error it throws.
    ///
    /// - Parameters:
    ///   - expectedLength: The total length in bytes when known, else `nil`.
    ///   - produce: Writes the body; runs once, in a new task started at once.
    /// - Returns: The body, its producer started.
    package static func produced(
        expectedLength: Int64?,
        _ produce: @escaping @Sendable (GatedBodyWriter) async throws -> Void
    ) -> ResponseBody {
        let channel = BodyChannel()
        let output = GatedBodyWriter(writer: BodyWriter(channel: channel), gate: PressureGate())
        channel.setPressureHandler(highWater: producerHighWater, lowWater: producerLowWater) {
            output.gate.setClosed($0)
        }
        let producer = Task {
            do {
                try await produce(output)
                output.writer.finish()
            } catch {
                output.writer.finish(throwing: error)
            }
        }
        output.writer.onCancel {
            producer.cancel()
            output.gate.cancel()
        }
        return ResponseBody(channel: channel, expectedLength: expectedLength)
    }

    /// A body streamed from part of a file in ``producerChunkSize`` reads, produced as ``produced(expectedLength:_:)``
    /// describes.
    ///
    /// - Parameters:
    ///   - reader: The file; released (and so closed) when the body ends.
    ///   - offset: The first byte to send.
    ///   - length: How many bytes to send.
    ///   - endedEarly: Why the body ended early when the file ends before `length` bytes, given the bytes sent so
    ///     far: the underlying reason of the platform's "body cut short" error that ends the body
    ///     (`SimulatedFailure.truncatedBody`).
    /// - Returns: A body whose ``expectedLength`` is `length`.
    package static func file(
        reading reader: FileChunkReader,
        offset: Int64 = 0,
        length: Int64,
        endedEarly: @escaping @Sendable (Int64) -> String
    ) -> ResponseBody {
        produced(expectedLength: length) { output in
            if offset > 0 {
                try await reader.seek(toOffset: UInt64(offset))
            }
            try await output.write(
                from: 0,
                upTo: length,
                of: length,
                read: { try await reader.read(upTo: $0) },
                endedEarly: endedEarly
            )
        }
    }
}
