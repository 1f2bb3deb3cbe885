import Foundation
import NetTapCore

/// Lenient readers for HAR fields: real exporters write numbers as strings, `null` for absent values and
/// leave out fields the spec requires. These readers accept that and throw `DecodingError` only when a
/// value cannot mean what the field needs, so the error names the field's JSON path. Every value they coerce
/// (a number or boolean written as a string or the other way round, a fraction where a whole number belongs, a
/// `null` where HAR 1.2 requires a value that `null` does not stand for) is reported with a ``HARWarning``. A `null`
/// for an optional field, or for text HAR 1.2 lets be empty (`redirectURL`, `statusText`, a `mimeType`, a header's
/// `value`), reads as absent or empty without one, as exporters write it (Playwright's `cache.beforeRequest`,
/// Charles' `redirectURL`): nothing is lost, and such a file still loads as a cassette.
extension KeyedDecodingContainer where Key == HARCodingKey {
    /// Whether the field is absent or `null`.
    func isAbsent(_ key: String) -> Bool {
        let codingKey = HARCodingKey(key)
        guard contains(codingKey) else { return true }
        return (try? decodeNil(forKey: codingKey)) ?? false
    }

    /// Whether a field HAR 1.2 requires is `null`, reported with a ``HARWarning`` (`read as` `resolution`).
    func isRequiredNull(_ key: String, resolution: String) -> Bool {
        let codingKey = HARCodingKey(key)
        guard contains(codingKey), (try? decodeNil(forKey: codingKey)) == true else { return false }
        HARWarningLog.warn(at: codingPath + [codingKey], "found null where HAR 1.2 requires a value", resolution)
        return true
    }

    /// A string, or `nil` when absent or `null`; numbers and booleans are turned into their JSON spelling, any
    /// other value reads as unknown (`nil`) with a ``HARWarning``.
    func lenientString(_ key: String) throws -> String? {
        guard !isAbsent(key) else { return nil }
        let codingKey = HARCodingKey(key)
        if let value = try? decode(String.self, forKey: codingKey) { return value }
        if let value = scalarText(codingKey) {
            coerced(codingKey, expected: "a string", "read as its JSON text \(value)")
            return value
        }
        unusable(codingKey, expected: "a string")
        return nil
    }

    /// A string HAR 1.2 requires: as ``lenientString(_:)``, and a `null` is reported (read as `resolution`).
    func requiredString(_ key: String, resolution: String = "read as empty") throws -> String? {
        _ = isRequiredNull(key, resolution: resolution)
        return try lenientString(key)
    }

    /// A number HAR 1.2 requires: as ``lenientDouble(_:)``, and a `null` is reported (read as `resolution`).
    func requiredDouble(_ key: String, resolution: String) throws -> Double? {
        _ = isRequiredNull(key, resolution: resolution)
        return try lenientDouble(key)
    }

    /// A whole number HAR 1.2 requires: as ``lenientInt(_:)``, and a `null` is reported (read as `resolution`).
    func requiredInt(_ key: String, resolution: String = "read as unknown (-1)") throws -> Int? {
        _ = isRequiredNull(key, resolution: resolution)
        return try lenientInt(key)
    }

    /// A boolean or number's JSON spelling.
    private func scalarText(_ codingKey: HARCodingKey) -> String? {
        if let value = try? decode(Bool.self, forKey: codingKey) { return value ? "true" : "false" }
        if let value = try? decode(Int.self, forKey: codingKey) { return String(value) }
        if let value = try? decode(Double.self, forKey: codingKey) { return String(value) }
        return nil
    }

    /// Records a value read as another type: `expected …, found …; read as …`.
    private func coerced(_ codingKey: HARCodingKey, expected: String, _ resolution: String) {
        let found = (try? decode(HARValue.self, forKey: codingKey))?.kindDescription ?? "an unreadable value"
        HARWarningLog.warn(at: codingPath + [codingKey], "expected \(expected), found \(found)", resolution)
    }

