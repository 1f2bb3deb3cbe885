import Foundation
import NetTapCore

/// Builds the streamed `ResponseBody` of a stub: bytes from memory or a file, optionally paced on a clock.
///
/// The producer is a task that stops as soon as the app cancels the body; it waits while more than 1 MiB is
/// unread (back-pressure) so a file body is never held whole (`ResponseBody.produced(expectedLength:_:)`).
enum PacedBody {
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
        return .produced(expectedLength: length) { output in
            var cursor = BodyCursor(source: source)
            try await produce(into: output, cursor: &cursor, length: length, pacing: pacing, clock: clock)
        }
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
        into output: GatedBodyWriter,
        cursor: inout BodyCursor,
        length: Int64,
        pacing: BodyPacing?,
        clock: C
    ) async throws {
        let steps = pacing?.stepCount(forByteCount: length) ?? 0
        guard let pacing, steps > 0 else {
            try await send(upTo: length, of: length, from: &cursor, into: output, sent: 0)
            return
        }
        let total = pacing.totalDuration(forByteCount: length)
        let start = clock.now
        var sent: Int64 = 0
        for step in 1...steps {
            let offset = BodyPacing.offset(ofStep: step, of: steps, total: total)
            try await clock.sleep(until: start.advanced(by: offset), tolerance: nil)
            let target = length * Int64(step) / Int64(steps)
            sent = try await send(upTo: target, of: length, from: &cursor, into: output, sent: sent)
        }
    }

    /// Sends bytes until `target` of the body's `length` bytes have been sent in all; returns the new count.
    @discardableResult
    private static func send(
        upTo target: Int64,
        of length: Int64,
        from cursor: inout BodyCursor,
        into output: GatedBodyWriter,
        sent: Int64
    ) async throws -> Int64 {
        var place = ""
        if case .file(_, let url, _) = cursor.source { place = " (\(url.path))" }
        return try await output.write(from: sent, upTo: target, of: length, read: { try await cursor.read(upTo: $0) }) {
            sent in
            "stub body file\(place) ended after \(sent) of \(length) bytes; was it changed while the stub answered?"
        }
    }
}
