import Foundation

/// The body of a response: HAR 1.2 `response.content`.
///
/// ``size`` is the full decoded size in bytes. ``text`` holds the decoded body, or its base64 form when
/// ``encoding`` is `"base64"`. When NetTap kept only the first bytes of a long body, ``text`` holds those
/// and ``comment`` says how many of ``size`` bytes were kept.
public struct HARContent: Codable, Sendable, Hashable {
    /// The full decoded body size in bytes; −1 when a file read did not say (it is written as 0).
    public var size: Int
    /// Bytes saved by compression (`size` minus the transferred body size), when known.
    public var compression: Int?
    /// The MIME type from `Content-Type`, charset included, for example `text/html; charset=utf-8`.
    public var mimeType: String
    /// The body as text, or base64 when ``encoding`` is `"base64"`; `nil` when not available.
    public var text: String?
    /// `"base64"` when ``text`` is base64, else `nil`.
    public var encoding: String?
    /// A comment from the user or the application.
    public var comment: String?
    /// Custom fields (names starting with `_`) kept from the imported file.
    public var customFields: [String: HARValue]

    /// Creates a content record.
    ///
    /// - Parameters:
    ///   - size: The full decoded size in bytes.
    ///   - compression: Bytes saved by compression, if known.
    ///   - mimeType: The MIME type.
    ///   - text: The text or base64 body.
    ///   - encoding: `"base64"` when `text` is base64.
    ///   - comment: An optional comment.
    ///   - customFields: Custom `_` fields.
    public init(
        size: Int,
        compression: Int? = nil,
        mimeType: String,
        text: String? = nil,
        encoding: String? = nil,
        comment: String? = nil,
        customFields: [String: HARValue] = [:]
    ) {
        self.size = size
        self.compression = compression
        self.mimeType = mimeType
        self.text = text
        self.encoding = encoding
        self.comment = comment
        self.customFields = customFields
    }

    /// Decodes leniently: a missing or negative size reads as the decoded text's size, or −1 (unknown) without
    /// a text; a missing MIME type reads as `""`.
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError.typeMismatch` when a value has an unusable type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: HARCodingKey.self)
        compression = try container.lenientInt("compression")
        mimeType = try container.lenientString("mimeType") ?? ""
        text = try container.lenientString("text")
        encoding = try container.lenientString("encoding")
        comment = try container.lenientString("comment")
        customFields = container.customFields()
        size = try container.requiredInt("size") ?? -1
        if size < 0 {
            size = text.flatMap { HARBodyCoding.decode(text: $0, encoding: encoding) }?.count ?? -1
        }
    }

    /// Encodes the HAR 1.2 fields and the custom ones.
    ///
    /// - Parameter encoder: The encoder.
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: HARCodingKey.self)
        // HAR 1.2 has no "unknown" for content.size: an unknown size is written as 0.
        try container.encode(max(0, size), forKey: "size")
        try container.encodeIfPresent(compression, forKey: "compression")
        try container.encode(mimeType, forKey: "mimeType")
        try container.encodeIfPresent(text, forKey: "text")
        try container.encodeIfPresent(text == nil ? nil : encoding, forKey: "encoding")
        try container.encodeIfPresent(comment, forKey: "comment")
        try container.encodeCustomFields(customFields)
    }

    /// The body bytes that ``text`` stands for.
    ///
    /// - Returns: The base64-decoded bytes when ``encoding`` is `"base64"`, the UTF-8 bytes of ``text``
    ///   otherwise, or `nil` when there is no text or the base64 is invalid.
    public func decodedData() -> Data? {
        guard let text else { return nil }
        return HARBodyCoding.decode(text: text, encoding: encoding)
    }
}
