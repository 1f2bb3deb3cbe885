import Foundation
import NetTapCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Turns a request and its real response into a stub: "save as mock".
enum RecordedStub {
    /// Header fields never kept in a recorded stub: they describe the transfer, not the answer
    /// (`Content-Encoding`: bodies are decoded; `Content-Length`: set from the body when answering).
    static let transferHeaders: Set<String> = ["content-encoding", "content-length", "transfer-encoding", "connection"]

    /// A stub matching the request's method and exact URL (see ``StubMatcher/exactRequest(method:url:)``) that
    /// answers with the response's status, headers and body.
    static func make(request: URLRequest, response: HTTPResponse, body: Data) -> Stub {
        let method = (request.httpMethod ?? "GET").uppercased()
        let url = request.url ?? URL(fileURLWithPath: "/")
        return make(method: method, url: url, statusCode: response.statusCode, headers: response.headers, body: body)
    }

    /// A stub from the parts of a recorded exchange.
    static func make(method: String, url: URL, statusCode: Int, headers: HTTPHeaders, body: Data) -> Stub {
        let kept = HTTPHeaders(headers.filter { !transferHeaders.contains($0.name.lowercased()) })
        return Stub(
            name(method: method, url: url),
            matching: StubMatcher.exactRequest(method: method, url: url),
            response: StubResponse(statusCode: statusCode, headers: kept, body: .data(body))
        )
    }

    /// `GET /path`: a readable stub name.
    static func name(method: String, url: URL) -> String {
        "\(method.uppercased()) \(RequestMatcher.path(of: url))"
    }
}
