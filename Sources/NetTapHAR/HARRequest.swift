import Foundation

/// The request of an entry: HAR 1.2 `request`.
public struct HARRequest: Codable, Sendable, Hashable {
    /// The method, for example `GET`.
    public var method: String
    /// The absolute URL, without fragment.
    public var url: String
    /// The protocol version, for example `HTTP/1.1`.
    public var httpVersion: String
    /// The cookies sent (from the `Cookie` header).
    public var cookies: [HARCookie]
    /// The header fields in order.
    public var headers: [HARHeader]
    /// The URL's query parameters in order.
    public var queryString: [HARQueryParameter]
    /// The body, if the request had one.
    public var postData: HARPostData?
    /// Bytes from the start of the request to the body's first byte; −1 when not known.
    public var headersSize: Int
    /// Body size in bytes; −1 when not known.
    public var bodySize: Int
    /// A comment from the user or the application.
    public var comment: String?
    /// Custom fields (names starting with `_`) kept from the imported file.
    public var customFields: [String: HARValue]

    /// Creates a request record.
    ///
    /// - Parameters:
    ///   - method: The method.
    ///   - url: The absolute URL.
    ///   - httpVersion: The protocol version.
    ///   - cookies: The cookies sent.
    ///   - headers: The header fields.
    ///   - queryString: The query parameters.
    ///   - postData: The body.
    ///   - headersSize: Header bytes, −1 when not known.
    ///   - bodySize: Body bytes, −1 when not known.
    ///   - comment: An optional comment.
    ///   - customFields: Custom `_` fields.
    public init(
        method: String,
        url: String,
        httpVersion: String = "HTTP/1.1",
        cookies: [HARCookie] = [],
        headers: [HARHeader] = [],
        queryString: [HARQueryParameter] = [],
        postData: HARPostData? = nil,
        headersSize: Int = -1,
        bodySize: Int = -1,
        comment: String? = nil,
        customFields: [String: HARValue] = [:]
    ) {
        self.method = method
        self.url = url
        self.httpVersion = httpVersion
        self.cookies = cookies
        self.headers = headers
        self.queryString = queryString
        self.postData = postData
        self.headersSize = headersSize
        self.bodySize = bodySize
        self.comment = comment
        self.customFields = customFields
    }

    /// Decodes leniently: only `method` and `url` are needed.
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError.keyNotFound` when `method` or `url` is missing.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: HARCodingKey.self)
        method = try container.required("method", container.lenientString)
        url = try container.required("url", container.lenientString)
        httpVersion = try container.requiredString("httpVersion") ?? ""
        cookies = try container.list(HARCookie.self, "cookies", isRequired: true)
        headers = try container.list(HARHeader.self, "headers", isRequired: true)
        queryString = try container.list(HARQueryParameter.self, "queryString", isRequired: true)
        postData = container.lenientOptional(HARPostData.self, "postData")
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
        try container.encode(method, forKey: "method")
        try container.encode(url, forKey: "url")
        try container.encode(httpVersion, forKey: "httpVersion")
        try container.encode(cookies, forKey: "cookies")
        try container.encode(headers, forKey: "headers")
        try container.encode(queryString, forKey: "queryString")
        try container.encodeIfPresent(postData, forKey: "postData")
        try container.encode(headersSize, forKey: "headersSize")
        try container.encode(bodySize, forKey: "bodySize")
        try container.encodeIfPresent(comment, forKey: "comment")
        try container.encodeCustomFields(customFields)
    }
}
