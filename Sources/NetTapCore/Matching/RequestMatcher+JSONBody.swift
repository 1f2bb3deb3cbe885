import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension RequestMatcher {
    /// Matches a JSON body equal to `value`: object key order is ignored and `1` equals `1.0`; specificity 6.
    ///
    /// A miss names the first differing JSON path (`$.user.id was 41, expected 42`), or says
    /// `body is not JSON: …`. Configuration: `{"json": …}`.
    /// - Parameter value: The JSON the body must hold (RFC 8259).
    /// - Returns: The matcher.
    /// - Complexity: O(*n*) per request in the body size (the body is parsed for each test).
    public static func jsonBody(_ value: JSONValue) -> RequestMatcher {
        RequestMatcher(
            description: "JSON body == \(MatchReason.shortened(value.description))",
            specificity: 6,
            configuration: ["json": value],
            evaluate: { Self.compareJSONBody(of: $0, with: value, isSubset: false) },
            distance: { Self.jsonBodyDistance(of: $0, from: value, isSubset: false) }
        )
    }

    /// Matches a JSON body that contains `value`: every member of `value` must be present, at any depth,
    /// with an equal value (see ``JSONValue/contains(_:)``); specificity 4.
    ///
    /// `["user": ["id": 42]]` matches `{"user":{"id":42,"name":"a"},"ok":true}`. Arrays must have the same
    /// length, each element containing the expected one. Configuration: `{"jsonContains": …}`.
    /// - Parameter value: The partial JSON to look for.
    /// - Returns: The matcher.
    /// - Complexity: O(*n*) per request in the body size.
    public static func jsonBodyContains(_ value: JSONValue) -> RequestMatcher {
        RequestMatcher(
            description: "JSON body contains \(MatchReason.shortened(value.description))",
            specificity: 4,
            configuration: ["jsonContains": value],
            evaluate: { Self.compareJSONBody(of: $0, with: value, isSubset: true) },
            distance: { Self.jsonBodyDistance(of: $0, from: value, isSubset: true) }
        )
    }

    /// The near-miss distance of a JSON body (``JSONValue/distance(from:isSubset:)``); a body that is not JSON
    /// lacks all of `value`.
    private static func jsonBodyDistance(of request: URLRequest, from value: JSONValue, isSubset: Bool) -> Double {
        guard let data = request.httpBody, !data.isEmpty,
            let actual = try? JSONValue(data: JSONSyntaxDiagnosis.strippingByteOrderMark(data))
        else { return MatchDistance.missing }
        return actual.distance(from: value, isSubset: isSubset)
    }

    /// Parses the body and names the first difference.
    private static func compareJSONBody(of request: URLRequest, with value: JSONValue, isSubset: Bool) -> MatchResult {
        guard let data = request.httpBody, !data.isEmpty else { return .missed("request had no body, expected JSON") }
        let json = JSONSyntaxDiagnosis.strippingByteOrderMark(data)
        let actual: JSONValue
        do {
            actual = try JSONValue(data: json)
        } catch {
            guard let diagnosis = JSONSyntaxDiagnosis.diagnose(json) else {
                return .missed("body is not JSON: the body is not UTF-8 JSON")
            }
            let place = diagnosis.line.map { line in " at line \(line), column \(diagnosis.column ?? 1)" } ?? ""
            return .missed("body is not JSON\(place): \(diagnosis.message)")
        }
        return actual.firstDifference(from: value, isSubset: isSubset).map(MatchResult.missed) ?? .matched
    }
}
