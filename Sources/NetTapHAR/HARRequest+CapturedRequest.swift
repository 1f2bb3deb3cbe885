import Foundation
import NetTapCore

extension HARRequest {
    /// Creates a HAR request from a captured request.
    ///
    /// Headers keep their order; `queryString` comes from the URL (order kept, percent-decoded); `cookies`
    /// from the `Cookie` header. A UTF-8 body goes into `postData.text`; any other body is written there as
    /// base64 with `_encoding: "base64"` and a comment, as HAR 1.2 `postData` has no encoding field. A
    /// truncated body keeps its first bytes in `text`, the full size in `bodySize` and a comment.
    ///
    /// - Parameters:
    ///   - request: The captured request.
    ///   - httpVersion: The protocol version to record; HTTP/1.1 by default.
    public init(request: CapturedRequest, httpVersion: String = "HTTP/1.1") {
        var postData: HARPostData?
        if let body = request.body {
            let mimeType = request.headers["Content-Type"] ?? ""
            let coded = HARBodyCoding.encode(body.data, mimeType: mimeType)
            var notes: [String] = []
            if coded.isBase64 {
                notes.append("binary body as base64 (HAR 1.2 postData has no encoding field; see _encoding)")
            }
            if body.isTruncated {
                notes.append("body truncated: kept the first \(body.data.count) of \(body.totalByteCount) bytes")
            } else if Int64(body.data.count) != body.totalByteCount {
                notes.append("body redacted: the text is the redacted copy of the \(body.totalByteCount) bytes sent")
            }
            postData = HARPostData(
                mimeType: mimeType,
                text: coded.text,
                encoding: coded.isBase64 ? "base64" : nil,
                comment: notes.isEmpty ? nil : notes.joined(separator: "; ")
            )
        }
        self.init(
            method: request.method,
            url: HARURL.string(for: request.url),
            httpVersion: httpVersion,
            cookies: HARCookie.requestCookies(in: request.headers),
            headers: request.headers.map { HARHeader(name: $0.name, value: $0.value) },
            queryString: HARURL.queryString(for: request.url),
            postData: postData,
            headersSize: -1,
            bodySize: request.body.map { Int($0.totalByteCount) } ?? 0
        )
    }

    /// The captured request this HAR request describes.
    ///
    /// The body comes from `postData` (base64-decoded when `_encoding` is `base64`; form `params` joined
    /// as URL-encoded text when there is no `text`), its full size is ``sentBodySize``; without `postData`, a
    /// `bodySize` above 0 gives a body of that size whose bytes were not kept. The `cookies` the headers do not hold
    /// become one more `Cookie` header (an exporter that filtered the headers still lists the cookies sent), so
    /// redaction sees every cookie.
    ///
    /// - Returns: The request; an unparsable `url` becomes `file:///`.
    public func capturedRequest() -> CapturedRequest {
        var body: CapturedBody?
        if let postData {
            let data = postData.decodedData() ?? Data((postData.text ?? "").utf8)
            body = CapturedBody(data: data, totalByteCount: sentBodySize(postData: postData, decoded: data))
        } else if bodySize > 0 {
            // A size without the bytes: the body was sent, its text not kept.
            body = CapturedBody(data: Data(), totalByteCount: Int64(bodySize))
        }
        var fields = HeaderFields(headers.map { HeaderFields.Field(name: $0.name, value: $0.value) })
        let unlisted = HARCookie.notIn(fields, named: "Cookie", cookies)
        if !unlisted.isEmpty {
            // An exporter that left the header out (or some cookies out of it) still lists the cookies sent.
            fields.add(name: "Cookie", value: HARCookie.cookieHeader(for: unlisted))
        }
        return CapturedRequest(method: method, url: HARURL.url(from: url), headers: fields, body: body)
    }

    /// The size of the request body as the app sent it, in bytes, as these fields tell it: the one definition
    /// behind every byte count NetTap gives for a HAR entry without NetTap's own record of the sizes
    /// (`_netTap.bodies`, which wins when present).
    ///
    /// The larger of `bodySize` and the decoded length of `postData.text`: an exporter that writes `bodySize` 0
    /// or −1 beside the text still sent the text, and one that kept only part of the text knows the full size.
    /// Post data with `params` and no text (form fields an exporter listed instead of the bytes, multipart ones
    /// included) counts `bodySize`; only when that is unknown, the length of the fields written as a URL-encoded
    /// form. 0 without either.
    public var sentBodySize: Int64 {
        guard let postData else { return Int64(max(0, bodySize)) }
        return sentBodySize(postData: postData, decoded: postData.decodedData() ?? Data((postData.text ?? "").utf8))
    }

    /// ``sentBodySize`` with the post data's bytes already decoded.
    func sentBodySize(postData: HARPostData, decoded: Data) -> Int64 {
        let hasText = postData.text.map { !$0.isEmpty } ?? false
        if hasText || postData.params.isEmpty || bodySize < 0 { return Int64(max(0, bodySize, decoded.count)) }
        return Int64(bodySize)
    }
}
