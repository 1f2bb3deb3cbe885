/// The near-miss distances of matcher parts (``RequestMatcher/distance(to:)``): normalized edit distances on what
/// differs, weighted by part, as WireMock ranks its near misses.
///
/// A part that differs scores its Levenshtein distance divided by the longer text's length (0 equal … 1 nothing
/// alike), times its weight: ``locationWeight`` for the host, port, path and GraphQL operation name (which resource
/// a request is for), ``methodWeight`` for the method, scheme and GraphQL operation type, 1 for everything else
/// (each query item, header, form field, JSON member, a body). A part the request lacks scores its weight in full.
package enum MatchDistance {
    /// The weight of the parts that say which resource a request is for: host, port, path, GraphQL operation name.
    package static let locationWeight = 10.0
    /// The weight of the method, the scheme and the GraphQL operation type.
    package static let methodWeight = 3.0
    /// What a miss scores when its distance cannot be measured: a regular expression (times the path's weight), a
    /// negation that matched, a matcher made from a closure.
    package static let unmeasured = 1.0
    /// What a part the request lacks scores, before its weight.
    package static let missing = 1.0

    /// The most characters of each text the edit distance compares; the rest counts by its length difference,
    /// so a large body costs O(``comparedLength``²) at most.
    package static let comparedLength = 256

    /// The normalized Levenshtein distance (insertions, deletions and substitutions of Unicode scalars each count
    /// 1, divided by the longer length) between what the request had and what a part expects.
    ///
    /// Texts longer than ``comparedLength`` scalars are compared on their first ``comparedLength`` scalars, and
    /// the difference of their remaining lengths is added.
    /// - Parameters:
    ///   - actual: What the request had.
    ///   - expected: What the part expects.
    /// - Returns: 0 when equal, else more than 0 and at most 1.
    package static func text(_ actual: String, _ expected: String) -> Double {
        guard actual != expected else { return 0 }
        let lhs = Array(actual.unicodeScalars)
        let rhs = Array(expected.unicodeScalars)
        let left = lhs.prefix(comparedLength)
        let right = rhs.prefix(comparedLength)
        let rest = abs((lhs.count - left.count) - (rhs.count - right.count))
        let edits = Swift.max(1, levenshtein(Array(left), Array(right)) + rest)
        return Swift.min(1, Double(edits) / Double(Swift.max(1, lhs.count, rhs.count)))
    }

    /// How far a text is from containing `expected`: the smallest edit distance between `expected` and any part
    /// of `actual` (on their first ``comparedLength`` scalars), divided by the length of `expected`.
    ///
    /// - Parameters:
    ///   - actual: What the request had, for example a header's value.
    ///   - expected: The text it should contain.
    /// - Returns: 0 when `actual` contains `expected`, else more than 0 and at most 1.
    package static func containing(_ actual: String, _ expected: String) -> Double {
        if expected.isEmpty || actual.contains(expected) { return 0 }
        let haystack = Array(actual.unicodeScalars.prefix(comparedLength))
        let needle = Array(expected.unicodeScalars.prefix(comparedLength))
        // Sellers' algorithm: the match may start and end anywhere in the haystack.
        var previous = [Int](repeating: 0, count: haystack.count + 1)
        var current = previous
        for i in 1...needle.count {
            current[0] = i
            for j in stride(from: 1, through: haystack.count, by: 1) {
                let substitution = previous[j - 1] + (needle[i - 1] == haystack[j - 1] ? 0 : 1)
                current[j] = Swift.min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            swap(&previous, &current)
        }
        let edits = Swift.max(1, previous.min() ?? needle.count)
        return Swift.min(1, Double(edits) / Double(needle.count))
    }

    /// The plain Levenshtein distance of two scalar arrays, in two rows of memory.
    package static func levenshtein(_ lhs: [Unicode.Scalar], _ rhs: [Unicode.Scalar]) -> Int {
        if lhs.isEmpty { return rhs.count }
        if rhs.isEmpty { return lhs.count }
        var previous = Array(0...rhs.count)
        var current = [Int](repeating: 0, count: rhs.count + 1)
        for i in 1...lhs.count {
            current[0] = i
            for j in 1...rhs.count {
                let substitution = previous[j - 1] + (lhs[i - 1] == rhs[j - 1] ? 0 : 1)
                current[j] = Swift.min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            swap(&previous, &current)
        }
        return previous[rhs.count]
    }
}
