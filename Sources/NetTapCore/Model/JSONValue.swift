import Foundation

/// A JSON value (RFC 8259) as plain Swift data: what JSON matchers compare, stubs answer with and
/// configuration files hold.
///
/// Parsing and printing go through Foundation's `JSONDecoder` and `JSONSerialization`. Integers that fit
/// in 64 bits keep their exact value (`.integer`); other numbers are `Double`s. Equality is by value:
/// object key order never matters and `1 == 1.0`.
///
/// ```swift
/// let body: JSONValue = ["user": ["id": 42, "tags": ["a", "b"]], "ok": true]
/// let data = try body.data()            // {"ok":true,"user":{"id":42,"tags":["a","b"]}}
/// let parsed = try JSONValue(data: data)
/// ```
public enum JSONValue: Sendable, Hashable, Codable, CustomStringConvertible {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number written without fraction or exponent that fits in 64 bits.
    case integer(Int64)
    /// Any other number.
    case number(Double)
    /// A string.
    case string(String)
    /// An array, in order.
    case array([JSONValue])
    /// An object; key order is not kept.
    case object([String: JSONValue])

    /// Parses JSON text.
    ///
    /// - Parameter data: UTF-8 JSON text; any top-level value is accepted.
    /// - Throws: `DecodingError.dataCorrupted` when `data` is not valid JSON.
    public init(data: Data) throws {
        self = try JSONDecoder().decode(JSONValue.self, from: data)
    }

    /// Decodes a value from any decoder (a `JSONDecoder` gives the exact JSON types).
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError.typeMismatch` when the value is not JSON-shaped.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else if let value = try? container.decode([String: JSONValue].self) {
            self = .object(value)
        } else {
            throw DecodingError.typeMismatch(
                JSONValue.self,
                .init(codingPath: decoder.codingPath, debugDescription: "not a JSON value")
            )
        }
    }

    /// Encodes the value.
    ///
    /// - Parameter encoder: The encoder.
    /// - Throws: `EncodingError.invalidValue` for a non-finite number.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// Prints the value as JSON text.
    ///
    /// - Parameter prettyPrinted: Whether to indent (2 spaces per level); compact by default.
    /// - Returns: UTF-8 JSON with object keys sorted and slashes not escaped, so output is stable.
    /// - Throws: `EncodingError.invalidValue` for a non-finite number.
    public func data(prettyPrinted: Bool = false) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting =
            prettyPrinted
            ? [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted] : [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    /// Compact JSON text, or `<invalid JSON: …>` for a non-finite number.
    public var description: String {
        do {
            return String(decoding: try data(), as: UTF8.self)
        } catch {
            return "<invalid JSON: \(error)>"
        }
    }

    /// The string, or `nil` for other values.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The member of an object, or `nil` for other values and missing keys.
    ///
    /// - Parameter key: The member name.
    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    /// Whether every member and element of `expected` is present in this value with an equal value.
    ///
    /// Objects: every key of `expected` must be present here with a value that contains the expected one
    /// (extra keys here are allowed, at any depth). Arrays: same length, element by element containment.
    /// Other values: equality.
    /// - Parameter expected: The partial value to look for.
    /// - Returns: Whether this value contains `expected`.
    public func contains(_ expected: JSONValue) -> Bool {
        switch (self, expected) {
        case (.object(let actual), .object(let wanted)):
            return wanted.allSatisfy { key, value in actual[key]?.contains(value) ?? false }
        case (.array(let actual), .array(let wanted)):
            return actual.count == wanted.count && zip(actual, wanted).allSatisfy { $0.contains($1) }
        default:
            return self == expected
        }
    }

    /// Value equality: object key order is ignored and integers equal numbers of the same value.
    ///
    /// - Parameters:
    ///   - lhs: One value.
    ///   - rhs: Another value.
    /// - Returns: Whether both hold the same JSON data.
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.integer(let a), .integer(let b)): a == b
        case (.number(let a), .number(let b)): a == b
        case (.integer(let a), .number(let b)), (.number(let b), .integer(let a)): Double(a) == b
        case (.string(let a), .string(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a == b
        default: false
        }
    }

    /// Hashes consistently with ``==(_:_:)`` (integers hash as the equal `Double`).
    ///
    /// - Parameter hasher: The hasher.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let value): hasher.combine(value)
        case .integer(let value): hasher.combine(Double(value))
        case .number(let value): hasher.combine(value)
        case .string(let value): hasher.combine(value)
        case .array(let value): hasher.combine(value)
        case .object(let value): hasher.combine(value)
        }
    }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    /// `null` from `nil`.
    ///
    /// - Parameter nilLiteral: Unused.
    public init(nilLiteral: ()) { self = .null }
    /// A boolean from a literal.
    ///
    /// - Parameter value: The value.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// An integer from a literal.
    ///
    /// - Parameter value: The value.
    public init(integerLiteral value: Int64) { self = .integer(value) }
    /// A number from a literal.
    ///
    /// - Parameter value: The value.
    public init(floatLiteral value: Double) { self = .number(value) }
    /// A string from a literal.
    ///
    /// - Parameter value: The value.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An array from a literal.
    ///
    /// - Parameter elements: The elements.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// An object from a literal; a repeated key keeps its last value.
    ///
    /// - Parameter elements: The members.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
