import Foundation

/// The response of an entry: HAR 1.2 `response`.
///
/// A request that got no response (failed, blocked, cancelled) has ``status`` 0, as browsers write it.
public struct HARResponse: Codable, Sendable, Hashable {
    /// The HTTP status code; 0 when there was no response.
    public var status: Int
    /// The reason phrase, for example `OK`.
    public var statusText: String
    /// The protocol version, for example `HTTP/1.1`; `""` when there was no response.
    public var httpVersion: String
    /// The cookies set (from `Set-Cookie` headers).
    public var cookies: [HARCookie]
    /// The header fields in order.
    public var headers: [HARHeader]
    /// The body.
    public var content: HARContent
    /// The redirect target from the `Location` header of a 3xx response; `""` otherwise.
    public var redirectURL: String
    /// Header bytes; −1 when not known.
    public var headersSize: Int
    /// Body bytes as transferred; −1 when not known.
    public var bodySize: Int
    /// A comment from the user or the application.
    public var comment: String?
    /// Custom fields (names starting with `_`) kept from the imported file, for example Chrome's `_error`.
    public var customFields: [String: HARValue]

    /// Creates a response record.
    ///
    /// - Parameters:
    ///   - status: The status code, 0 for no response.
    ///   - statusText: The reason phrase.
    ///   - httpVersion: The protocol version.
    ///   - cookies: The cookies set.
    ///   - headers: The header fields.
    ///   - content: The body.
    ///   - redirectURL: The redirect target.
    ///   - headersSize: Header bytes, −1 when not known.
    ///   - bodySize: Body bytes, −1 when not known.
    ///   - comment: An optional comment.
    ///   - customFields: Custom `_` fields.
    public init(
        status: Int,
        statusText: String = "",
        httpVersion: String = "HTTP/1.1",
        cookies: [HARCookie] = [],
        headers: [HARHeader] = [],
        content: HARContent = HARContent(size: 0, mimeType: ""),
        redirectURL: String = "",
        headersSize: Int = -1,
        bodySize: Int = -1,
        comment: String? = nil,
        customFields: [String: HARValue] = [:]
    ) {
        self.status = status
        self.statusText = statusText
        self.httpVersion = httpVersion
        self.cookies = cookies
        self.headers = headers
        self.content = content
        self.redirectURL = redirectURL
        self.headersSize = headersSize
        self.bodySize = bodySize
        self.comment = comment
        self.customFields = customFields
    }

    /// Decodes leniently: only `status` is needed (a number or a string holding one); a `null`
    /// `redirectURL` (Charles) reads as `""`.
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError.keyNotFound` when `status` is missing.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: HARCodingKey.self)
        if !container.contains("status") {
            HARWarningLog.warn(at: container.codingPath, "missing \"status\"", "read as 0 (no response)")
        }
        // An unusable status (warned about) is unknown: 0, no response, as browsers write a failed request.
        status = try container.requiredInt("status", resolution: "read as 0 (no response)") ?? 0
        statusText = try container.lenientString("statusText") ?? ""
        httpVersion = try container.requiredString("httpVersion") ?? ""
        cookies = try container.list(HARCookie.self, "cookies", isRequired: true)
        headers = try container.list(HARHeader.self, "headers", isRequired: true)
        _ = container.isRequiredNull("content", resolution: "read as empty")
        content = container.lenientOptional(HARContent.self, "content") ?? HARContent(size: 0, mimeType: "")
        redirectURL = try container.lenientString("redirectURL") ?? ""
        headersSize = try container.requiredInt("headersSize") ?? -1
        bodySize = try container.requiredInt("bodySize") ?? -1
        comment = try container.lenientString("comment")
        customFields = container.customFields()
    }

    /// Encodes every HAR 1.2 field and the custom ones.
    ///
    /// - Parameter encoder: The encoder.
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: HARCodingKey.self)
        try container.encode(status, forKey: "status")
        try container.encode(statusText, forKey: "statusText")
        try container.encode(httpVersion, forKey: "httpVersion")
        try container.encode(cookies, forKey: "cookies")
        try container.encode(headers, forKey: "headers")
        try container.encode(content, forKey: "content")
        try container.encode(redirectURL, forKey: "redirectURL")
        try container.encode(headersSize, forKey: "headersSize")
        try container.encode(bodySize, forKey: "bodySize")
        try container.encodeIfPresent(comment, forKey: "comment")
        try container.encodeCustomFields(customFields)
    }
}
