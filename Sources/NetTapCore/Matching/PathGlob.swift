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
}
