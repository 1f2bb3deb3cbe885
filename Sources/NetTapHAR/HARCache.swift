import Foundation

/// What the browser cache held before and after the request: HAR 1.2 `cache`.
///
/// NetTap exports it empty (`{}`): it does not see a cache.
public struct HARCache: Codable, Sendable, Hashable {
    /// The cache entry before the request; `nil` when there was none or it is not known.
    public var beforeRequest: HARCacheEntry?
    /// The cache entry after the request; `nil` when there was none or it is not known.
    public var afterRequest: HARCacheEntry?
    /// A comment from the user or the application.
    public var comment: String?

    /// Creates a cache record.
    ///
    /// - Parameters:
    ///   - beforeRequest: The entry before the request.
    ///   - afterRequest: The entry after the request.
    ///   - comment: An optional comment.
    public init(beforeRequest: HARCacheEntry? = nil, afterRequest: HARCacheEntry? = nil, comment: String? = nil) {
        self.beforeRequest = beforeRequest
        self.afterRequest = afterRequest
        self.comment = comment
    }

    /// Decodes leniently: `null` entries (as in the spec's examples) read as `nil`.
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` when a cache entry is malformed.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: HARCodingKey.self)
        beforeRequest = container.lenientOptional(HARCacheEntry.self, "beforeRequest")
        afterRequest = container.lenientOptional(HARCacheEntry.self, "afterRequest")
        comment = try container.lenientString("comment")
    }

    /// Encodes the HAR 1.2 fields, leaving out the absent ones.
    ///
    /// - Parameter encoder: The encoder.
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: HARCodingKey.self)
        try container.encodeIfPresent(beforeRequest, forKey: "beforeRequest")
        try container.encodeIfPresent(afterRequest, forKey: "afterRequest")
        try container.encodeIfPresent(comment, forKey: "comment")
    }
}

/// One browser cache entry: HAR 1.2 `beforeRequest` / `afterRequest`.
public struct HARCacheEntry: Codable, Sendable, Hashable {
    /// When the entry expires, as an ISO 8601 date-time.
    public var expires: String?
    /// When the entry was last opened, as an ISO 8601 date-time.
    public var lastAccess: String
    /// The entry's ETag.
    public var eTag: String
    /// How many times the entry was opened.
    public var hitCount: Int
    /// A comment from the user or the application.
    public var comment: String?

    /// Creates a cache entry.
    ///
    /// - Parameters:
    ///   - expires: The expiry, if any.
    ///   - lastAccess: The last access.
    ///   - eTag: The ETag.
    ///   - hitCount: The number of hits.
    ///   - comment: An optional comment.
    public init(expires: String? = nil, lastAccess: String, eTag: String, hitCount: Int, comment: String? = nil) {
        self.expires = expires
        self.lastAccess = lastAccess
        self.eTag = eTag
        self.hitCount = hitCount
        self.comment = comment
    }

    /// Decodes leniently: missing fields read as empty values.
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError.typeMismatch` when a value has an unusable type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: HARCodingKey.self)
        expires = try container.lenientString("expires")
        lastAccess = try container.lenientString("lastAccess") ?? ""
        eTag = try container.lenientString("eTag") ?? ""
        hitCount = try container.lenientInt("hitCount") ?? 0
        comment = try container.lenientString("comment")
    }

    /// Encodes the HAR 1.2 fields.
    ///
    /// - Parameter encoder: The encoder.
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: HARCodingKey.self)
        try container.encodeIfPresent(expires, forKey: "expires")
        try container.encode(lastAccess, forKey: "lastAccess")
        try container.encode(eTag, forKey: "eTag")
        try container.encode(hitCount, forKey: "hitCount")
        try container.encodeIfPresent(comment, forKey: "comment")
    }
}
