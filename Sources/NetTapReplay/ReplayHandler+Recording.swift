import Foundation
import NetTapCore
import NetTapHAR

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension ReplayHandler {
    /// Sends the request on and returns the response with its body teed into a recording.
    func record(_ request: URLRequest, context: TransactionContext, next: Next) async throws -> HandlerResponse {
        let hopsBefore = context.redirects.count
        var response = try await next(request)
        let tee = BodyTee(limit: bodyByteLimit)
        let head = response
        let writer = writer
        let redactor = redactor
        let secrets = secrets
        let limit = bodyByteLimit
        response.body = response.body.teed(onChunk: { tee.append($0) }) { error, _ in
            guard error == nil else { return }
            // Queue the recording before the caller sees the end, so a `flush()` after the caller's completion
            // includes it.
            let transaction = Self.transaction(
                request: request,
                response: head,
                body: tee.captured,
                context: context,
                hops: Array(context.redirects.dropFirst(hopsBefore)),
                limit: limit
            )
            // Swept of what earlier recordings redacted: a cookie value set before, sent again in this URL.
            writer.append(HAREntry.entries(for: secrets.redact(transaction, with: redactor)))
        }
        return response
    }

    /// The transaction to record: the request as this handler saw it, the response and the hops followed.
    static func transaction(
        request: URLRequest,
        response: HandlerResponse,
        body: CapturedBody,
        context: TransactionContext,
        hops: [RedirectHop],
        limit: Int
    ) -> CapturedTransaction {
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
        return CapturedTransaction(
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
            answeredBy: CapturedTransaction.answeredByNetwork,
            annotations: annotations,
            state: .completed
        )
    }
}

/// The copy of a response body a recording keeps.
///
/// Thread safety: every member may be used from any thread.
final class BodyTee: Sendable {
    private struct State {
        var kept = Data()
        var total: Int64 = 0
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
            let room = limit - state.kept.count
            if room > 0 { state.kept.append(data.prefix(room)) }
        }
    }

    /// The kept bytes and the full size.
    var captured: CapturedBody {
        state.withLock { CapturedBody(data: $0.kept, totalByteCount: $0.total) }
    }
}
