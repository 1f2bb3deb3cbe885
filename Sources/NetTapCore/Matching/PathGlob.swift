import Foundation

/// A path pattern made of segments: `*` stands for exactly one segment, `**` for any number of segments
/// (zero included), anything else is a literal segment.
///
/// Paths and patterns are split at `/`; empty segments (from `//` or a trailing `/`) are ignored, so
/// `/users/1/posts/` matches `/users/*/posts`. Request path segments are percent-decoded one by one, so an
/// encoded `/` (`%2F`) stays inside its segment; literal pattern segments are percent-decoded too.
struct PathGlob: Sendable {
    /// One segment of the pattern.
    enum Segment: Sendable, Equatable {
        /// A segment that must be equal (case-sensitive, percent-decoded).
        case literal(String)
        /// `*`: exactly one segment.
        case one
        /// `**`: any number of segments, zero included.
        case any
    }

    /// The pattern as written.
    let pattern: String
    /// The pattern's segments.
    let segments: [Segment]

    /// Parses a pattern such as `/users/*/posts`.
    init(_ pattern: String) {
        self.pattern = pattern
        self.segments = pattern.split(separator: "/").map { part in
            switch part {
            case "*": .one
            case "**": .any
            default: .literal(part.removingPercentEncoding ?? String(part))
            }
        }
    }

    /// The number of literal segments.
    var literalCount: Int {
        segments.count { if case .literal = $0 { true } else { false } }
    }

    /// Whether a path has a segment that is exactly `*` or `**`, which a pattern reads as a wildcard.
    static func hasWildcardSegment(_ path: String) -> Bool {
        path.split(separator: "/").contains { $0 == "*" || $0 == "**" }
    }

    /// The percent-decoded, non-empty segments of a URL's path.
    static func segments(of url: URL) -> [String] {
        let encoded = URLComponents(url: url, resolvingAgainstBaseURL: true)?.percentEncodedPath ?? url.path
        return encoded.split(separator: "/").map { $0.removingPercentEncoding ?? String($0) }
    }

    /// Whether path segments match the pattern.
    ///
    /// - Complexity: O(*p* × *s*) for *p* pattern and *s* path segments.
    func matches(_ path: [String]) -> Bool {
        // reachable[j]: the pattern's first i segments can match the path's first j segments.
        var reachable = [Bool](repeating: false, count: path.count + 1)
        reachable[0] = true
        for segment in segments {
            var next = [Bool](repeating: false, count: path.count + 1)
            for j in 0...path.count {
                switch segment {
                case .any:
                    next[j] = reachable[j] || (j > 0 && next[j - 1])
                case .one:
                    next[j] = j > 0 && reachable[j - 1]
                case .literal(let literal):
                    next[j] = j > 0 && reachable[j - 1] && path[j - 1] == literal
                }
            }
            reachable = next
        }
        return reachable[path.count]
    }

    /// How far path segments are from matching the pattern: an edit distance over segments, normalized.
    ///
    /// A literal segment against another segment costs their edit distance, a literal segment the path lacks its
    /// length plus 1 (its `/`), a segment the pattern has no place for its length plus 1; `*` takes any one segment
    /// for nothing (1 when the path lacks it), `**` any number. The cost is divided by the longer of the path and
    /// the pattern's literal text.
    /// - Parameter path: The request path's segments.
    /// - Returns: 0 when the path matches, else more than 0 and at most 1.
    /// - Complexity: O(*p* × *s*) edit distances for *p* pattern and *s* path segments.
    func distance(to path: [String]) -> Double {
        // costs[j]: the cheapest way the pattern's first i segments match the path's first j segments.
        var costs = [0]
        for segment in path { costs.append(costs[costs.count - 1] + segment.count + 1) }
        for segment in segments {
            var next = [Int](repeating: 0, count: path.count + 1)
            for j in 0...path.count {
                if case .any = segment {
                    next[j] = j > 0 ? Swift.min(costs[j], next[j - 1]) : costs[j]
                    continue
                }
                let (unmatched, replacing): (Int, (String) -> Int) =
                    switch segment {
                    case .literal(let literal): (literal.count + 1, { Self.edits($0, literal) })
                    default: (1, { _ in 0 })
                    }
                var best = costs[j] + unmatched
                if j > 0 {
                    best = Swift.min(best, costs[j - 1] + replacing(path[j - 1]), next[j - 1] + path[j - 1].count + 1)
                }
                next[j] = best
            }
            costs = next
        }
        let length = Swift.max(path.reduce(0) { $0 + $1.count + 1 }, pattern.count, 1)
        return Swift.min(1, Double(Swift.max(costs[path.count], 1)) / Double(length))
    }

    /// The Levenshtein distance of two segments.
    private static func edits(_ lhs: String, _ rhs: String) -> Int {
        lhs == rhs ? 0 : MatchDistance.levenshtein(Array(lhs.unicodeScalars), Array(rhs.unicodeScalars))
    }
}
