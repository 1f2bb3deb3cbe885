import Foundation
import NetTapCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension HAREntry {
    /// Creates the HAR entry of a transaction's final request (its only entry when it followed no redirects).
    ///
    /// The request and response map field by field (see ``HARRequest/init(request:httpVersion:)`` and
    /// ``HARResponse/init(response:)``); a transaction without a response gets status 0 and the error in
    /// `response.comment`. Timings come from ``HARTimings/init(milestones:)`` and `time` is their sum.
    /// What HAR 1.2 has no field for (who answered, redirect hops, handler notes, state, error, where secrets
    /// were redacted: `redacted: request header Authorization, request query token`) goes into
    /// `comment` as short text and into the custom field `_netTap` (``HARNetTapRecord``), from which
    /// ``transaction()`` restores it.
    ///
    /// For a transaction that followed redirects, the entry shows the last request, as browsers write it: its
    /// method after the RFC 9110 §15.4 rules, the final URL, the body only when it went along; it starts at the
    /// last hop and its timings cover the time after it. ``HAREntry/entries(for:)`` also writes an entry for
    /// each hop, and ``HARDocument/init(transactions:creator:redactor:)`` writes them all.
    ///
    /// - Parameter transaction: The transaction.
    public init(transaction: CapturedTransaction) {
        self.init(transaction: transaction, chain: HARRedirectChain(transaction: transaction))
    }

    init(transaction: CapturedTransaction, chain: HARRedirectChain) {
        let segment = chain.milestones(ofSegment: transaction.redirects.count, in: transaction)
        let timings = HARTimings(milestones: segment)
        let response =
            transaction.response.map { HARResponse(response: $0) } ?? HARResponse.noResponse(error: transaction.error)
        let request = chain.finalRequest
        var record = HARNetTapRecord(transaction: transaction)
        if request.method != transaction.request.method {
            record.requestMethod = transaction.request.method
        }
        if request.url != transaction.request.url {
            record.requestURL = transaction.request.url.absoluteString
        }
        self.init(
            startedDateTime: HARDate.string(from: segment.startDate),
            time: timings.total,
            request: HARRequest(request: request, httpVersion: transaction.response?.httpVersion ?? "HTTP/1.1"),
            response: response,
            cache: HARCache(),
            timings: timings,
            comment: Self.summary(of: transaction),
            netTap: record
        )
        if let wire = transaction.wire { apply(wire, blocked: timings.blocked) }
    }

    /// The NetTap transaction this entry describes.
    ///
    /// With a `_netTap` record (files NetTap wrote) the identifier, state, answering handler, notes,
    /// redirect hops, error, exact start and milestones come back as they were, and so do the method and URL
    /// of a redirected transaction's first request. Its request headers and body are those of the entry (the
    /// last request); ``HARDocument/transactions()`` takes them from the first hop entry instead, which has
    /// them as they were sent. Without a record (other tools' files), and for a hop entry read on its own, the
    /// identifier is new, the state is `completed` (`failed` for status 0, with the error taken from Chrome's
    /// `_error` or the comments), and milestones are derived from `timings` (``HARTimings/init(milestones:)``
    /// in reverse).
    ///
    /// `CapturedTransaction.wire` comes back from the record's ``HARNetTapRecord/wire`` with `serverIPAddress` and
    /// `connection`; for other tools' entries it is read from the standard fields
    /// (``standardWireDetails()``), and is `nil` when they say nothing about the wire.
    ///
    /// - Returns: The transaction.
    public func transaction() -> CapturedTransaction {
        transaction(parsedStart: HARDate.date(from: startedDateTime))
    }

    /// ``transaction()`` with `startedDateTime` already parsed (a document's entries are parsed once).
    package func transaction(parsedStart: Date?) -> CapturedTransaction {
        var captured = request.capturedRequest()
        let record = isRedirectHop ? nil : netTap
        if let method = record?.requestMethod { captured.method = method }
        if let url = record?.requestURL { captured.url = HARURL.url(from: url) }
        let hasResponse = response.status > 0
        let milestones = restoredMilestones(record: record, hasResponse: hasResponse, parsedStart: parsedStart)
        let responseURL = record?.responseURL.map(HARURL.url(from:)) ?? captured.url
        let error = record.map(\.error) ?? derivedError()
        let state =
            record?.state ?? (hasResponse ? .completed : .failed)
        var capturedResponse = response.capturedResponse(url: responseURL)
        if let bodies = record?.bodies {
            Self.applySizes(bodies, request: &captured, response: &capturedResponse)
        }
        return CapturedTransaction(
            id: record?.id ?? UUID(),
            request: captured,
            response: capturedResponse,
            redirects: record?.redirects?.map(RedirectHop.init(record:)) ?? [],
            timings: milestones,
            error: error,
            answeredBy: record?.answeredBy ?? CapturedTransaction.answeredByNetwork,
            annotations: record?.annotations ?? [:],
            state: state,
            findings: record?.findings ?? [],
            redactions: record?.redactions ?? [],
            wire: wireDetails(record: record?.wire)
        )
    }

    /// The transaction's milestones: the record's (files NetTap wrote), else derived from `timings`.
    private func restoredMilestones(record: HARNetTapRecord?, hasResponse: Bool, parsedStart: Date?) -> Timings {
        var milestones = Timings(startDate: restoredStartDate(record: record, parsedStart: parsedStart))
        if let record {
            milestones.requestSent = record.requestSent
            milestones.firstByte = record.firstByte
            milestones.end = record.end
        } else {
            let derived = timings.milestones(time: time, hasResponse: hasResponse)
            milestones.requestSent = derived.requestSent
            milestones.firstByte = derived.firstByte
            milestones.end = derived.end
        }
        return milestones
    }

    /// When the transaction started: the record's exact start when it agrees with `startedDateTime` (which, for a
    /// redirected transaction, is its last hop's start), else `startedDateTime`, moved back to the first hop.
    private func restoredStartDate(record: HARNetTapRecord?, parsedStart: Date?) -> Date {
        guard let exact = record?.startSecondsSince2001 else { return parsedStart ?? Date(timeIntervalSince1970: 0) }
        // The entry of a redirected transaction starts at its last hop.
        let offset = (record?.redirects?.last?.elapsedMilliseconds ?? 0) / 1000
        let candidate = Date(timeIntervalSinceReferenceDate: exact)
        guard let parsedStart else { return candidate }
        if abs(parsedStart.timeIntervalSince(candidate)) < 0.001
            || abs(parsedStart.timeIntervalSince(candidate) - offset) < 0.001
        {
            return candidate
        }
        return parsedStart.addingTimeInterval(-offset)
    }

    /// Gives the request's and the response's bodies the sizes and truncation the record's `bodies` give.
    private static func applySizes(
        _ bodies: HARNetTapRecord.Bodies,
        request: inout CapturedRequest,
        response: inout CapturedResponse?
    ) {
        request.body = request.body.map {
            sized($0, total: bodies.requestSize, truncated: bodies.requestTruncated)
        }
        if let body = response?.body {
            response?.body = sized(body, total: bodies.responseSize, truncated: bodies.responseTruncated)
        }
    }

    /// A body with the size and truncation a NetTap record gives (the text written may be redacted).
    private static func sized(_ body: CapturedBody, total: Int64?, truncated: Bool?) -> CapturedBody {
        guard let total else { return body }
        return CapturedBody(data: body.data, totalByteCount: total, isTruncated: truncated ?? false)
    }

    /// The error of another tool's status-0 entry.
    private func derivedError() -> TransactionError? {
        guard response.status <= 0 else { return nil }
        let message =
            response.customFields["_error"]?.stringValue ?? response.comment ?? comment ?? "no response (status 0)"
        return TransactionError(domain: NSURLErrorDomain, code: URLError.Code.unknown.rawValue, message: message)
    }

    /// A short readable account of what HAR 1.2 cannot say, or `nil` when there is nothing to add.
    static func summary(of transaction: CapturedTransaction) -> String? {
        var parts: [String] = []
        if let operation = transaction.annotations[GraphQLRequest.operationAnnotation] {
            let type = transaction.annotations[GraphQLRequest.typeAnnotation] ?? "operation"
            parts.append("GraphQL \(type) \(operation)")
        }
        if transaction.answeredBy != CapturedTransaction.answeredByNetwork {
            parts.append("answered by \(transaction.answeredBy)")
        }
        if transaction.state != .completed {
            parts.append("state \(transaction.state.rawValue)")
        }
        if let error = transaction.error {
            parts.append("error \(error)")
        }
        if !transaction.redirects.isEmpty {
            let hops = transaction.redirects.map { "\($0.statusCode) \($0.url.absoluteString)" }
            let final = transaction.response?.url.absoluteString ?? "?"
            parts.append("redirected \(hops.joined(separator: " → ")) → \(final)")
        }
        // The GraphQL labels lead the comment already.
        let notes = transaction.annotations.filter {
            $0.key != GraphQLRequest.operationAnnotation && $0.key != GraphQLRequest.typeAnnotation
        }
        if !notes.isEmpty {
            let listed = notes.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            parts.append("notes \(listed.joined(separator: ", "))")
        }
        for finding in transaction.findings {
            parts.append("finding \(finding.summary)")
        }
        if !transaction.redactions.isEmpty {
            var seen: Set<String> = []
            let places = transaction.redactions.map(\.description).filter { seen.insert($0).inserted }
            parts.append("redacted: \(places.joined(separator: ", "))")
        }
        return parts.isEmpty ? nil : "NetTap: " + parts.joined(separator: "; ")
    }
}

