import Foundation

/// One cookie sent with a request or set by a response: HAR 1.2 `cookies[]`.
public struct HARCookie: Codable, Sendable, Hashable {
    /// The cookie's name.
    public var name: String
    /// The cookie's value.
    public var value: String
    /// The path the cookie applies to.
    public var path: String?
    /// The host the cookie applies to.
    public var domain: String?
    /// When the cookie expires, as an ISO 8601 date-time.
    public var expires: String?
    /// Whether the cookie is hidden from scripts (`HttpOnly`).
    public var httpOnly: Bool?
    /// Whether the cookie is sent over secure connections only (`Secure`).
    public var secure: Bool?
    /// A comment from the user or the application.
    public var comment: String?

    /// Creates a cookie record.
    ///
    /// - Parameters:
    ///   - name: The name.
    ///   - value: The value.
    ///   - path: The path, if known.
    ///   - domain: The domain, if known.
    ///   - expires: The expiry as an ISO 8601 date-time, if any.
    ///   - httpOnly: Whether it is HTTP only, if known.
    ///   - secure: Whether it is secure only, if known.
    ///   - comment: An optional comment.
    public init(
        name: String,
        value: String,
        path: String? = nil,
        domain: String? = nil,
        expires: String? = nil,
        httpOnly: Bool? = nil,
        secure: Bool? = nil,
        comment: String? = nil
    ) {
        self.name = name
        self.value = value
        self.path = path
        self.domain = domain
        self.expires = expires
        self.httpOnly = httpOnly
        self.secure = secure
        self.comment = comment
    }

    /// Decodes leniently: a missing value reads as `""`; non-HAR fields such as Chrome's `sameSite` are ignored.
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError.keyNotFound` when `name` is missing.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: HARCodingKey.self)
        name = try container.required("name", container.lenientString)
        value = try container.lenientText("value") ?? ""
        path = try container.lenientString("path")
        domain = try container.lenientString("domain")
        expires = try container.lenientString("expires")
        httpOnly = try container.lenientBool("httpOnly")
        secure = try container.lenientBool("secure")
        comment = try container.lenientString("comment")
    }

    /// Encodes the HAR 1.2 fields, leaving out the unknown ones.
    ///
    /// - Parameter encoder: The encoder.
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: HARCodingKey.self)
        try container.encode(name, forKey: "name")
        try container.encode(value, forKey: "value")
        try container.encodeIfPresent(path, forKey: "path")
        try container.encodeIfPresent(domain, forKey: "domain")
        try container.encodeIfPresent(expires, forKey: "expires")
        try container.encodeIfPresent(httpOnly, forKey: "httpOnly")
        try container.encodeIfPresent(secure, forKey: "secure")
        try container.encodeIfPresent(comment, forKey: "comment")
    }
}
