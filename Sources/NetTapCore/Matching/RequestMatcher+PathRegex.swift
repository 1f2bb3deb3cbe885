import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension RequestMatcher {
    /// Matches when a regular expression finds a match anywhere in the percent-decoded URL path.
    ///
    /// The search is not anchored: write `^` and `$` to match the whole path (`^/v[0-9]+/users$`). The
    /// path is percent-decoded and `/` when empty, as in ``path(_:)``. Specificity 8.
    /// Configuration: `{"pathRegex": "^/v[0-9]+/"}`.
    /// - Parameter pattern: An ICU regular expression, as `NSRegularExpression` reads it.
    /// - Returns: The matcher.
    /// - Throws: ``MatcherError`` of kind ``MatcherError/PatternKind/regularExpression`` naming the pattern
    ///   and what is wrong with it (with its character position when it can be found).
    /// - Complexity: That of the regular expression, per request.
    public static func pathRegex(_ pattern: String) throws -> RequestMatcher {
        let expression: NSRegularExpression
        do {
            expression = try NSRegularExpression(pattern: pattern)
        } catch {
            let diagnosis = RegularExpressionDiagnosis.diagnose(pattern)
            throw MatcherError(
                kind: .regularExpression,
                pattern: pattern,
                message: diagnosis.message,
                offset: diagnosis.offset
            )
        }
        let box = RegularExpressionBox(expression: expression)
        return RequestMatcher(
            description: "path ~ /\(pattern)/",
            specificity: 8,
            configuration: ["pathRegex": .string(pattern)],
            evaluate: { request in
                guard let url = request.url else { return .missed("request had no URL") }
                let path = Self.path(of: url)
                let range = NSRange(path.startIndex..., in: path)
                if box.expression.firstMatch(in: path, range: range) != nil { return .matched }
                return .missed("path was \"\(path)\", expected a match for /\(pattern)/")
            },
            distance: { request in
                guard let path = request.url.map(Self.path(of:)) else { return MatchDistance.locationWeight }
                let range = NSRange(path.startIndex..., in: path)
                let matched = box.expression.firstMatch(in: path, range: range) != nil
                return matched ? 0 : MatchDistance.locationWeight * MatchDistance.unmeasured
            }
        )
    }
}

/// Carries a compiled regular expression into `@Sendable` closures: `NSRegularExpression` is immutable
/// and documented as safe to use from several threads.
private struct RegularExpressionBox: @unchecked Sendable {
    let expression: NSRegularExpression
}
