import Foundation

/// Lenient readers for HAR fields: real exporters write numbers as strings, `null` for absent values and
/// leave out fields the spec requires. These readers accept that and throw `DecodingError` only when a
/// value cannot mean what the field needs, so the error names the field's JSON path.
extension KeyedDecodingContainer where Key == HARCodingKey {
    /// Whether the field is absent or `null`.
    func isAbsent(_ key: String) -> Bool {
        let codingKey = HARCodingKey(key)
        guard contains(codingKey) else { return true }
        return (try? decodeNil(forKey: codingKey)) ?? false
    }

    /// A string, or `nil` when absent or `null`; numbers and booleans are turned into their JSON spelling.
    func lenientString(_ key: String) throws -> String? {
        guard !isAbsent(key) else { return nil }
        let codingKey = HARCodingKey(key)
        if let value = try? decode(String.self, forKey: codingKey) { return value }
        if let value = try? decode(Bool.self, forKey: codingKey) { return value ? "true" : "false" }
        if let value = try? decode(Int.self, forKey: codingKey) { return String(value) }
        if let value = try? decode(Double.self, forKey: codingKey) { return String(value) }
        throw DecodingError.typeMismatch(
            String.self,
            .init(codingPath: codingPath + [codingKey], debugDescription: "expected a string")
        )
    }

    /// A number, or `nil` when absent, `null` or an empty string; strings holding a number are accepted.
    func lenientDouble(_ key: String) throws -> Double? {
        guard !isAbsent(key) else { return nil }
        let codingKey = HARCodingKey(key)
        if let value = try? decode(Double.self, forKey: codingKey) { return value }
        if let text = try? decode(String.self, forKey: codingKey) {
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty { return nil }
            if let value = Double(trimmed), value.isFinite { return value }
        }
        throw DecodingError.typeMismatch(
            Double.self,
            .init(codingPath: codingPath + [codingKey], debugDescription: "expected a number")
        )
    }

    /// A whole number; accepts numbers with a zero fraction and strings holding a number (rounded).
    func lenientInt(_ key: String) throws -> Int? {
        guard let value = try lenientDouble(key) else { return nil }
        guard value.magnitude < 9e15 else {
            throw DecodingError.typeMismatch(
                Int.self,
                .init(codingPath: codingPath + [HARCodingKey(key)], debugDescription: "number out of range")
            )
        }
        return Int(value.rounded())
    }

    /// A boolean; accepts `"true"`/`"false"` strings and the numbers 0 and 1.
    func lenientBool(_ key: String) throws -> Bool? {
        guard !isAbsent(key) else { return nil }
        let codingKey = HARCodingKey(key)
        if let value = try? decode(Bool.self, forKey: codingKey) { return value }
        if let text = try? decode(String.self, forKey: codingKey) {
            switch text.lowercased() {
            case "true", "1": return true
            case "false", "0", "": return false
            default: break
            }
        }
        if let number = try? decode(Double.self, forKey: codingKey), number == 0 || number == 1 {
            return number == 1
        }
        throw DecodingError.typeMismatch(
            Bool.self,
            .init(codingPath: codingPath + [codingKey], debugDescription: "expected a boolean")
        )
    }

    /// A nested value; `nil` when absent or `null`.
    func optional<T: Decodable>(_ type: T.Type, _ key: String) throws -> T? {
        guard !isAbsent(key) else { return nil }
        return try decode(type, forKey: HARCodingKey(key))
    }

    /// An array; `[]` when absent or `null`.
    func list<T: Decodable>(_ type: T.Type, _ key: String) throws -> [T] {
        try optional([T].self, key) ?? []
    }

    /// A field the entry cannot do without: throws `keyNotFound` when absent or `null`.
    func required<T>(_ key: String, _ read: (String) throws -> T?) throws -> T {
        guard let value = try read(key) else {
            throw DecodingError.keyNotFound(
                HARCodingKey(key),
                .init(codingPath: codingPath, debugDescription: "missing required field \"\(key)\"")
            )
        }
        return value
    }

    /// The `_`-prefixed fields, except the ones NetTap models itself.
    func customFields(excluding modeled: Set<String> = []) -> [String: HARValue] {
        var fields: [String: HARValue] = [:]
        for key in allKeys where key.stringValue.hasPrefix("_") && !modeled.contains(key.stringValue) {
            if let value = try? decode(HARValue.self, forKey: key) {
                fields[key.stringValue] = value
            }
        }
        return fields
    }
}

extension KeyedEncodingContainer where Key == HARCodingKey {
    /// Writes the custom fields; names that do not start with `_` get one, as HAR 1.2 requires.
    mutating func encodeCustomFields(_ fields: [String: HARValue]) throws {
        for (name, value) in fields {
            let key = name.hasPrefix("_") ? name : "_" + name
            try encode(value, forKey: HARCodingKey(key))
        }
    }
}
