import Foundation
import NetTapCore

/// Builds the streamed `ResponseBody` of a stub: bytes from memory or a file, optionally paced on a clock.
///
/// The producer is a task that stops as soon as the app cancels the body; it waits while more than 1 MiB is
/// unread (back-pressure) so a file body is never held whole.
enum PacedBody {
    /// Bytes unread by the app above which the producer pauses.
    static let highWater = 1024 * 1024
    /// Bytes unread by the app at or below which a paused producer resumes.
    static let lowWater = 256 * 1024

    /// Creates the body and starts its producer.
    /// - Parameters:
    ///   - source: The bytes.
    ///   - pacing: How the body is spread over time, or `nil`.
    ///   - clock: The transaction's clock.
    /// - Returns: The body, its producer started.
    static func make(
        source: BodySource,
        pacing: BodyPacing?,
        clock: any Clock<Duration>
    ) -> ResponseBody {
        let length = source.byteCount
        if pacing == nil || pacing?.stepCount(forByteCount: length) == 0, case .memory(let data) = source {
            return .data(data)
        }
        var bodyWriter: BodyWriter?
        let body = ResponseBody.stream(expectedLength: length) { bodyWriter = $0 }
        guard let writer = bodyWriter else { return body }
        let gate = PressureGate()
        body.channel.setPressureHandler(highWater: highWater, lowWater: lowWater) { gate.setClosed($0) }
        let producer = Task {
            do {
                var cursor = BodyCursor(source: source)
                try await produce(
                    into: writer,
                    cursor: &cursor,
                    length: length,
                    pacing: pacing,
                    clock: clock,
                    gate: gate
                )
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

    /// Waits `pacing`'s whole duration for a body that is never delivered (HEAD, 1xx, 204, 304), in steps of at
    /// most ``BodyPacing/maximumStep``.
    static func waitForUndeliveredBody(pacing: BodyPacing?, clock: any Clock<Duration>) async throws {
        guard let pacing else { return }
        try await waitInSteps(pacing: pacing, clock: clock)
    }

    private static func waitInSteps<C: Clock<Duration>>(pacing: BodyPacing, clock: C) async throws {
        let steps = pacing.stepCount(forByteCount: 0)
        guard steps > 0 else { return }
        let total = pacing.totalDuration(forByteCount: 0)
        let start = clock.now
        for step in 1...steps {
            let offset = BodyPacing.offset(ofStep: step, of: steps, total: total)
            try await clock.sleep(until: start.advanced(by: offset), tolerance: nil)
        }
    }

    private static func produce<C: Clock<Duration>>(
        into writer: BodyWriter,
        cursor: inout BodyCursor,
        length: Int64,
        pacing: BodyPacing?,
        clock: C,
        gate: PressureGate
    ) async throws {
        let steps = pacing?.stepCount(forByteCount: length) ?? 0
        guard let pacing, steps > 0 else {
            try await send(upTo: length, of: length, from: &cursor, into: writer, sent: 0, gate: gate)
            return
        }
        let total = pacing.totalDuration(forByteCount: length)
        let start = clock.now
        var sent: Int64 = 0
        for step in 1...steps {
            let offset = BodyPacing.offset(ofStep: step, of: steps, total: total)
            try await clock.sleep(until: start.advanced(by: offset), tolerance: nil)
            let target = length * Int64(step) / Int64(steps)
            sent = try await send(upTo: target, of: length, from: &cursor, into: writer, sent: sent, gate: gate)
        }
    }

    /// Sends bytes until `target` of the body's `length` bytes have been sent in all; returns the new count.
    @discardableResult
    private static func send(
        upTo target: Int64,
        of length: Int64,
        from cursor: inout BodyCursor,
        into writer: BodyWriter,
        sent: Int64,
        gate: PressureGate
    ) async throws -> Int64 {
        var sent = sent
        while sent < target {
            try Task.checkCancellation()
            await gate.waitUntilOpen()
            try Task.checkCancellation()
            let chunk = try await cursor.read(upTo: Int(min(Int64(FileChunkReader.chunkSize), target - sent)))
            guard !chunk.isEmpty else {
                var place = ""
                if case .file(let reader) = cursor.source { place = " (\(reader.url.path))" }
                throw URLError(
                    .networkConnectionLost,
                    userInfo: [
                        NSLocalizedDescriptionKey: "stub body file\(place) ended after \(sent) of \(length) bytes; "
                            + "was it changed while the stub answered?"
                    ]
                )
            }
            writer.write(chunk)
            sent += Int64(chunk.count)
        }
        return sent
    }
}