    /// The text of a header, cookie, query or form value: as ``lenientString(_:)``, and also an array of strings
    /// as its strings one per line (several header lines, as some exporters write them) and any other value as
    /// its JSON text, both with a ``HARWarning``.
    func lenientText(_ key: String) throws -> String? {
        guard !isAbsent(key) else { return nil }
        let codingKey = HARCodingKey(key)
        if let value = try? decode(String.self, forKey: codingKey) { return value }
        if let value = scalarText(codingKey) {
            coerced(codingKey, expected: "a string", "read as its JSON text \(value)")
            return value
        }
        if let lines = try? decode([String].self, forKey: codingKey) {
            let count = "\(lines.count) string\(lines.count == 1 ? "" : "s")"
            HARWarningLog.warn(
                at: codingPath + [codingKey],
                "expected a string, found an array of \(count)",
                "joined, one per line"
            )
            return lines.joined(separator: "\n")
        }
        let value = try decode(HARValue.self, forKey: codingKey)
        HARWarningLog.warn(
            at: codingPath + [codingKey],
            "expected a string, found \(value.kindDescription)",
            "read as its JSON text"
        )
        return (try? value.data()).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    /// A number, or `nil` when absent, `null` or an empty string; strings holding a number are accepted, and any
    /// other value reads as unknown (`nil`) with a ``HARWarning``.
    func lenientDouble(_ key: String) throws -> Double? {
        guard !isAbsent(key) else { return nil }
        let codingKey = HARCodingKey(key)
        if let value = try? decode(Double.self, forKey: codingKey) { return value }
        if let text = try? decode(String.self, forKey: codingKey) {
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty {
                coerced(codingKey, expected: "a number", "read as unknown")
                return nil
            }
            if let value = Double(trimmed), value.isFinite {
                coerced(codingKey, expected: "a number", "read as its number \(trimmed)")
                return value
            }
        }
        unusable(codingKey, expected: "a number")
        return nil
    }

    /// A whole number; accepts numbers with a zero fraction and strings holding a number (rounded); out of
    /// range, unknown (`nil`) with a ``HARWarning``.
    func lenientInt(_ key: String) throws -> Int? {
        guard let value = try lenientDouble(key) else { return nil }
        guard value.magnitude < 9e15 else {
            HARWarningLog.warn(at: codingPath + [HARCodingKey(key)], "number out of range", "read as unknown")
            return nil
        }
        let whole = Int(value.rounded())
        if Double(whole) != value, (try? decode(Double.self, forKey: HARCodingKey(key))) != nil {
            HARWarningLog.warn(
                at: codingPath + [HARCodingKey(key)],
                "expected a whole number, found \(value)",
                "read as \(whole)"
            )
        }
        return whole
    }

    /// A boolean; accepts `"true"`/`"false"` strings and the numbers 0 and 1; any other value reads as unknown
    /// (`nil`) with a ``HARWarning``.
    func lenientBool(_ key: String) throws -> Bool? {
        guard !isAbsent(key) else { return nil }
        let codingKey = HARCodingKey(key)
        if let value = try? decode(Bool.self, forKey: codingKey) { return value }
        var read: Bool?
        if let text = try? decode(String.self, forKey: codingKey) {
            switch text.lowercased() {
            case "true", "1": read = true
            case "false", "0", "": read = false
            default: break
            }
        } else if let number = try? decode(Double.self, forKey: codingKey), number == 0 || number == 1 {
            read = number == 1
        }
        if let read {
            coerced(codingKey, expected: "a boolean", "read as \(read)")
            return read
        }
        unusable(codingKey, expected: "a boolean")
        return nil
    }

    /// Records that a value was left out: `expected …, found …; read as unknown`.
    private func unusable(_ codingKey: HARCodingKey, expected: String) {
        let found = (try? decode(HARValue.self, forKey: codingKey))?.kindDescription ?? "an unreadable value"
        HARWarningLog.warn(at: codingPath + [codingKey], "expected \(expected), found \(found)", "read as unknown")
    }

    /// A nested value; `nil` when absent or `null`.
    ///
    /// A value that cannot be read throws (use
    /// ``lenientOptional(_:_:)`` for what NetTap can do without).
    func optional<T: Decodable>(_ type: T.Type, _ key: String) throws -> T? {
        guard !isAbsent(key) else { return nil }
        return try decode(type, forKey: HARCodingKey(key))
    }

    /// A nested value NetTap can do without; `nil` when absent or `null`, and `nil` with a ``HARWarning`` when
    /// it cannot be read (`cache` written as `[]`).
    func lenientOptional<T: Decodable>(_ type: T.Type, _ key: String) -> T? {
        do {
            return try optional(type, key)
        } catch {
            let found = try? decode(HARValue.self, forKey: HARCodingKey(key))
            let path = codingPath + [HARCodingKey(key)]
            HARWarningLog.warn(at: path, Self.reason(error, at: path, found: found), "left out")
            return nil
        }
    }

    /// An array; `[]` when absent or `null`.
    ///
    /// Not an array: `[]` with a ``HARWarning``; an element that cannot be read is left out with one.
    func list<T: Decodable>(_ type: T.Type, _ key: String, isRequired: Bool = false) throws -> [T] {
        if isRequired, isRequiredNull(key, resolution: "read as empty") { return [] }
        guard !isAbsent(key) else { return [] }
        let codingKey = HARCodingKey(key)
        guard var elements = try? nestedUnkeyedContainer(forKey: codingKey) else {
            let found = (try? decode(HARValue.self, forKey: codingKey))?.kindDescription ?? "an unreadable value"
            HARWarningLog.warn(at: codingPath + [codingKey], "expected an array, found \(found)", "left out")
            return []
        }
        return Self.readElements(T.self, from: &elements)
    }

    /// An array that must be one (`log.entries`): `nil` when absent or `null`, throws when it is not an array;
    /// an element that cannot be read is left out with a ``HARWarning``.
    func elements<T: Decodable>(_ type: T.Type, _ key: String) throws -> [T]? {
        try indexedElements(T.self, key).map { $0.elements }
    }

    /// ``elements(_:_:)``, and the indices in the array of the elements left out.
    func indexedElements<T: Decodable>(_ type: T.Type, _ key: String) throws -> (elements: [T], leftOut: [Int])? {
        guard !isAbsent(key) else { return nil }
        var elements = try nestedUnkeyedContainer(forKey: HARCodingKey(key))
        let read = Self.readIndexedElements(T.self, from: &elements)
        let kept = Set(read.map(\.index))
        let count = elements.count ?? (read.last.map { $0.index + 1 } ?? 0)
        return (read.map(\.element), (0..<count).filter { !kept.contains($0) })
    }

    /// The elements of an array, each that cannot be read left out with a ``HARWarning``.
    static func readElements<T: Decodable>(_ type: T.Type, from elements: inout any UnkeyedDecodingContainer) -> [T] {
        readIndexedElements(T.self, from: &elements).map(\.element)
    }

    /// The elements of an array that could be read, each with its index in the array; each that cannot be read is
    /// left out with a ``HARWarning``.
    static func readIndexedElements<T: Decodable>(
        _ type: T.Type,
        from elements: inout any UnkeyedDecodingContainer
    ) -> [(index: Int, element: T)] {
        var read: [(index: Int, element: T)] = []
        while !elements.isAtEnd {
            let index = elements.currentIndex
            let path = elements.codingPath + [HARIndexKey(index)]
            do {
                read.append((index, try elements.decode(T.self)))
            } catch {
                // A failed decode does not move past the element: reading it as any JSON value does.
                let found = try? elements.decode(HARValue.self)
                HARWarningLog.warn(at: path, reason(error, at: path, found: found), "left out")
                if found == nil { break }
            }
        }
        return read
    }

    /// A decoding error as a warning's text (`missing required field "url" at $.log.entries[0].request`,
    /// `expected an object, found an array`), `found` being the value at `path` that could not be read.
    static func reason(_ error: any Error, at path: [any CodingKey], found: HARValue?) -> String {
        let place = { (codingPath: [any CodingKey]) -> String in
            let text = JSONPath.path(codingPath)
            return text == JSONPath.path(path) ? "" : " at \(text)"
        }
        switch error as? DecodingError {
        case .keyNotFound(let key, let context)?:
            return "missing required field \"\(key.stringValue)\"\(place(context.codingPath))"
        case .typeMismatch(let type, let context)?:
            let name = String(describing: type)
            let expected =
                name.hasPrefix("Array") ? "an array" : name.hasPrefix("Dictionary") ? "an object" : "another value"
            let isHere = place(context.codingPath).isEmpty
            let kind = isHere ? found.map { ", found \($0.kindDescription)" } ?? "" : ""
            return "expected \(expected)\(place(context.codingPath))\(kind)"
        case .valueNotFound(_, let context)?:
            return "null where HAR 1.2 requires a value\(place(context.codingPath))"
        case .dataCorrupted(let context)?:
            return "unusable value\(place(context.codingPath))"
        default:
            return "cannot be read: \(error)"
        }
    }

    /// A field the entry cannot do without: throws `keyNotFound` when absent, `valueNotFound` when `null`.
    func required<T>(_ key: String, _ read: (String) throws -> T?) throws -> T {
        guard let value = try read(key) else {
            if contains(HARCodingKey(key)) {
                throw DecodingError.valueNotFound(
                    T.self,
                    .init(codingPath: codingPath + [HARCodingKey(key)], debugDescription: "null")
                )
            }
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

/// An array index in a coding path (`[3]`), for warnings about elements.
struct HARIndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { intValue.map(String.init) ?? "" }

    init(_ index: Int) { intValue = index }
    init?(intValue: Int) { self.intValue = intValue }
    init?(stringValue: String) { nil }
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
