import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A test on a request that can say why it failed: the one selector every NetTap capability uses.
///
/// Stubs, scenario endpoints, shaping rules, file mounts, integrity rules and audit lists all pick requests
/// with matchers. A matcher is a predicate plus a human description, built from static factories and combined
/// with `&&`, `||` and `!`:
///
/// ```swift
/// let login = RequestMatcher.method("POST") && .host("api.example.com") && .path("/login")
/// login.explain(request)   // .missed("host was \"auth.example.com\", expected \"api.example.com\"")
/// ```
///
/// Every matcher has a ``specificity``: a score that grows with how narrowly it selects requests, used by
/// "most specific match wins" rules (an exact path beats a prefix, method + path beats path alone).
///
/// Thread safety: matchers are immutable values; evaluate them from any thread.
public struct RequestMatcher: Sendable, CustomStringConvertible {
    /// What the matcher tests, for example `host == "api.example.com"`.
    public let description: String
    /// How narrowly the matcher selects requests; higher is more specific.
    ///
    /// Scores of the built-in factories are documented on each; `&&` adds the scores of its parts, `||` takes
    /// the lowest, `!` scores 0.
    public let specificity: Int
    /// The matcher as NetTap configuration JSON, for writing it back to a file ("save as mock").
    ///
    /// Matchers made by the built-in factories, by `init(configuration:)` and by combining such matchers
    /// with `&&`, `||` and `!` have one, in the shape `init(configuration:)` reads, for example
    /// `{"method": "POST", "path": "/login"}`; `&&` merges both objects when their keys do not collide and
    /// writes `{"allOf": [...]}` otherwise, `||` writes `{"anyOf": [...]}`, `!` writes `{"not": ...}`.
    /// Matchers made from a closure have `nil` (and so does any combination containing one) unless the
    /// caller sets it.
    public var configuration: JSONValue?
    private let evaluate: @Sendable (URLRequest) -> MatchResult
    /// The near-miss distance of a request (``distance(to:)``), or `nil` for a matcher made from a closure.
    private let measure: (@Sendable (URLRequest) -> Double)?

    /// Creates a matcher from a predicate.
    ///
    /// - Parameters:
    ///   - description: What the matcher tests, shown in explanations.
    ///   - specificity: How narrowly it selects requests (see ``specificity``).
    ///   - evaluate: Returns ``MatchResult/matched`` or ``MatchResult/missed(_:)`` with a short reason that
    ///     names the value the request had, for example `method was GET`.
    public init(
        description: String,
        specificity: Int,
        evaluate: @escaping @Sendable (URLRequest) -> MatchResult
    ) {
        self.init(description: description, specificity: specificity, configuration: nil, evaluate: evaluate)
    }

    /// Creates a matcher from a predicate, with the configuration JSON that recreates it.
    ///
    /// - Parameters:
    ///   - description: What the matcher tests, shown in explanations.
    ///   - specificity: How narrowly it selects requests (see ``specificity``).
    ///   - configuration: The JSON that `init(configuration:)` turns back into an equal matcher, or `nil`.
    ///   - evaluate: Returns ``MatchResult/matched`` or ``MatchResult/missed(_:)`` with a short reason.
    public init(
        description: String,
        specificity: Int,
        configuration: JSONValue?,
        evaluate: @escaping @Sendable (URLRequest) -> MatchResult
    ) {
        self.init(
            description: description,
            specificity: specificity,
            configuration: configuration,
            evaluate: evaluate,
            distance: nil
        )
    }

    /// Creates a matcher from a predicate and a near-miss distance (the built-in factories' form).
    ///
    /// - Parameters:
    ///   - description: What the matcher tests.
    ///   - specificity: How narrowly it selects requests.
    ///   - configuration: The JSON that `init(configuration:)` turns back into an equal matcher, or `nil`.
    ///   - evaluate: Returns ``MatchResult/matched`` or ``MatchResult/missed(_:)`` with a short reason.
    ///   - distance: How far a request is from matching (0 when it matches; see ``distance(to:)``), or `nil` to
    ///     count a miss as ``MatchDistance/unmeasured``.
    package init(
        description: String,
        specificity: Int,
        configuration: JSONValue?,
        evaluate: @escaping @Sendable (URLRequest) -> MatchResult,
        distance: (@Sendable (URLRequest) -> Double)?
    ) {
        self.description = description
        self.specificity = specificity
        self.configuration = configuration
        self.evaluate = evaluate
        self.measure = distance
    }

    /// Tests a request.
    ///
    /// - Parameter request: The request, with its body in `httpBody` (NetTap resolves streamed and upload
    ///   bodies before handlers run).
    /// - Returns: Whether the request matches.
    public func matches(_ request: URLRequest) -> Bool {
        evaluate(request) == .matched
    }

