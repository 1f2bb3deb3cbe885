import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Builds the ``CapturedTransaction`` record of one request as it happens and reports it to a ``CaptureLog``.
///
/// Bodies are kept up to `bodyByteLimit` bytes; the full size is always counted. Every snapshot the log
/// receives is redacted with the log's ``CaptureLog/redactor`` (read once, at the start): the request once
/// (again only if a handler rewrote it or the header fields as sent replaced the app's), the rest of the record at each event, the response body at the end.
/// Redacting and recording happen on the log's recording queue (``CaptureLog/record(bodyBytes:later:)``), off the
/// request's path unless that queue is far behind (then the request waits for it: the backlog is bounded).
/// A recorder made while the log is not capturing (``CaptureLog/isCapturing``) records nothing at all.
/// Thread safety: every member may be used from any thread.
package final class TransactionRecorder: Sendable {
    private struct State {
        /// The record as it happened, unredacted.
        var transaction: CapturedTransaction
        var responseBody = Data()
        var responseBytes: Int64 = 0
        var isFinished = false
        /// The last request redacted and its redaction (made on the recording queue; reused while the request
        /// stays the same, so a request is redacted once, again only if a handler rewrote it or the sent header
        /// fields replaced the app's).
        var requestRedaction: (of: CapturedRequest, redaction: Redactor.RequestRedaction)?
        /// The GraphQL operation labels of the request (``GraphQLRequest/labels``), read once on the recording
        /// queue; empty for a request that is not GraphQL.
        var graphQLLabels: [String: String]?
    }

    /// `nil` when the log was not capturing as the recorder was made.
    private let log: CaptureLog?
    private let bodyByteLimit: Int
    private let context: TransactionContext
    private let state: Locked<State>
    private let initialRequest: URLRequest
    private let redactor: Redactor

    package init(request: URLRequest, body: Data?, context: TransactionContext, log: CaptureLog, bodyByteLimit: Int) {
        self.log = log.isCapturing ? log : nil
        self.bodyByteLimit = bodyByteLimit
        self.context = context
        self.initialRequest = request
        let redactor = log.redactor
        self.redactor = redactor
        let captured = Self.capture(request, body: body, limit: bodyByteLimit)
        let transaction = CapturedTransaction(
            id: context.id,
            request: captured,
            timings: Timings(startDate: context.startDate),
            state: .pending
        )
        self.state = Locked(State(transaction: transaction))
        self.log?.record(bodyBytes: captured.body?.data.count ?? 0) { [self] in
            isSuperseded ? nil : .started(recordable(transaction))
        }
    }

    /// Whether an intermediate snapshot can be left out: the transaction has finished (its final snapshot follows
    /// on the recording queue) and nobody listens to events as they happen.
    private var isSuperseded: Bool {
        state.withLock { $0.isFinished } && !(log?.hasListeners ?? false)
    }

    /// The current snapshot, unredacted (for NetTap's own bookkeeping; the log gets redacted copies).
    package var snapshot: CapturedTransaction { state.withLock { $0.transaction } }

    /// A snapshot as the log may keep it: redacted, reusing the request's redaction when there is one.
    ///
    /// Runs on the recording queue.
    ///
    /// Values earlier transactions of the log redacted are swept too, and this one's join them.
    private func recordable(_ transaction: CapturedTransaction) -> CapturedTransaction {
        var labelled = transaction
        for (key, value) in graphQLLabels(of: transaction.request) where labelled.annotations[key] == nil {
            labelled.annotations[key] = value
        }
        guard redactor.isEnabled, let log else { return labelled }
        return log.secrets.redact(labelled, with: redactor, request: redaction(of: labelled.request))
    }

    /// The GraphQL operation labels of the request (`graphql.operation`, `graphql.type`).
    ///
    /// Every GraphQL request in the capture, its HAR comment and the reports so names its operation, whoever
    /// answered it. Read once, on the recording queue, off the request's path.
    private func graphQLLabels(of request: CapturedRequest) -> [String: String] {
        if let labels = state.withLock({ $0.graphQLLabels }) { return labels }
        let read = GraphQLRequest(request)
        let labels = read?.labels ?? [:]
        state.withLock { $0.graphQLLabels = labels }
        return labels
    }

    /// The redaction of `request`: the last one made when it was of the same request, else a new one.
    private func redaction(of request: CapturedRequest) -> Redactor.RequestRedaction {
        if let last = state.withLock({ $0.requestRedaction }), last.of == request { return last.redaction }
        let made = redactor.redaction(of: request)
        state.withLock { $0.requestRedaction = (request, made) }
        return made
    }

    /// Records the final response head.
    package func responseHead(_ response: HandlerResponse, requestURL: URL) {
        let transaction = state.withLock { state -> CapturedTransaction in
            // Handlers may have rewritten the request: record what was really sent (unchanged requests are skipped).
            if let sent = context.sentRequest, Self.differs(sent, from: initialRequest) {
                state.transaction.request = Self.capture(
                    sent,
                    body: sent.httpBody ?? state.transaction.request.body?.data,
                    limit: bodyByteLimit,
                    totalBodyBytes: sent.httpBody == nil ? state.transaction.request.body?.totalByteCount : nil
                )
            }
            if let wireHeaders = context.wireRequestHeaders, wireHeaders != state.transaction.request.headers {
                // The header fields as they went on the wire (libcurl adds Host, Accept, Accept-Encoding, …).
                state.transaction.request.headers = wireHeaders
            }
            state.transaction.wire = context.wire
            state.transaction.response = CapturedResponse(
                statusCode: response.statusCode,
                httpVersion: response.httpVersion,
                headers: response.headers,
                url: response.url ?? requestURL
            )
            state.transaction.state = .receiving
            state.transaction.answeredBy = context.answeredBy
            state.transaction.redirects = context.redirects
            let milestones = context.milestones
            state.transaction.timings.requestSent = milestones.requestSent
            state.transaction.timings.firstByte = milestones.firstByte ?? context.elapsedMilliseconds
            return state.transaction
        }
        log?.record(later: { [self] in
            isSuperseded ? nil : .responseReceived(recordable(transaction))
        })
    }

    /// Counts (and keeps, up to the limit) a chunk of the response body.
    package func responseChunk(_ data: Data) {
        let limit = bodyByteLimit
        state.withLock { state in
            state.responseBytes += Int64(data.count)
            let room = limit - state.responseBody.count
            if room > 0 {
                state.responseBody.append(Data(data.prefix(room)))
            }
        }
    }

    /// Records the size of a body NetTap could not see (a download task writes it to a file), when nothing
    /// was counted through ``responseChunk(_:)``.
    package func responseBodyNotKept(totalByteCount: Int64) {
        state.withLock { state in
            if state.responseBytes == 0 { state.responseBytes = max(0, totalByteCount) }
        }
    }

    /// Ends the record: completed when `error` is `nil`, else failed or cancelled.
    package func finish(error: (any Error)?) {
        let finished = state.withLock { state -> CapturedTransaction? in
            guard !state.isFinished else { return nil }
            state.isFinished = true
            if state.transaction.response != nil {
                state.transaction.response?.body = CapturedBody(
                    data: state.responseBody,
                    totalByteCount: state.responseBytes
                )
            }
            state.transaction.redirects = context.redirects
            state.transaction.annotations = context.annotations
            state.transaction.findings = context.findings
            state.transaction.answeredBy = context.answeredBy
            state.transaction.wire = context.wire
            let milestones = context.milestones
            state.transaction.timings.requestSent = state.transaction.timings.requestSent ?? milestones.requestSent
            state.transaction.timings.end = context.elapsedMilliseconds
            if let error {
                state.transaction.error = TransactionError(error)
                state.transaction.state = Self.isCancellation(error) ? .cancelled : .failed
            } else {
                state.transaction.state = .completed
            }
            return state.transaction
        }
        if let transaction = finished, let log {
            log.record(bodyBytes: transaction.response?.body?.data.count ?? 0) { [self] in
                .finished(recordable(transaction))
            }
        }
    }

    private static func isCancellation(_ error: any Error) -> Bool {
        if error is CancellationError { return true }
        if let urlError = error as? URLError { return urlError.code == .cancelled }
        let ns = error as NSError
        return ns.domain == NSURLErrorDomain && ns.code == NSURLErrorCancelled
    }

    /// Whether a handler changed what the capture shows (`URLRequest`'s own equality ignores header fields on
    /// swift-corelibs-foundation).
    static func differs(_ sent: URLRequest, from original: URLRequest) -> Bool {
        sent.url != original.url || sent.httpMethod != original.httpMethod
            || sent.allHTTPHeaderFields != original.allHTTPHeaderFields || sent.httpBody != original.httpBody
    }

    static func capture(_ request: URLRequest, body: Data?, limit: Int, totalBodyBytes: Int64? = nil) -> CapturedRequest
    {
        let url = request.url ?? URL(fileURLWithPath: "/")
        let headers = HeaderFields(request.allHTTPHeaderFields ?? [:])
        let captured = body.map {
            CapturedBody(data: Data($0.prefix(limit)), totalByteCount: totalBodyBytes ?? Int64($0.count))
        }
        return CapturedRequest(method: request.httpMethod ?? "GET", url: url, headers: headers, body: captured)
    }
}
