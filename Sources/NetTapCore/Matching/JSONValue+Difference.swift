extension JSONValue {
    /// The first place where this value differs from `expected`, as a short reason such as
    /// `$.user.id was 41, expected 42`; `nil` when there is none.
    ///
    /// Object members are visited in name order, arrays element by element.
    /// - Parameters:
    ///   - expected: The wanted value.
    ///   - isSubset: `true` to allow extra object members at any depth (as ``contains(_:)`` does), `false`
    ///     for full equality (as `==` does: key order ignored, `1 == 1.0`).
    ///   - path: The JSON path of this value.
    /// - Returns: The reason, or `nil` when this value equals (or contains) `expected`.
    func firstDifference(from expected: JSONValue, isSubset: Bool, at path: String = JSONPath.root) -> String? {
        switch (self, expected) {
        case (.object(let actual), .object(let wanted)):
            for key in wanted.keys.sorted() {
                let memberPath = JSONPath.appending(key, to: path)
                guard let member = actual[key] else {
                    return "\(memberPath) was missing, expected \(Self.short(wanted[key]))"
                }
                if let wantedMember = wanted[key],
                    let difference = member.firstDifference(from: wantedMember, isSubset: isSubset, at: memberPath)
                {
                    return difference
                }
            }
            if !isSubset, let extra = actual.keys.sorted().first(where: { wanted[$0] == nil }) {
                return "\(path) had unexpected member \(MatchReason.quoted(extra))"
            }
            return nil
        case (.array(let actual), .array(let wanted)):
            guard actual.count == wanted.count else {
                return "\(path) had \(actual.count) elements, expected \(wanted.count)"
            }
            for (index, pair) in zip(actual, wanted).enumerated() {
                let elementPath = JSONPath.appending(index, to: path)
                if let difference = pair.0.firstDifference(from: pair.1, isSubset: isSubset, at: elementPath) {
                    return difference
                }
            }
            return nil
        default:
            return self == expected ? nil : "\(path) was \(Self.short(self)), expected \(Self.short(expected))"
        }
    }

    /// Compact JSON, cut to 40 characters.
    private static func short(_ value: JSONValue?) -> String {
        MatchReason.shortened(value?.description ?? "nothing", limit: 40)
    }

    /// How far this value is from equal to (or containing) `expected`, for ranking near misses: 0 when it is.
    ///
    /// A member or element that is missing, or extra where extras are not allowed, counts 1; scalars that differ
    /// count the normalized edit distance of their compact JSON.
    /// - Parameters:
    ///   - expected: The wanted value.
    ///   - isSubset: `true` to allow extra object members at any depth, as ``firstDifference(from:isSubset:at:)``.
    /// - Returns: The distance.
    func distance(from expected: JSONValue, isSubset: Bool) -> Double {
        switch (self, expected) {
        case (.object(let actual), .object(let wanted)):
            var total = 0.0
            for (key, wantedMember) in wanted {
                total +=
                    actual[key].map { $0.distance(from: wantedMember, isSubset: isSubset) }
                    ?? MatchDistance.missing
            }
            if !isSubset {
                total += Double(actual.keys.count { wanted[$0] == nil }) * MatchDistance.missing
            }
            return total
        case (.array(let actual), .array(let wanted)):
            var total = zip(actual, wanted).reduce(0.0) { $0 + $1.0.distance(from: $1.1, isSubset: isSubset) }
            total += Double(abs(actual.count - wanted.count)) * MatchDistance.missing
            return total
        default:
            return self == expected ? 0 : MatchDistance.text(description, expected.description)
        }
    }
}
