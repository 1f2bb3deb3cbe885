import Foundation
import NetTapCore
import NetTapHAR

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Stub {
    /// Creates a stub from a captured transaction: "save as mock".
    ///
    /// The stub matches the request's method and URL (scheme, host, port, path, and every query item of the
    /// captured URL; see ``StubMatcher/exactRequest(method:url:redactor:)``), and a GraphQL request's operation
    /// name and type when it names one (`RequestMatcher.graphQL(operation:type:)`), and answers with the captured
    /// status, headers and body. `Content-Encoding`, `Content-Length` and `Transfer-Encoding` are left out: the body is
    /// the decoded one and its length is set when answering. For a redirected transaction the
    /// stub answers the first URL with the final response.
    /// - Parameters:
    ///   - transaction: A completed transaction.
    ///   - name: The stub's name; `METHOD /path` by default.
    ///   - redactor: Replaces secrets before they reach the stub (header values such as `Set-Cookie` cookie
    ///     values, body fields such as `token`, copies of the request's secrets echoed in the response; secret
    ///     query items match any value); `Redactor.default` by default, `Redactor.disabled` keeps everything.
    ///
    /// A transaction that failed with a `URLError` (offline, timed out, connection lost, …) becomes a stub that
    /// fails with the same code.
    /// - Throws: ``MockingError/notSavable(_:reason:)`` when the transaction has neither a response nor a
    ///   network error to reproduce (it was cancelled), or its captured body was truncated at the capture
    ///   limit.
    public init(recording transaction: CapturedTransaction, name: String? = nil, redactor: Redactor = .default) throws {
        // The whole transaction first, so that copies of request secrets in the response (a server echoing the
        // Authorization header or the posted password) are gone too.
        let transaction = redactor.redact(transaction: transaction).value
        let target = "\(transaction.request.method) \(transaction.request.url.absoluteString)"
        guard let response = transaction.response else {
            guard let code = RecordedStub.urlErrorCode(of: transaction.error), code != .cancelled else {
                throw MockingError.notSavable(target, reason: "it has no response and no network error to reproduce")
            }
            self = RecordedStub.failure(
                method: transaction.request.method,
                url: transaction.request.url,
                code: code,
                redactor: redactor
            )
            narrowToGraphQLOperation(of: transaction.request)
            if let name { self.name = name }
            return
        }
        if let body = response.body, body.isTruncated {
            throw MockingError.notSavable(
                target,
                reason: "its body was captured only in part (\(body.data.count) of \(body.totalByteCount) bytes)"
            )
        }
        var stub = RecordedStub.make(
            method: transaction.request.method,
            url: transaction.request.url,
            statusCode: response.statusCode,
            headers: response.headers,
            body: response.body?.data ?? Data(),
            redactor: redactor
        )
        stub.narrowToGraphQLOperation(of: transaction.request)
        if let name { stub.name = name }
        self = stub
    }

    /// Creates a stub from a HAR 1.2 entry (Chrome, Charles, Proxyman, NetTap exports): "save as mock".
    ///
    /// The stub matches `request.method` and `request.url` as ``init(recording:name:redactor:)-(CapturedTransaction,_,_)`` does,
    /// and answers with `response.status`, `response.headers` (minus HTTP/2 pseudo-headers starting with `:`
    /// and the transfer headers) and `response.content.text`, base64-decoded when `content.encoding` is
    /// `base64`.
    /// - Parameters:
    ///   - entry: The HAR entry.
    ///   - name: The stub's name; `METHOD /path` by default.
    ///   - redactor: Replaces secrets as in the transaction initializer; `Redactor.default` by default.
    ///   - document: The HAR document the entry comes from, if known: a value redacted in any of its entries (a
    ///     session cookie another response set) is also replaced wherever it appears in this one.
    ///
    /// An entry without a response (status 0) becomes a stub that fails with the recorded network error: the
    /// `URLError` code of a NetTap export's `_netTap.error`, or the code matching Chrome's `_error`
    /// (`net::ERR_INTERNET_DISCONNECTED` → `notConnectedToInternet`, `net::ERR_NAME_NOT_RESOLVED` →
    /// `cannotFindHost`, `net::ERR_CONNECTION_REFUSED` → `cannotConnectToHost`, timeouts → `timedOut`, resets
    /// → `networkConnectionLost`).
    /// - Throws: ``MockingError/notSavable(_:reason:)`` when the entry has no response and no such error, an
    ///   unparsable URL, or a body whose base64 does not decode (the stub would answer without it).
    public init(
        recording entry: HAREntry,
        name: String? = nil,
        redactor: Redactor = .default,
        in document: HARDocument? = nil
    ) throws {
        let shownURL = entry.request.url.isEmpty ? "(empty URL)" : redactor.redactedURL(of: entry, sweeping: [])
        let target = "\(entry.request.method) \(shownURL)"
        guard let url = URL(string: entry.request.url), url.host != nil else {
            throw MockingError.notSavable(target, reason: RecordedStub.unusableURLReason(entry.request.url))
        }
        guard entry.response.status > 0 else {
            let chromeError = entry.response.customFields["_error"]?.stringValue
            guard let code = entry.recordedNetworkFailure else {
                let detail = chromeError.map { " (\($0))" } ?? ""
                throw MockingError.notSavable(
                    target,
                    reason: "it has no response (status \(entry.response.status))\(detail) and no network error a "
                        + "stub can reproduce"
                )
            }
            self = RecordedStub.failure(method: entry.request.method, url: url, code: code, redactor: redactor)
            narrowToGraphQLOperation(of: entry.transaction().request)
            if let name { self.name = name }
            return
        }
        if let text = entry.response.content.text, entry.response.content.decodedData() == nil {
            throw MockingError.notSavable(
                target,
                reason: "its response.content.text is not valid base64 although content.encoding is "
                    + "\"\(entry.response.content.encoding ?? "")\" (\(text.count) characters); the body would be lost"
            )
        }
        // Redacted as a whole transaction, so request secrets echoed in the response are gone too, and copies
        // of secrets the response revealed are gone from the URL the stub matches.
        let transaction = entry.transaction()
        let known = document.map { redactor.secrets(of: $0.log.entries) } ?? []
        let redacted = redactor.redact(
            transaction: transaction,
            request: redactor.redaction(of: transaction.request),
            sweeping: known
        ).redacted.value
        let recorded = redacted.response
        let headers = HeaderFields(
            (recorded?.headers ?? HeaderFields()).filter { !$0.name.hasPrefix(":") }
        )
        var stub = RecordedStub.make(
            method: entry.request.method,
            url: redacted.request.url.host == nil ? url : redacted.request.url,
            statusCode: entry.response.status,
            headers: headers,
            body: recorded?.body?.data ?? entry.response.content.decodedData() ?? Data(),
            redactor: redactor
        )
        stub.narrowToGraphQLOperation(of: redacted.request)
        if let name { stub.name = name }
        self = stub
    }
}
