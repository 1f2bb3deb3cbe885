import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension RequestMatcher {
    /// Matches a header field by name (case-insensitive) and, optionally, exact value; specificity 3.
    ///
    /// The value is compared case-sensitively with the request's value for the name, as
    /// `URLRequest.value(forHTTPHeaderField:)` gives it (repeated fields joined with `,`).
    /// Configuration: `{"headers": {"Accept": "application/json"}}` (`null` for any value).
    /// - Parameters:
    ///   - name: The field name, for example `Accept` (RFC 9110 §5.1: case-insensitive).
    ///   - value: The exact value, or `nil` to require only that the field is present.
    /// - Returns: The matcher.
    public static func header(_ name: String, _ value: String? = nil) -> RequestMatcher {
        RequestMatcher(
            description: value.map { "header \(name) == \($0)" } ?? "header \(name) present",
            specificity: 3,
            configuration: ["headers": [name: value.map(JSONValue.string) ?? .null]],
            evaluate: { request in
                guard let actual = request.value(forHTTPHeaderField: name) else {
                    return .missed("request had no header \(MatchReason.quoted(name))")
                }
                guard let value, actual != value else { return .matched }
                return .missed(
                    "header \(MatchReason.quoted(name)) was \(MatchReason.quoted(actual)), "
                        + "expected \(MatchReason.quoted(value))"
                )
            },
            distance: { request in
                guard let actual = request.value(forHTTPHeaderField: name) else {
                    return MatchDistance.missing
                }
                return value.map { MatchDistance.text(actual, $0) } ?? 0
            }
        )
    }

    /// Matches a header field (name case-insensitive) whose value contains a substring; specificity 3.
    ///
    /// The search is case-sensitive. Configuration: `{"headerContains": {"User-Agent": "Mozilla"}}`.
    /// - Parameters:
    ///   - name: The field name.
    ///   - substring: The text the value must contain.
    /// - Returns: The matcher.
    public static func headerContains(_ name: String, _ substring: String) -> RequestMatcher {
        RequestMatcher(
            description: "header \(name) contains \(substring)",
            specificity: 3,
            configuration: ["headerContains": [name: .string(substring)]],
            evaluate: { request in
                guard let actual = request.value(forHTTPHeaderField: name) else {
                    return .missed("request had no header \(MatchReason.quoted(name))")
                }
                if actual.contains(substring) { return .matched }
                return .missed(
                    "header \(MatchReason.quoted(name)) was \(MatchReason.quoted(actual)), "
                        + "expected it to contain \(MatchReason.quoted(substring))"
                )
            },
            distance: { request in
                guard let actual = request.value(forHTTPHeaderField: name) else {
                    return MatchDistance.missing
                }
                return MatchDistance.containing(actual, substring)
            }
        )
    }
}
