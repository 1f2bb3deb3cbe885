import Foundation

/// A ``Redactor``'s rules or exceptions arranged for lookup: exact names in a set per target, the other
/// patterns in a list per target, and the fixed texts a secret body field name must contain.
///
/// Built once when a redactor's ``Redactor/rules`` or ``Redactor/exceptions`` are set. Deciding whether a name
/// is secret then costs one set lookup and a match of each wildcard or regex pattern of that target, instead of
/// a match against every rule (the default rules are 80: 4 headers, and 23 names for query items and body fields
/// each, are exact).
final class RedactionRuleIndex: Sendable {
    /// Lowercased exact names, by target.
    private let exactNames: [RedactionRule.Target: Set<String>]
    /// Wildcard and regex patterns, by target.
    private let patterns: [RedactionRule.Target: [RedactionPattern]]
    /// Whether there are no rules at all.
    let isEmpty: Bool
    /// What a form body must contain for a body field rule to apply: the rules' fixed texts
    /// (``RedactionPattern/requiredText``, ignoring ASCII case) or a `%` (an escape could spell a name
    /// differently); `nil` when a body field rule has no fixed ASCII text (a regex, a wildcard of only `*`), so
    /// any body may hold a secret field.
    let formBodyPrefilter: NeedleSet?
    /// The same for a JSON body, whose escape is `\u`.
    let jsonBodyPrefilter: NeedleSet?
    /// Whether a body field rule exists at all.
    let hasBodyFieldRules: Bool

    /// Indexes rules.
    ///
    /// - Parameter rules: The rules (or exceptions) of a redactor.
    init(_ rules: [RedactionRule]) {
        var exactNames: [RedactionRule.Target: Set<String>] = [:]
        var patterns: [RedactionRule.Target: [RedactionPattern]] = [:]
        var needles: Set<[UInt8]> = []
        var needlesKnown = true
        for rule in rules {
            if rule.pattern.kind == .exact {
                exactNames[rule.target, default: []].insert(rule.pattern.source.lowercased())
            } else {
                patterns[rule.target, default: []].append(rule.pattern)
            }
            if rule.target == .bodyField {
                if let text = rule.pattern.requiredText, text.utf8.allSatisfy({ $0 < 0x80 }) {
                    needles.insert(Array(text.utf8))
                } else {
                    needlesKnown = false
                }
            }
        }
        self.exactNames = exactNames
        self.patterns = patterns
        self.isEmpty = rules.isEmpty
        self.hasBodyFieldRules = rules.contains { $0.target == .bodyField }
        if needlesKnown {
            self.formBodyPrefilter = NeedleSet(needles + [Array("%".utf8)], ignoringASCIICase: true)
            self.jsonBodyPrefilter = NeedleSet(needles + [Array(#"\u"#.utf8)], ignoringASCIICase: true)
        } else {
            self.formBodyPrefilter = nil
            self.jsonBodyPrefilter = nil
        }
    }

    /// Whether a rule of `target` matches the name.
    ///
    /// - Parameters:
    ///   - name: The name as written (a regex sees it so, with case ignored).
    ///   - lowercased: `name.lowercased()`.
    ///   - target: Where the name appears.
    /// - Returns: `true` when an exact name equals it or a pattern matches it.
    func matches(_ name: String, lowercased: String, at target: RedactionRule.Target) -> Bool {
        if exactNames[target]?.contains(lowercased) == true { return true }
        guard let patterns = patterns[target] else { return false }
        return patterns.contains { $0.matches(name, lowercased: lowercased) }
    }
}