extension HARNetTapRecord {
    /// Records what HAR 1.2 cannot carry about a transaction.
    ///
    /// - Parameter transaction: The transaction.
    public init(transaction: CapturedTransaction) {
        self.init()
        id = transaction.id
        state = transaction.state
        answeredBy = transaction.answeredBy
        annotations = transaction.annotations.isEmpty ? nil : transaction.annotations
        findings = transaction.findings.isEmpty ? nil : transaction.findings
        redactions = transaction.redactions.isEmpty ? nil : transaction.redactions
        redirects = transaction.redirects.isEmpty ? nil : transaction.redirects.map(Redirect.init(hop:))
        error = transaction.error
        startSecondsSince2001 = transaction.timings.startDate.timeIntervalSinceReferenceDate
        requestSent = transaction.timings.requestSent
        firstByte = transaction.timings.firstByte
        end = transaction.timings.end
        if let url = transaction.response?.url, url != transaction.request.url {
            responseURL = url.absoluteString
        }
        wire = transaction.wire.map(Wire.init(details:))
        bodies = Bodies(request: transaction.request.body, response: transaction.response?.body)
    }
}

extension HARNetTapRecord.Redirect {
    init(hop: RedirectHop) {
        self.init(
            method: hop.method,
            url: hop.url.absoluteString,
            status: hop.statusCode,
            headers: hop.headers.map { HARHeader(name: $0.name, value: $0.value) },
            elapsedMilliseconds: hop.elapsedMilliseconds,
            answeredBy: hop.answeredBy == CapturedTransaction.answeredByNetwork ? nil : hop.answeredBy
        )
    }
}

extension RedirectHop {
    fileprivate init(record: HARNetTapRecord.Redirect) {
        self.init(
            method: record.method,
            url: HARURL.url(from: record.url),
            statusCode: record.status,
            headers: HeaderFields(record.headers.map { HeaderFields.Field(name: $0.name, value: $0.value) }),
            elapsedMilliseconds: record.elapsedMilliseconds,
            answeredBy: record.answeredBy ?? CapturedTransaction.answeredByNetwork
        )
    }
}
