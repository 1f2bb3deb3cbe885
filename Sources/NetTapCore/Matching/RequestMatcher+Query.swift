import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension RequestMatcher {
    /// Matches query items by name and value, in any order.
    ///
    /// `.query(["page": "2", "q": nil])` matches `?q=swift&page=2&sort=asc`: `page` must be `2`, `q` must be
    /// present with any value. Names and values are percent-decoded and compared case-sensitively; a `+`
    /// in the request also counts as a space, as HTML forms write it. With `exactly: true` the query may
    /// hold no other items. Specificity: 3 per item, plus 2 when `exactly`.
    /// Configuration: `{"query": {"page": "2", "q": null}}`, plus `"queryExactly": true`.
    /// - Parameters:
    ///   - items: Names and values; a `nil` value means "present, with any value or none".
    ///   - exactly: Whether items other than these make the request miss.
    /// - Returns: The matcher.
    /// - Complexity: O(*n* × *m*) per request for *n* expected and *m* actual items.
    public static func query(_ items: [String: String?], exactly: Bool = false) -> RequestMatcher {
        query(
            items: items.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) },
            exactly: exactly
        )
    }

    /// Matches query items as a multiset, in any order; repeated names must all be present.
    ///
    /// `items: [a=1, a=2]` matches `?a=2&b=0&a=1` but not `?a=1`. Values compare as in
    /// ``query(_:exactly:)``; a `nil` value means "present, with any value". Specificity: 3 per item, plus 2
    /// when `exactly`. Configuration: `{"query": {"a": ["1", "2"]}}` for a repeated name.
    /// - Parameters:
    ///   - items: The items the query must hold, each matched by a different item of the request.
    ///   - exactly: Whether items other than these make the request miss.
    /// - Returns: The matcher.
    /// - Complexity: O(*n* × *m*) per request for *n* expected and *m* actual items (more when one name
    ///   repeats with overlapping values).
    public static func query(items: [URLQueryItem], exactly: Bool = false) -> RequestMatcher {
        let matching = QueryItemMatching(expected: items, isExact: exactly)
        let listed = items.map { item in item.value.map { "\(item.name)=\($0)" } ?? item.name }.joined(separator: "&")
        return RequestMatcher(
            description: exactly ? "query is exactly \(listed)" : "query has \(listed)",
            specificity: 3 * items.count + (exactly ? 2 : 0),
            configuration: queryConfiguration(items, exactly: exactly),
            evaluate: { request in
                guard let url = request.url else { return .missed("request had no URL") }
                return matching.evaluate(url)
            },
            distance: { request in
                guard let url = request.url else { return MatchDistance.missing }
                return matching.distance(url)
            }
        )
    }

    /// `{"query": {...}}`, one member per name (an array for a repeated name), plus `queryExactly`.
    private static func queryConfiguration(_ items: [URLQueryItem], exactly: Bool) -> JSONValue {
        var grouped: [String: [JSONValue]] = [:]
        for item in items {
            grouped[item.name, default: []].append(item.value.map(JSONValue.string) ?? .null)
        }
        let query = grouped.mapValues { values in values.count == 1 ? values[0] : .array(values) }
        var configuration: [String: JSONValue] = ["query": .object(query)]
        if exactly { configuration["queryExactly"] = true }
        return .object(configuration)
    }
}
