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
