import Foundation

/// Any JSON value, used to keep the custom (`_`-prefixed) fields of a HAR file that NetTap does not model.
///
/// HAR 1.2 allows tools to add fields whose names start with an underscore (Chrome's `_initiator`,
/// `_resourceType`, Charles's `_charlesStatus`). NetTap keeps them in `customFields` so that an imported
/// file exported again still carries them.
public enum HARValue: Codable, Sendable, Hashable {
    /// JSON `null`.
    case null
    /// A JSON boolean.
    case bool(Bool)
    /// A JSON number.
    case number(Double)
    /// A JSON string.
    case string(String)
    /// A JSON array.
    case array([HARValue])
    /// A JSON object.
    case object([String: HARValue])

    /// Decodes any JSON value.
    ///
    /// - Parameter decoder: The decoder positioned at the value.
    /// - Throws: `DecodingError.dataCorrupted` when the value is not JSON (never for decoded JSON text).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([HARValue].self) {
            self = .array(value)
        } else if let value = try? container.decode([String: HARValue].self) {
            self = .object(value)
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a JSON value")
        }
    }

    /// Encodes the value as the JSON it stands for.
    ///
    /// - Parameter encoder: The encoder.
    /// - Throws: `EncodingError.invalidValue` for a number that is not finite.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// The string, when the value is a JSON string.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }
}
