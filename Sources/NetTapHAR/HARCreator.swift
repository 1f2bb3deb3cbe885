import Foundation

/// The application that wrote a HAR file, or the browser it came from: HAR 1.2 `creator` and `browser`.
public struct HARCreator: Codable, Sendable, Hashable {
    /// The application's name, for example `NetTap`.
    public var name: String
    /// The application's version.
    public var version: String
    /// A comment from the user or the application.
    public var comment: String?

    /// The version NetTap writes into the `creator` of the HAR files it exports.
    public static let netTapVersion = "0.1.0"

    /// NetTap itself, the default creator of exported files.
    public static let netTap = HARCreator(name: "NetTap", version: netTapVersion)

    /// Creates a creator record.
    ///
    /// - Parameters:
    ///   - name: The application's name.
    ///   - version: The application's version.
    ///   - comment: An optional comment.
    public init(name: String, version: String, comment: String? = nil) {
        self.name = name
        self.version = version
        self.comment = comment
    }

    /// Decodes leniently: missing `name` or `version` read as `""`.
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError.typeMismatch` when a field has an unusable type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: HARCodingKey.self)
        name = try container.lenientString("name") ?? ""
        version = try container.lenientString("version") ?? ""
        comment = try container.lenientString("comment")
    }

    /// Encodes the HAR 1.2 fields.
    ///
    /// - Parameter encoder: The encoder.
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: HARCodingKey.self)
        try container.encode(name, forKey: "name")
        try container.encode(version, forKey: "version")
        try container.encodeIfPresent(comment, forKey: "comment")
    }
}
