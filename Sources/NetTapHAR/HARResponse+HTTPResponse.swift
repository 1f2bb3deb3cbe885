import Foundation
import NetTapCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension HARResponse {
    /// The response a handler answers with when it replays this recorded response.
    ///
    /// Status and headers are the entry's, minus `Content-Encoding` and `Transfer-Encoding` (the body is given
    /// decoded, as `TransactionHandler` requires) and HTTP/2 pseudo-headers (`:status`), with
    /// `Content-Length` set to the decoded body's size in bytes. The body is ``replayBody`` (`content.text`,
    /// base64-decoded when `content.encoding` is `base64`; empty when there is no text).
    ///
    /// A status that carries no content (1xx, 204, 304; RFC 9110 §15.3.5, §15.4.5) gets an empty body and no
    /// `Content-Length` at all, whatever the entry holds (browsers store the cached body of a 304), the same
    /// answer a stub saved from the entry gives.
    ///
    /// - Parameter url: The URL the response came from (the request's, or the final one after redirects).
    /// - Returns: The response, its body in one chunk; HTTP/1.1 when the entry has no `httpVersion`.
    /// - Complexity: O(headers + body size).
    public func replayResponse(url: URL) -> HandlerResponse {
        let body = replayBody
        let dropped: Set<String> = ["content-encoding", "transfer-encoding", "content-length"]
        var fields = HeaderFields(
            headers
                .filter { !dropped.contains($0.name.lowercased()) && !$0.name.hasPrefix(":") }
                .map { HeaderFields.Field(name: $0.name, value: $0.value) }
        )
        if !Self.hasNoContent(status: status) {
            fields.add(name: "Content-Length", value: String(body.count))
        }
        return HandlerResponse(
            statusCode: status,
            headers: fields,
            url: url,
            httpVersion: httpVersion.isEmpty ? "HTTP/1.1" : httpVersion,
            body: .data(body)
        )
    }

    /// The body a replay answers with: ``HARContent/decodedData()``, or empty for a status that carries no
    /// content (1xx, 204, 304) and when there is no text.
    public var replayBody: Data {
        Self.hasNoContent(status: status) ? Data() : content.decodedData() ?? Data()
    }

    /// Whether a response with `status` carries no content (RFC 9110 §15.3.5 204, §15.4.5 304, 1xx).
    static func hasNoContent(status: Int) -> Bool {
        (100..<200).contains(status) || status == 204 || status == 304
    }
}
