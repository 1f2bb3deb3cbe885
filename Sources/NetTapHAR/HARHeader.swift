import Foundation

/// One HTTP header field of a request or response: HAR 1.2 `headers[]`.
public struct HARHeader: Codable, Sendable, Hashable {
    /// The field name as sent, for example `Content-Type`.
    public var name: String
    /// The field value.
    public var value: String
    /// A comment from the user or the application.
    public var comment: String?

    /// Creates a header.
    ///
    /// - Parameters:
    ///   - name: The field name.
    ///   - value: The field value.
    ///   - comment: An optional comment.
    public init(name: String, value: String, comment: String? = nil) {
        self.name = name
        self.value = value
        self.comment = comment
    }

    /// Decodes a header leniently: a missing or `null` value reads as `""`, numbers as their spelling.
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError.keyNotFound` when `name` is missing.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: HARCodingKey.self)
        name = try container.required("name", container.lenientString)
        value = try container.lenientText("value") ?? ""
        comment = try container.lenientString("comment")
    }

    /// Encodes the HAR 1.2 fields.
    ///
    /// - Parameter encoder: The encoder.
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: HARCodingKey.self)
        try container.encode(name, forKey: "name")
        try container.encode(value, forKey: "value")
        try container.encodeIfPresent(comment, forKey: "comment")
    }
}
