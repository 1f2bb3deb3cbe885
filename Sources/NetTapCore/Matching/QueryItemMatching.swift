import Foundation

/// Matches expected query items against a request's query as a multiset, in any order.
struct QueryItemMatching: Sendable {
    /// One item of the request's query, with the values it can stand for.
    struct ActualItem {
        /// The item as written in the URL, for reasons, for example `page=2`.
        var text: String
        /// The percent-decoded name.
        var name: String
        /// The percent-decoded value, and the value with `+` read as a space (HTML forms); `nil` for an item
        /// without `=`.
        var values: [String]?
    }

    /// The expected items, in the order given.
    let expected: [URLQueryItem]
    /// Whether the query may hold no other items.
    let isExact: Bool

    /// The request's query items.
    static func actualItems(of url: URL) -> [ActualItem] {
        guard let query = URLComponents(url: url, resolvingAgainstBaseURL: true)?.percentEncodedQuery,
            !query.isEmpty
        else { return [] }
        return query.split(separator: "&", omittingEmptySubsequences: true).map { part in
            let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = Self.decoded(pieces[0]).first ?? String(pieces[0])
            return ActualItem(text: String(part), name: name, values: pieces.count > 1 ? decoded(pieces[1]) : nil)
        }
    }

    /// The percent-decoded text, then the text with `+` as a space, when different.
    private static func decoded(_ text: Substring) -> [String] {
        let plain = text.removingPercentEncoding ?? String(text)
        let form = text.replacingOccurrences(of: "+", with: "%20").removingPercentEncoding ?? plain
        return plain == form ? [plain] : [plain, form]
    }

    /// Tests the request's query; the reason names the first expected item that is missing or different,
    /// or the first extra item of an exact match.
    func evaluate(_ url: URL) -> MatchResult {
        let actual = Self.actualItems(of: url)
        var used = [Bool](repeating: false, count: actual.count)
        var names: [String] = []
        for item in expected where !names.contains(item.name) { names.append(item.name) }
        for name in names {
            let wanted = expected.filter { $0.name == name }.map(\.value)
            let candidates = actual.indices.filter { actual[$0].name == name }
            guard !candidates.isEmpty else {
                let had = actual.isEmpty ? "the request had no query" : "query was \"\(Self.text(of: actual))\""
                return .missed("query had no \(MatchReason.quoted(name)), \(had)")
            }
            // Specific values first, so a `nil` (any value) takes what is left.
            let ordered = wanted.filter { $0 != nil } + wanted.filter { $0 == nil }
            guard let assignment = Self.assign(ordered, to: candidates, in: actual) else {
                let had = candidates.map { Self.value(of: actual[$0]) }.joined(separator: ", ")
                let expectedValues = wanted.map { $0.map(MatchReason.quoted) ?? "any value" }
                return .missed(
                    "query \(MatchReason.quoted(name)) was \(had), expected \(expectedValues.joined(separator: ", "))"
                )
            }
            for index in assignment { used[index] = true }
        }
        if isExact, let extra = actual.indices.first(where: { !used[$0] }) {
            return .missed("query had unexpected \(MatchReason.quoted(actual[extra].text))")
        }
        return .matched
    }

    /// How far the request's query is from matching: 0 when it matches; an expected item the query lacks counts
    /// 1, one whose value differs the normalized edit distance to the closest value of its name, and under an
    /// exact match each item of a name not expected counts 1.
    func distance(_ url: URL) -> Double {
        if evaluate(url) == .matched { return 0 }
        let actual = Self.actualItems(of: url)
        var total = 0.0
        for item in expected {
            let values = actual.filter { $0.name == item.name }.flatMap { $0.values ?? [""] }
            if actual.contains(where: { $0.name == item.name }), item.value == nil { continue }
            total +=
                values.map { MatchDistance.text($0, item.value ?? "") }.min() ?? MatchDistance.missing
        }
        if isExact {
            for item in actual where !expected.contains(where: { $0.name == item.name }) {
                total += MatchDistance.missing
            }
        }
        return total > 0 ? total : MatchDistance.unmeasured
    }

    /// Pairs each expected value with a distinct actual item, or `nil` when no pairing exists.
    private static func assign(_ wanted: [String?], to candidates: [Int], in actual: [ActualItem]) -> [Int]? {
        guard let value = wanted.first else { return [] }
        for index in candidates where accepts(value, actual[index]) {
            let remaining = candidates.filter { $0 != index }
            if let rest = assign(Array(wanted.dropFirst()), to: remaining, in: actual) { return [index] + rest }
        }
        return nil
    }

    /// Whether an actual item stands for the expected value (`nil`: present with any value).
    private static func accepts(_ value: String?, _ item: ActualItem) -> Bool {
        guard let value else { return true }
        return item.values?.contains(value) ?? false
    }

    /// A quoted value for reasons, or `no value` for an item without `=`.
    private static func value(of item: ActualItem) -> String {
        item.values?.first.map(MatchReason.quoted) ?? "no value"
    }

    /// The query as written, shortened.
    private static func text(of items: [ActualItem]) -> String {
        MatchReason.shortened(items.map(\.text).joined(separator: "&"))
    }
}
