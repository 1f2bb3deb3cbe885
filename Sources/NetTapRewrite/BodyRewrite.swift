/// The body rules that apply to one response and what each did to it.
struct BodyRewrite: Sendable {
    /// What one rule did.
    enum Outcome: Sendable, Equatable {
        /// It changed this many places (occurrences, values).
        case changed(Int)
        /// It changed nothing, for this reason.
        case unchanged(String)
    }

    /// The rules, in order.
    let rules: [BodyReplacement]
    /// What each rule did so far, by position.
    private(set) var outcomes: [Outcome]
    /// The text rules' replacers, by rule position (streaming only).
    private var replacers: [Int: StreamingTextReplacer] = [:]

    /// Starts a rewrite with `rules`.
    init(rules: [BodyReplacement]) {
        self.rules = rules
        outcomes = Array(repeating: .unchanged("not found"), count: rules.count)
    }

    /// Applies every rule, in order, to a whole body.
    ///
    /// - Parameter body: The body.
    /// - Returns: The rewritten body.
    mutating func rewriteWhole(_ body: [UInt8]) -> [UInt8] {
        var current = body
        for (position, rule) in rules.enumerated() {
            switch rule.prepared {
            case .text(let needle, let replacement):
                var replacer = StreamingTextReplacer(needle: needle, replacement: replacement)
                current = replacer.replacingAll(in: current)
                outcomes[position] = replacer.count > 0 ? .changed(replacer.count) : .unchanged("not found")
            case .setJSON(let path, let value):
                record(JSONDocumentEdit.setting(value, at: path, in: current), at: position, into: &current)
            case .removeJSON(let path):
                record(JSONDocumentEdit.removing(at: path, in: current), at: position, into: &current)
            }
        }
        return current
    }

    private mutating func record(_ outcome: JSONDocumentEdit.Outcome, at position: Int, into body: inout [UInt8]) {
        switch outcome {
        case .edited(let bytes, let count):
            body = bytes
            outcomes[position] = .changed(count)
        case .notFound:
            outcomes[position] = .unchanged("no value there")
        case .notJSON:
            outcomes[position] = .unchanged("not JSON")
        }
    }

    /// Leaves the body alone: every rule changes nothing, for `reason`.
    mutating func skipAll(_ reason: String) {
        outcomes = Array(repeating: .unchanged(reason), count: rules.count)
    }

    /// Starts streaming: text rules replace as pieces pass, the others change nothing, for `reason`.
    ///
    /// - Parameter reason: Why the rules that need the whole body are skipped, such as `the body is over the
    ///   8388608-byte limit`.
    mutating func startStreaming(skipping reason: String) {
        for (position, rule) in rules.enumerated() {
            if case .text(let needle, let replacement) = rule.prepared {
                replacers[position] = StreamingTextReplacer(needle: needle, replacement: replacement)
            } else {
                outcomes[position] = .unchanged(reason)
            }
        }
    }

    /// Passes the next piece of a streamed body through the text rules.
    mutating func feed(_ piece: [UInt8]) -> [UInt8] {
        var current = piece
        for position in replacers.keys.sorted() {
            current = replacers[position]?.feed(current) ?? current
        }
        return current
    }

    /// Ends a streamed body: the bytes the text rules held back, replaced by the rules after them.
    mutating func finish() -> [UInt8] {
        var current: [UInt8] = []
        for position in replacers.keys.sorted() {
            guard var replacer = replacers[position] else { continue }
            current = replacer.feed(current) + replacer.finish()
            replacers[position] = replacer
            outcomes[position] = replacer.count > 0 ? .changed(replacer.count) : .unchanged("not found")
        }
        return current
    }

    /// Notes the text rules' counts so far (a stream that stopped early).
    mutating func noteStreamed() {
        for (position, replacer) in replacers where replacer.count > 0 {
            outcomes[position] = .changed(replacer.count)
        }
    }

    /// Whether any rule changed something.
    var changedAnything: Bool {
        outcomes.contains { if case .changed = $0 { true } else { false } }
    }

    /// `replace "a" with "b" ×3; set $.user.name ×1; remove $.ads: no value there`.
    var annotation: String {
        zip(rules, outcomes).map { rule, outcome in
            switch outcome {
            case .changed(let count): "\(rule.label) ×\(count)"
            case .unchanged(let reason): "\(rule.label): \(reason)"
            }
        }
        .joined(separator: "; ")
    }

    /// The labels of the rules that changed something.
    var changedLabels: [String] {
        zip(rules, outcomes).compactMap { rule, outcome in
            if case .changed = outcome { rule.label } else { nil }
        }
    }
}
