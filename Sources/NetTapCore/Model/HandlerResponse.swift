import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A response travelling back through the pipeline: status, headers and a streamed body.
///
/// Bodies are always decoded (no `Content-Encoding` is applied by NetTap): the forwarding transport
/// relays what the URL Loading System already decoded, and a handler that answers must give decoded
/// bytes and omit `Content-Encoding`.
public struct HandlerResponse: Sendable {
    /// The HTTP status code, for example `200`.
    public var statusCode: Int
    /// The response header fields in order.
    public var headers: HeaderFields
    /// The URL the response came from: the final URL after redirects.
    ///
    /// `nil` means the request's URL.
    public var url: URL?
    /// The protocol version, for example `HTTP/1.1`.
    public var httpVersion: String
    /// The body.
    public var body: ResponseBody

    /// The platform response this value was made from, with the status, headers and URL it had then: relayed
    /// as is while they are unchanged (building a new `HTTPURLResponse` costs more than comparing).
    package var origin: (response: HTTPURLResponse, statusCode: Int, headers: HeaderFields, url: URL?)?

    /// Creates a response.
    /// - Parameters:
    ///   - statusCode: The HTTP status code.
    ///   - headers: The header fields.
    ///   - url: The URL the response came from; `nil` uses the request's URL.
    ///   - httpVersion: The protocol version; `HTTP/1.1` by default.
    ///   - body: The body; empty by default.
    public init(
        statusCode: Int,
        headers: HeaderFields = [:],
        url: URL? = nil,
        httpVersion: String = "HTTP/1.1",
        body: ResponseBody = .empty
    ) {
        self.statusCode = statusCode
        self.headers = headers
        self.url = url
        self.httpVersion = httpVersion
        self.body = body
    }

    /// Builds the platform response that callers receive.
    /// - Parameter requestURL: The URL used when ``url`` is `nil`.
    /// - Returns: An `HTTPURLResponse` with the same status and headers (repeated fields joined by `", "`),
    ///   or `nil` when Foundation rejects the values.
    public func urlResponse(requestURL: URL) -> HTTPURLResponse? {
        if let origin, origin.statusCode == statusCode, origin.url == url, origin.headers == headers {
            return origin.response
        }
        return HTTPURLResponse(
            url: url ?? requestURL,
            statusCode: statusCode,
            httpVersion: httpVersion,
            headerFields: headers.dictionary
        )
    }
}

extension HandlerResponse: CustomStringConvertible {
    /// `200 HTTP/1.1, ["Content-Type": "text/plain"]`, and the URL when it has one.
    public var description: String {
        "\(statusCode) \(httpVersion), \(headers)" + (url.map { ", \($0.absoluteString)" } ?? "")
    }
}
