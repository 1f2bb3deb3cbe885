import Foundation
import NetTapCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension HARResponse {
    /// Creates a HAR response from a captured response.
    ///
    /// `statusText` is Foundation's phrase for the status; `content.size` the full decoded body size;
    /// `content.text` the body as text, or base64 with `encoding: "base64"` for binary bodies; `mimeType`
    /// the `Content-Type`; `redirectURL` the `Location` of a 3xx; `cookies` from `Set-Cookie`. A truncated
    /// body keeps its first bytes in `text`, with `content.size` the size of those bytes (so `text` and `size`
    /// agree, as strict HAR readers require), the full size in `bodySize` and a note in `content.comment`. A
    /// redacted body's `text` is the redacted copy, `content.size` its size (they agree, so strict checkers pass),
    /// and `content.comment` names the size received (`body redacted: the text is the redacted copy of the N bytes
    /// received`), which NetTap's reader takes when there is no `_netTap` record (``receivedBodySize``); `bodySize`
    /// is the size received too unless the response was compressed.
    ///
    /// - Parameter response: The captured response.
    public init(response: CapturedResponse) {
        let mimeType = response.headers["Content-Type"] ?? ""
        var content = HARContent(size: 0, mimeType: mimeType)
        var bodySize = 0
        if let body = response.body {
            let coded = HARBodyCoding.encode(body.data, mimeType: mimeType)
            content.size = body.data.count
            content.text = coded.text
            content.encoding = coded.isBase64 ? "base64" : nil
            if body.isTruncated {
                content.comment = "body truncated: kept the first \(body.data.count) of \(body.totalByteCount) bytes"
            } else if Int64(body.data.count) != body.totalByteCount {
                content.comment = Self.redactedComment(size: body.totalByteCount)
            }
            bodySize = response.headers.contains(name: "Content-Encoding") ? -1 : Int(body.totalByteCount)
        }
        let isRedirect = (300..<400).contains(response.statusCode)
        self.init(
            status: response.statusCode,
            statusText: HTTPURLResponse.localizedString(forStatusCode: response.statusCode),
            httpVersion: response.httpVersion,
            cookies: HARCookie.responseCookies(in: response.headers, url: response.url),
            headers: response.headers.map { HARHeader(name: $0.name, value: $0.value) },
            content: content,
            redirectURL: isRedirect ? response.headers["Location"] ?? "" : "",
            headersSize: -1,
            bodySize: response.statusCode == 304 ? 0 : bodySize
        )
    }

    /// The response of a request that got none: status 0, as browsers write failed requests.
    ///
    /// - Parameter error: The failure, written into `comment`.
    /// - Returns: A response with status 0, empty `httpVersion` and empty content.
    public static func noResponse(error: TransactionError?) -> HARResponse {
        HARResponse(
            status: 0,
            statusText: "",
            httpVersion: "",
            content: HARContent(size: 0, mimeType: "x-unknown"),
            headersSize: -1,
            bodySize: -1,
            comment: error.map { "no response: \($0)" } ?? "no response"
        )
    }

    /// The captured response this HAR response describes, or `nil` for status 0 (no response).
    ///
    /// - Parameter url: The response's URL (the final URL after redirects).
    /// - Returns: The response with the decoded body; its full size is ``receivedBodySize``. The `cookies` the
    ///   headers do not hold become `Set-Cookie` headers (an exporter that filtered them still lists the cookies),
    ///   so redaction sees every cookie.
    public func capturedResponse(url: URL) -> CapturedResponse? {
        guard status > 0 else { return nil }
        var body: CapturedBody?
        let data = content.decodedData()
        let size = receivedBodySize(decodedTextLength: data?.count)
        if let data {
            body = CapturedBody(data: data, totalByteCount: size)
        } else if size > 0 {
            body = CapturedBody(data: Data(), totalByteCount: size)
        }
        var fields = HeaderFields(headers.map { HeaderFields.Field(name: $0.name, value: $0.value) })
        for cookie in HARCookie.notIn(fields, named: "Set-Cookie", cookies) {
            // An exporter that left the headers out (or some cookies out of them) still lists the cookies set.
            fields.add(name: "Set-Cookie", value: cookie.setCookieValue)
        }
        return CapturedResponse(
            statusCode: status,
            httpVersion: httpVersion.isEmpty ? "HTTP/1.1" : httpVersion,
            headers: fields,
            url: url,
            body: body
        )
    }

    /// The size of the body as the app received it (decoded), in bytes, as these fields tell it: the one
    /// definition behind every byte count NetTap gives for a HAR entry without NetTap's own record of the sizes
    /// (`_netTap.bodies`, which wins when present).
    ///
    /// - In NetTap's redacted exports, the size `content.comment` names (`body redacted: the text is the redacted
    ///   copy of the N bytes received`): the text is then not the body.
    /// - Else `content.size` (HAR 1.2: the length of the returned content, decoded), or the decoded length of
    ///   `content.text` when that is longer. When the response was not compressed (no `Content-Encoding`, or
    ///   `identity`), the larger of that and `bodySize`: both then describe the same bytes, and the smaller one
    ///   left some out (an exporter that cut the text; Chrome's `bodySize` 0 for an answer from its cache).
    ///   When it was compressed, `bodySize` is the smaller transfer size and is not used.
    /// - Else `bodySize` when known: the bytes transferred, which is the decoded size without compression and a
    ///   lower bound with it.
    /// - Else 0: HAR's −1 means unknown, and unknown sizes are counted as nothing rather than subtracted.
    ///
    /// Header bytes (`headersSize`) are never counted: NetTap's own captures see header fields, not bytes on
    /// the wire, and most exporters write −1.
    public var receivedBodySize: Int64 {
        receivedBodySize(decodedTextLength: content.decodedData()?.count)
    }

    /// ``receivedBodySize`` with the decoded length of `content.text` already known (`nil` without a text).
    func receivedBodySize(decodedTextLength: Int?) -> Int64 {
        if let received = redactedSize { return received }
        var decoded = content.size >= 0 ? content.size : -1
        if let decodedTextLength { decoded = max(decoded, decodedTextLength) }
        guard decoded >= 0 else { return Int64(max(0, bodySize)) }
        return Int64(isCompressed ? decoded : max(decoded, bodySize))
    }

    /// Whether the headers name a `Content-Encoding` other than `identity`.
    private var isCompressed: Bool {
        headers.contains { header in
            header.name.caseInsensitiveCompare("Content-Encoding") == .orderedSame
                && !header.value.trimmingCharacters(in: .whitespaces).isEmpty
                && header.value.trimmingCharacters(in: .whitespaces).caseInsensitiveCompare("identity") != .orderedSame
        }
    }

    /// The size received that a NetTap export's `content.comment` names for a redacted body, or `nil`.
    private var redactedSize: Int64? {
        guard let comment = content.comment, comment.hasPrefix(Self.redactedCommentPrefix),
            let range = comment.range(of: "redacted copy of the ")
        else { return nil }
        return Int64(comment[range.upperBound...].prefix { $0.isASCII && $0.isNumber })
    }

    /// How NetTap's exports begin `content.comment` when `content.text` is a redacted copy of the body.
    static let redactedCommentPrefix = "body redacted: "

    /// `content.comment` for a body whose text is its redacted copy: `body redacted: the text is the redacted copy
    /// of the N bytes received`.
    static func redactedComment(size: Int64) -> String {
        redactedCommentPrefix + "the text is the redacted copy of the \(size) bytes received"
    }
}
