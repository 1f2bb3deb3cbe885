import Foundation

extension ResponseBody {
    /// This body with `fault` acted out: its bytes up to the fault, then the failure a server or network doing the
    /// same thing gives (see ``BodyFault``).
    ///
    /// ```swift
    /// var response = try await next(request)
    /// response.body = response.body.withFault(.truncate(afterBytes: 1024))
    /// ```
    ///
    /// The result keeps this body's ``expectedLength``, as the head of a body cut short still promised the whole.
    /// When the fault comes this body is cancelled (its producer told), since nothing reads further; a body that
    /// ends before the fault ends normally. A stall waits with no timer of its own until the reader goes away (the
    /// request's idle timeout, or the app cancelling).
    /// - Parameter fault: The fault.
    /// - Returns: The faulted body, or this body itself when its known length is no longer than the fault's
    ///   `afterBytes`.
    public func withFault(_ fault: BodyFault) -> ResponseBody {
        let limit = fault.afterBytes
        if let expectedLength, limit >= expectedLength { return self }
        let source = self
        return .produced(expectedLength: expectedLength) { output in
            try await withTaskCancellationHandler {
                guard let sent = try await source.forward(upTo: limit, into: output) else { return }
                source.channel.cancel()
                try await Self.act(fault, afterSending: sent, expectedLength: source.expectedLength)
            } onCancel: {
                source.channel.cancel()
            }
        }
    }

    /// Writes this body's chunks to `output` until the fault's place.
    ///
    /// - Returns: `limit` when a byte beyond it exists (known from the length, or seen); `nil` when the body ended
    ///   at or before `limit`, so the fault never comes.
    private func forward(upTo limit: Int64, into output: GatedBodyWriter) async throws -> Int64? {
        // With a known length longer than the limit (checked by the caller), more follows the limit for sure.
        let moreIsKnown = expectedLength != nil
        if moreIsKnown && limit == 0 { return 0 }
        var sent: Int64 = 0
        for try await chunk in self {
            await output.gate.waitUntilOpen()
            try Task.checkCancellation()
            let room = limit - sent
            if Int64(chunk.count) > room {
                output.writer.write(chunk.prefix(Int(room)))
                return limit
            }
            output.writer.write(chunk)
            sent += Int64(chunk.count)
            if moreIsKnown && sent == limit { return limit }
        }
        return nil
    }

    /// Fails or stalls the body after `sent` bytes.
    private static func act(_ fault: BodyFault, afterSending sent: Int64, expectedLength: Int64?) async throws {
        switch fault {
        case .dropConnection:
            throw SimulatedFailure.error(.networkConnectionLost, url: nil)
        case .truncate:
            throw SimulatedFailure.truncatedBody(remainingBytes: expectedLength.map { $0 - sent }, url: nil)
        case .stall:
            try await CancellationWait.untilCancelled()
        }
    }
}