    /// Tests a request and explains a miss.
    ///
    /// - Parameter request: The request.
    /// - Returns: ``MatchResult/matched``, or ``MatchResult/missed(_:)`` saying which part failed and what
    ///   the request had instead.
    public func explain(_ request: URLRequest) -> MatchResult {
        evaluate(request)
    }

    /// How far a request is from matching, to rank near misses: 0 when it matches.
    ///
    /// Each part that differs adds its normalized edit distance (Levenshtein divided by the longer length, on
    /// what the request had and what the part expects) times its weight (see ``MatchDistance``): the host, port,
    /// path and GraphQL operation name weigh 10, the method, scheme and operation type 3, each query item, header,
    /// form field, JSON member or body 1; a part the request lacks adds its full weight; equal parts add nothing.
    /// `&&` adds its parts' distances, `||` takes the smaller, `!` counts a match as ``MatchDistance/unmeasured``,
    /// and so does a miss of a part that cannot be measured (a matcher made from a closure; a regular expression
    /// counts it times the path's weight). The full rule is in the “Mocks and mock files” article.
    /// - Parameter request: The request.
    /// - Returns: A distance of 0 or more.
    package func distance(to request: URLRequest) -> Double {
        if let measure { return measure(request) }
        return evaluate(request) == .matched ? 0 : MatchDistance.unmeasured
    }

    /// A matcher that every request passes; specificity 0; configuration `{}`.
    public static var any: RequestMatcher {
        RequestMatcher(
            description: "any request",
            specificity: 0,
            configuration: [:],
            evaluate: { _ in .matched },
            distance: { _ in 0 }
        )
    }

    /// Both matchers must match; specificity is the sum of both.
    ///
    /// - Parameters:
    ///   - lhs: The first matcher, evaluated first.
    ///   - rhs: The second matcher, evaluated only when the first matched.
    /// - Returns: The combined matcher; a miss explains the first part that failed.
    public static func && (lhs: RequestMatcher, rhs: RequestMatcher) -> RequestMatcher {
        RequestMatcher(
            description: "\(lhs.grouped(for: "&&")) && \(rhs.grouped(for: "&&"))",
            specificity: lhs.specificity + rhs.specificity,
            configuration: MatcherConfiguration.allOf(lhs.configuration, rhs.configuration),
            evaluate: { request in
                let first = lhs.evaluate(request)
                guard first == .matched else { return first }
                return rhs.evaluate(request)
            },
            distance: { lhs.distance(to: $0) + rhs.distance(to: $0) }
        )
    }

    /// Either matcher must match; specificity is the lower of the two.
    ///
    /// - Parameters:
    ///   - lhs: The first alternative.
    ///   - rhs: The second alternative.
    /// - Returns: The combined matcher; a miss gives both reasons.
    public static func || (lhs: RequestMatcher, rhs: RequestMatcher) -> RequestMatcher {
        RequestMatcher(
            description: "\(lhs.grouped(for: "||")) || \(rhs.grouped(for: "||"))",
            specificity: Swift.min(lhs.specificity, rhs.specificity),
            configuration: MatcherConfiguration.anyOf(lhs.configuration, rhs.configuration),
            evaluate: { request in
                let first = lhs.evaluate(request)
                guard case .missed(let firstReason) = first else { return .matched }
                let second = rhs.evaluate(request)
                guard case .missed(let secondReason) = second else { return .matched }
                return .missed("\(firstReason); and \(secondReason)")
            },
            distance: { Swift.min(lhs.distance(to: $0), rhs.distance(to: $0)) }
        )
    }

    /// The matcher must not match; specificity 0.
    ///
    /// - Parameter matcher: The matcher to negate.
    /// - Returns: A matcher that misses exactly when `matcher` matches.
    public static prefix func ! (matcher: RequestMatcher) -> RequestMatcher {
        RequestMatcher(
            description: "!(\(matcher.description))",
            specificity: 0,
            configuration: matcher.configuration.map { ["not": $0] },
            evaluate: { request in
                switch matcher.evaluate(request) {
                case .matched: .missed("request matched \(matcher.description)")
                case .missed: .matched
                }
            },
            distance: { matcher.evaluate($0) == .matched ? MatchDistance.unmeasured : 0 }
        )
    }

    /// The description, parenthesized when it is a combination of another operator.
    private func grouped(for operator: String) -> String {
        let other = `operator` == "&&" ? " || " : " && "
        return description.contains(other) ? "(\(description))" : description
    }
}

/// The outcome of testing a request with a ``RequestMatcher``.
public enum MatchResult: Sendable, Equatable, CustomStringConvertible {
    /// The request matched.
    case matched
    /// The request did not match; the reason names what the request had, for example `method was GET`.
    case missed(String)

    /// `matched`, or the reason of the miss.
    public var description: String {
        switch self {
        case .matched: "matched"
        case .missed(let reason): reason
        }
    }
}
