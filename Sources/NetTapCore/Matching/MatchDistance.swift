/// The near-miss distances of matcher parts (``RequestMatcher/distance(to:)``): edit distances on what differs.
package enum MatchDistance {
    /// What a miss counts when its distance cannot be measured: a regular expression, a negation that matched,
    /// a matcher made from a closure.
    package static let unmeasured = 8

    /// The most characters of each text the edit distance compares; the rest counts by its length difference,
    /// so a large body costs O(``comparedLength``²) at most.
    package static let comparedLength = 256

    /// The Levenshtein distance (insertions, deletions and substitutions of Unicode scalars each count 1)
    /// between what the request had and what a part expects; 0 when equal.
    ///
    /// Texts longer than ``comparedLength`` scalars are compared on their first ``comparedLength`` scalars, and
    /// the difference of their remaining lengths is added.
    /// - Parameters:
    ///   - actual: What the request had.
    ///   - expected: What the part expects.
    /// - Returns: The distance, at least 1 when the texts differ.
    package static func text(_ actual: String, _ expected: String) -> Int {
        guard actual != expected else { return 0 }
        let lhs = Array(actual.unicodeScalars)
        let rhs = Array(expected.unicodeScalars)
        let left = lhs.prefix(comparedLength)
        let right = rhs.prefix(comparedLength)
        let rest = abs((lhs.count - left.count) - (rhs.count - right.count))
        return Swift.max(1, levenshtein(Array(left), Array(right)) + rest)
    }

    /// What a part the request lacks costs: the length of what it expects, at least 1.
    ///
    /// - Parameter expected: What the part expects, for example a header's name and value.
    /// - Returns: The distance.
    package static func missing(_ expected: String) -> Int {
        Swift.max(1, expected.unicodeScalars.count)
    }

    /// How far a text is from containing `expected`: the smallest edit distance between `expected` and any part
    /// of `actual` (0 when it contains it), on their first ``comparedLength`` scalars.
    ///
    /// - Parameters:
    ///   - actual: What the request had, for example a header's value.
    ///   - expected: The text it should contain.
    /// - Returns: The distance, at least 1 when `actual` does not contain `expected`.
    package static func containing(_ actual: String, _ expected: String) -> Int {
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
        return Swift.max(1, previous.min() ?? needle.count)
    }

    /// The plain Levenshtein distance of two scalar arrays, in two rows of memory.
    private static func levenshtein(_ lhs: [Unicode.Scalar], _ rhs: [Unicode.Scalar]) -> Int {
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
