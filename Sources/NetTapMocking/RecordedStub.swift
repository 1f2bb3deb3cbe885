import Foundation
import NetTapCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Turns a request and its real response into a stub: "save as mock".
package enum RecordedStub {
    /// Header fields never kept in a recorded stub: they describe the transfer, not the answer
    /// (`Content-Encoding`: bodies are decoded; `Content-Length`: set from the body when answering;
    /// `Transfer-Encoding`: the stub sends a body of known length).
    ///
    /// `Connection` is kept: the app saw it on the real answer, and a cassette replays it too.
    static let transferHeaders: Set<String> = ["content-encoding", "content-length", "transfer-encoding"]

    /// Whether an answer may have a body: HTTP forbids one in a 1xx, 204, 205 or 304 answer and in the answer to HEAD
    /// (RFC 9110 §6.4.1, §9.3.2, §15.3.6).
    package static func carriesBody(method: String, statusCode: Int) -> Bool {
        !(method.uppercased() == "HEAD" || (100..<200).contains(statusCode) || [204, 205, 304].contains(statusCode))
    }

    /// Why a HAR entry's `url` cannot be a stub's: empty, relative, or not a URL at all.
    static func unusableURLReason(_ text: String) -> String {
        if text.isEmpty { return "its URL is empty" }
        guard let url = URL(string: text) else { return "its URL is not a URL" }
        if url.scheme == nil { return "its URL is relative (a stub matches an absolute URL with a scheme and host)" }
        return "its URL has no host"
    }

    /// A stub matching the request's method and exact URL (see ``StubMatcher/exactRequest(method:url:redactor:)``)
    /// that answers with the response's status, headers and body, secrets redacted.
    static func make(request: URLRequest, response: HandlerResponse, body: Data, redactor: Redactor) -> Stub {
        let method = (request.httpMethod ?? "GET").uppercased()
        let url = request.url ?? URL(fileURLWithPath: "/")
        return make(
            method: method,
            url: url,
            statusCode: response.statusCode,
            headers: response.headers,
            body: body,
            redactor: redactor
        )
    }

    /// A stub from the parts of a recorded exchange; `redactor` replaces secret header values (cookie values in
    /// `Set-Cookie` among them), secret body fields, and makes secret query items match any value.
    static func make(
        method: String,
        url: URL,
        statusCode: Int,
        headers: HeaderFields,
        body: Data,
        redactor: Redactor
    ) -> Stub {
        let kept = HeaderFields(headers.filter { !transferHeaders.contains($0.name.lowercased()) })
        // A recording with a body HTTP forbids (a HAR writer's stray text) is saved without it.
        let redactedBody =
            carriesBody(method: method, statusCode: statusCode)
            ? redactor.redact(body: body, contentType: kept["Content-Type"]).value : Data()
        return Stub(
            name(method: method, url: url),
            matching: StubMatcher.exactRequest(method: method, url: url, redactor: redactor),
            response: StubResponse(
                statusCode: statusCode,
                headers: redactor.redact(headers: kept).value,
                body: .data(redactedBody)
            )
        )
    }

    /// A stub that fails the way a recorded request failed: the same `URLError` code.
    static func failure(method: String, url: URL, code: URLError.Code, redactor: Redactor) -> Stub {
        Stub(
            name(method: method, url: url),
            matching: StubMatcher.exactRequest(method: method, url: url, redactor: redactor),
            response: .failure(code)
        )
    }

    /// The `URLError` code of a captured failure, when it is one (`NSURLErrorDomain`).
    static func urlErrorCode(of error: TransactionError?) -> URLError.Code? {
        guard let error, error.domain == NSURLErrorDomain, error.code != 0 else { return nil }
        return URLError.Code(rawValue: error.code)
    }

    /// `GET /path`: a readable stub name.
    static func name(method: String, url: URL) -> String {
        "\(method.uppercased()) \(RequestMatcher.path(of: url))"
    }
}
