import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An ordered list of HTTP header fields with case-insensitive name lookup.
///
/// Field names compare case-insensitively (RFC 9110 §5.1) but keep the spelling they arrived with, and
/// repeated fields (several `Set-Cookie` lines) stay separate and in order, as HAR 1.2 `headers` requires.
///
/// ```swift
/// var headers: HeaderFields = ["Content-Type": "application/json"]
/// headers.add(name: "Set-Cookie", value: "a=1")
/// headers["content-type"]  // "application/json"
/// ```
public struct HeaderFields: Sendable, Hashable, Codable, RandomAccessCollection, ExpressibleByDictionaryLiteral {
    /// One header field: a name as sent and its value.
    public struct Field: Sendable, Hashable, Codable {
        /// The field name with its original spelling, for example `Content-Type`.
        public var name: String
        /// The field value, without leading or trailing white space.
        public var value: String

        /// Creates a header field.
        /// - Parameters:
        ///   - name: The field name; compared case-insensitively.
        ///   - value: The field value.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The fields in the order they were added.
    public private(set) var fields: [Field]

    /// Creates headers from fields, keeping their order and repetitions.
    /// - Parameter fields: The header fields.
    public init(_ fields: [Field] = []) {
        self.fields = fields
    }

    /// Creates headers from a dictionary literal, in literal order.
    /// - Parameter elements: Name and value pairs.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.fields = elements.map { Field(name: $0.0, value: $0.1) }
    }

    /// Creates headers from a Foundation header dictionary such as `URLRequest.allHTTPHeaderFields`,
    /// sorted by name so the result does not depend on dictionary order.
    /// - Parameter dictionary: Names and values; non-string keys or values are described with `String(describing:)`.
    public init(_ dictionary: [AnyHashable: Any]) {
        self.fields =
            dictionary
            .map { Field(name: String(describing: $0.key.base), value: String(describing: $0.value)) }
            .sorted { $0.name.lowercased() < $1.name.lowercased() }
    }

    /// The first index of the collection.
    public var startIndex: Int { fields.startIndex }
    /// One past the last index of the collection.
    public var endIndex: Int { fields.endIndex }
    /// The field at `position`.
    /// - Parameter position: An index in `startIndex..<endIndex`.
    public subscript(position: Int) -> Field { fields[position] }

    /// The value of the first field named `name` (case-insensitive); setting replaces every field of that
    /// name with one field, or removes them all when set to `nil`.
    /// - Parameter name: The field name.
    public subscript(name: String) -> String? {
        get { fields.first { $0.name.caseInsensitivelyEquals(name) }?.value }
        set {
            if let newValue {
                set(name: name, value: newValue)
            } else {
                remove(name: name)
            }
        }
    }

    /// All values of the fields named `name`, in order.
    /// - Parameter name: The field name, compared case-insensitively.
    /// - Returns: The values; empty when there is no such field.
    public func values(for name: String) -> [String] {
        fields.filter { $0.name.caseInsensitivelyEquals(name) }.map(\.value)
    }

    /// Whether a field named `name` exists (case-insensitive).
    /// - Parameter name: The field name.
    /// - Returns: `true` when at least one field has that name.
    public func contains(name: String) -> Bool {
        fields.contains { $0.name.caseInsensitivelyEquals(name) }
    }

    /// Appends a field, keeping any existing fields of the same name.
    /// - Parameters:
    ///   - name: The field name.
    ///   - value: The field value.
    public mutating func add(name: String, value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Replaces every field named `name` with a single field, at the position of the first one.
    /// - Parameters:
    ///   - name: The field name.
    ///   - value: The new value.
    public mutating func set(name: String, value: String) {
        guard let first = fields.firstIndex(where: { $0.name.caseInsensitivelyEquals(name) }) else {
            add(name: name, value: value)
            return
        }
        var kept: [Field] = []
        kept.reserveCapacity(fields.count)
        for (index, field) in fields.enumerated() {
            if index == first {
                kept.append(Field(name: field.name, value: value))
            } else if !field.name.caseInsensitivelyEquals(name) {
                kept.append(field)
            }
        }
        fields = kept
    }

    /// Removes every field named `name`.
    /// - Parameter name: The field name, compared case-insensitively.
    public mutating func remove(name: String) {
        fields.removeAll { $0.name.caseInsensitivelyEquals(name) }
    }

    /// The headers as a Foundation dictionary; repeated fields are joined with `", "` as Foundation does
    /// (RFC 9110 §5.3), except `Set-Cookie`, whose lines are joined with `", "` too because Foundation's
    /// cookie parser splits them again.
    public var dictionary: [String: String] {
        var result: [String: String] = [:]
        var spelling: [String: String] = [:]
        for field in fields {
            let key = field.name.lowercased()
            if let existing = spelling[key] {
                result[existing] = (result[existing] ?? "") + ", " + field.value
            } else {
                spelling[key] = field.name
                result[field.name] = field.value
            }
        }
        return result
    }
}

extension HeaderFields: CustomStringConvertible {
    /// The fields as a dictionary literal, in order and with repetitions: `["Accept": "*/*", "Set-Cookie": "a=1"]`.
    public var description: String {
        guard !fields.isEmpty else { return "[:]" }
        return "[" + fields.map { "\(Self.quoted($0.name)): \(Self.quoted($0.value))" }.joined(separator: ", ") + "]"
    }

    private static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}

extension HeaderFields.Field: CustomStringConvertible {
    /// `Content-Type: application/json`.
    public var description: String { "\(name): \(value)" }
}
