import Foundation

/// One parameter of a request URL's query: HAR 1.2 `queryString[]`.
public struct HARQueryParameter: Codable, Sendable, Hashable {
    /// The parameter name, percent-decoded.
    public var name: String
    /// The parameter value, percent-decoded; `""` when the URL has none.
    public var value: String
    /// A comment from the user or the application.
    public var comment: String?

    /// Creates a query parameter.
    ///
    /// - Parameters:
    ///   - name: The parameter name.
    ///   - value: The parameter value.
    ///   - comment: An optional comment.
    public init(name: String, value: String, comment: String? = nil) {
        self.name = name
        self.value = value
        self.comment = comment
    }

    /// Decodes a query parameter leniently: a missing or `null` value reads as `""`, numbers as their spelling.
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
