/// Builds JSON paths such as `$.mocks.scenarios[0].stubs[2].match` for error messages.
///
/// Names made of letters, digits and `_` are written with a dot (`$.log.entries`); any other name is
/// quoted in brackets (`$.headers["Content-Type"]`); array indexes are `[n]`, 0-based. The root is `$`.
package enum JSONPath {
    /// The path of the whole document, `$`.
    package static let root = "$"

    /// The path of an object member.
    ///
    /// - Parameters:
    ///   - key: The member name.
    ///   - path: The object's path.
    /// - Returns: The member's path, for example `$.match.path` or `$.headers["X-Id"]`.
    package static func appending(_ key: String, to path: String) -> String {
        if !key.isEmpty, key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) {
            return path + "." + key
        }
        let escaped = key.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return path + "[\"" + escaped + "\"]"
    }

    /// The path of an array element.
    ///
    /// - Parameters:
    ///   - index: The 0-based element index.
    ///   - path: The array's path.
    /// - Returns: The element's path, for example `$.stubs[2]`.
    package static func appending(_ index: Int, to path: String) -> String {
        path + "[\(index)]"
    }

    /// The path of a `Decoder`'s coding path.
    ///
    /// - Parameter codingPath: The keys from the root, as in `DecodingError.Context.codingPath`.
    /// - Returns: The path, for example `$.log.entries[3].response.status`; `$` for an empty coding path.
    package static func path(_ codingPath: [any CodingKey]) -> String {
        var result = root
        for key in codingPath {
            if let index = key.intValue {
                result = appending(index, to: result)
            } else {
                result = appending(key.stringValue, to: result)
            }
        }
        return result
    }
}

/// One step of a JSON path: an object member or an array element.
package enum JSONPathComponent: Hashable, Sendable {
    /// An object member, by name.
    case key(String)
    /// An array element, by 0-based index.
    case index(Int)
}

extension JSONPath {
    /// The steps of a path that ``appending(_:to:)-(String,_)`` wrote.
    ///
    /// - Parameter path: A path such as `$.mocks.stubs[2]["X-Id"]`.
    /// - Returns: The steps (empty for `$`), or `nil` when the text is not such a path.
    package static func components(of path: String) -> [JSONPathComponent]? {
        guard path.hasPrefix(root) else { return nil }
        var rest = Substring(path.dropFirst(root.count))
        var result: [JSONPathComponent] = []
        while let first = rest.first {
            if first == "." {
                let name = rest.dropFirst().prefix { $0.isLetter || $0.isNumber || $0 == "_" }
                guard !name.isEmpty else { return nil }
                result.append(.key(String(name)))
                rest = rest.dropFirst(1 + name.count)
            } else if rest.hasPrefix("[\"") {
                var name = ""
                var cursor = rest.dropFirst(2)
                while let character = cursor.first, character != "\"" {
                    if character == "\\", let escaped = cursor.dropFirst().first {
                        name.append(escaped)
                        cursor = cursor.dropFirst(2)
                    } else {
                        name.append(character)
                        cursor = cursor.dropFirst()
                    }
                }
                guard cursor.hasPrefix("\"]") else { return nil }
                result.append(.key(name))
                rest = cursor.dropFirst(2)
            } else if first == "[" {
                let digits = rest.dropFirst().prefix { $0.isASCII && $0.isNumber }
                guard let index = Int(digits), rest.dropFirst(1 + digits.count).first == "]" else { return nil }
                result.append(.index(index))
                rest = rest.dropFirst(2 + digits.count)
            } else {
                return nil
            }
        }
        return result
    }

    /// The path of a list of steps.
    ///
    /// - Parameter components: The steps from the root.
    /// - Returns: The path, for example `$.mocks.stubs[2]`; `$` for no steps.
    package static func path(_ components: [JSONPathComponent]) -> String {
        components.reduce(root) { path, component in
            switch component {
            case .key(let key): appending(key, to: path)
            case .index(let index): appending(index, to: path)
            }
        }
    }
}
