/// Combines the configuration JSON of matchers the way `&&`, `||` and `!` combine the matchers.
///
/// `&&` of two objects with different keys is one object with both (every key of a matcher object must
/// hold). When both write `headers`, `headerContains`, `form` or a non-exact `query` with different names,
/// those inner objects are merged too, so `.header("A", "1") && .header("B", "2")` writes
/// `{"headers": {"A": "1", "B": "2"}}`. Any other collision writes `{"allOf": [lhs, rhs]}`.
enum MatcherConfiguration {
    /// The members whose inner objects hold one independent condition per name.
    private static let mergeableMembers: Set<String> = ["headers", "headerContains", "form", "query"]

    /// The configuration of `lhs && rhs`, or `nil` when either has none.
    static func allOf(_ lhs: JSONValue?, _ rhs: JSONValue?) -> JSONValue? {
        guard case .object(let left)? = lhs, case .object(let right)? = rhs else { return nil }
        if let merged = merge(left, right) { return .object(merged) }
        return .object(["allOf": .array(parts(of: left, under: "allOf") + parts(of: right, under: "allOf"))])
    }

    /// The configuration of `lhs || rhs`, or `nil` when either has none.
    static func anyOf(_ lhs: JSONValue?, _ rhs: JSONValue?) -> JSONValue? {
        guard case .object(let left)? = lhs, case .object(let right)? = rhs else { return nil }
        return .object(["anyOf": .array(parts(of: left, under: "anyOf") + parts(of: right, under: "anyOf"))])
    }

    /// One object meaning both, or `nil` when a key collides in a way that cannot be merged.
    private static func merge(_ left: [String: JSONValue], _ right: [String: JSONValue]) -> [String: JSONValue]? {
        var result = left
        for (key, value) in right {
            guard let existing = result[key] else {
                result[key] = value
                continue
            }
            guard mergeableMembers.contains(key), case .object(let inner) = existing,
                case .object(let otherInner) = value, Set(inner.keys).isDisjoint(with: otherInner.keys),
                key != "query" || (left["queryExactly"] == nil && right["queryExactly"] == nil)
            else { return nil }
            result[key] = .object(inner.merging(otherInner) { first, _ in first })
        }
        return result
    }

    /// The list an `allOf` or `anyOf`-only object holds, so nested combinations stay flat.
    private static func parts(of object: [String: JSONValue], under key: String) -> [JSONValue] {
        if object.count == 1, case .array(let items)? = object[key] { return items }
        return [.object(object)]
    }
}
