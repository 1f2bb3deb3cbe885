import Foundation
import NetTapCore
import NetTapHAR

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension ReplayHandler {
    /// Sends the request on and returns the response with its body teed into a recording.
    func record(_ request: URLRequest, context: TransactionContext, next: Next) async throws -> HTTPResponse {
        let hopsBefore = context.redirects.count
        var response = try await next(request)
        let tee = BodyTee(limit: bodyByteLimit)
        let upstream = response.body.channel
        let downstream = BodyChannel()
        let head = response
        let writer = writer
        let redactor = redactor
        let limit = bodyByteLimit
        // Pass the consumer's pace back: the upstream counts bytes as delivered once the consumer took them.
        downstream.setPressureHandler(highWater: 0, lowWater: 0) { [weak downstream] isPaused in
            guard !isPaused, let downstream else { return }
            let count = tee.takeUnacknowledged(outstanding: downstream.outstandingBytes)
            if count > 0 { upstream.acknowledge(count) }
        }
        downstream.onCancel { upstream.cancel() }
        upstream.setSink { event in
            switch event {
            case .chunk(let data):
                tee.append(data)
                downstream.send(data)
            case .end(let error?):
                downstream.finish(throwing: error)
            case .end(nil):
                // Queue the recording before the caller sees the end, so a `flush()` after the caller's
                // completion includes it.
                let body = tee.captured
                let transaction = Self.transaction(
                    request: request,
                    response: head,
                    body: body,
                    context: context,
                    hops: Array(context.redirects.dropFirst(hopsBefore)),
                    limit: limit
                )
                writer.append(HAREntry.entries(for: redactor.redact(transaction: transaction).value))
                downstream.finish()
            }
        }
        response.body = ResponseBody(channel: downstream, expectedLength: response.body.expectedLength)
        return response
    }

    /// The transaction to record: the request as this handler saw it, the response and the hops followed.
    static func transaction(
        request: URLRequest,
        response: HTTPResponse,
        body: CapturedBody,
        context: TransactionContext,
        hops: [RedirectHop],
        limit: Int
    ) -> Transaction {
        let captured = capture(request, limit: limit)
        var annotations = context.annotations
        var notes: [String] = []
        if let requestBody = captured.body, requestBody.isTruncated {
            notes.append("request body truncated to \(requestBody.data.count) of \(requestBody.totalByteCount) bytes")
        }
        if body.isTruncated {
            notes.append("response body truncated to \(body.data.count) of \(body.totalByteCount) bytes")
        }
        if !notes.isEmpty {
            annotations["cassette.note"] = notes.joined(separator: "; ") + " (bodyByteLimit \(limit) bytes)"
        }
        let milestones = context.milestones
        let end = context.elapsedMilliseconds
        return Transaction(
            id: context.id,
            request: captured,
            response: CapturedResponse(
                statusCode: response.statusCode,
                httpVersion: response.httpVersion,
                headers: response.headers,
                url: response.url ?? captured.url,
                body: body
            ),
            redirects: hops,
            timings: Timings(
                startDate: context.startDate,
                requestSent: milestones.requestSent,
                firstByte: milestones.firstByte ?? end,
                end: end
            ),
            answeredBy: Transaction.answeredByNetwork,
            annotations: annotations,
            state: .completed
        )
    }
}

/// The copy of a response body a recording keeps, and the bytes passed on but not yet acknowledged upstream.
///
/// Thread safety: every member may be used from any thread.
final class BodyTee: Sendable {
    private struct State {
        var kept = Data()
        var total: Int64 = 0
        var sent = 0
        var acknowledged = 0
    }

    private let limit: Int
    private let state = Locked(State())

    init(limit: Int) {
        self.limit = limit
    }

    /// Keeps what fits under the limit and counts the rest.
    func append(_ data: Data) {
        state.withLock { state in
            state.total += Int64(data.count)
            state.sent += data.count
            let room = limit - state.kept.count
            if room > 0 { state.kept.append(data.prefix(room)) }
        }
    }

    /// The bytes passed on and since consumed (all but `outstanding`) that were not acknowledged yet.
    func takeUnacknowledged(outstanding: Int) -> Int {
        state.withLock { state in
            let consumed = max(0, state.sent - outstanding)
            let count = max(0, consumed - state.acknowledged)
            state.acknowledged += count
            return count
        }
    }

    /// The kept bytes and the full size.
    var captured: CapturedBody {
        state.withLock { CapturedBody(data: $0.kept, totalByteCount: $0.total) }
    }
}
