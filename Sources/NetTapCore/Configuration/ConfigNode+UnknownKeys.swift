extension ConfigNode {
    /// Rejects object members whose names are not in `allowed`, so a typo is reported instead of ignored.
    ///
    /// The error names the first unknown member (in name order) by its path and suggests the allowed name
    /// it most likely meant, when exactly one is close (a small edit distance, or the same letters in
    /// another case):
    ///
    /// ```
    /// nettap.json: $.mocks.stubs[0].match.pathRgex: unknown key "pathRgex"; did you mean "pathRegex"?
    /// nettap.json: $.mocks.stubs[0].match.colour: unknown key "colour"; expected one of: host, method, path
    /// ```
    ///
    /// - Parameter allowed: The member names this object may have.
    /// - Throws: ``ConfigurationError`` when this value is not an object or has a member not in `allowed`.
    /// - Complexity: O(*n* × *m* × *k*²) for *n* members, *m* allowed names of length *k*; only reached when a
    ///   key is unknown.
    package func rejectUnknownKeys(allowed: Set<String>) throws {
        for key in try keys where !allowed.contains(key) {
            let place = descendant(value[key] ?? .null, at: JSONPath.appending(key, to: path))
            let hint =
                Self.suggestion(for: key, among: allowed).map { "did you mean \"\($0)\"?" }
                ?? "expected one of: \(allowed.sorted().joined(separator: ", "))"
            try recovering(()) { throw place.error("unknown key \"\(key)\"; \(hint)") }
        }
    }

    /// The one allowed name closest to `key`, when it is close enough to be a typo.
    package static func suggestion(for key: String, among allowed: Set<String>) -> String? {
        let lowered = key.lowercased()
        let sameLetters = allowed.filter { $0.lowercased() == lowered }
        if sameLetters.count == 1 { return sameLetters.first }
        let limit = Swift.max(1, Swift.min(3, key.count / 3))
        var best: (distance: Int, names: [String]) = (limit + 1, [])
        for name in allowed {
            let distance = editDistance(lowered, name.lowercased())
            if distance < best.distance {
                best = (distance, [name])
            } else if distance == best.distance {
                best.names.append(name)
            }
        }
        return best.names.count == 1 ? best.names.first : nil
    }

    /// The Damerau–Levenshtein (optimal string alignment) distance: insertions, deletions, substitutions
    /// and swaps of neighbouring characters each count 1.
    package static func editDistance(_ lhs: String, _ rhs: String) -> Int {
        let a = Array(lhs)
        let b = Array(rhs)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var distance = Swift.min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    distance = Swift.min(distance, table[i - 2][j - 2] + 1)
                }
                table[i][j] = distance
            }
        }
        return table[a.count][b.count]
    }
}
