/// Changes the values at a JSON path in a document's bytes and leaves every other byte as it was: white space, key
/// order, number spelling and escapes outside the changed values stay the server's.
enum JSONDocumentEdit {
    /// What an edit did.
    enum Outcome: Equatable {
        /// The document changed: its new bytes and how many values were set, added or removed.
        case edited([UInt8], count: Int)
        /// No value is at the path (nothing changed).
        case notFound
        /// The bytes are not one JSON document (or nest deeper than `JSONSpanScanner.depthLimit`).
        case notJSON
    }

    /// Sets the values at `path` to `value`; a missing member named by the path's last step is added to its object.
    ///
    /// - Parameters:
    ///   - value: The new value's JSON text.
    ///   - path: Where.
    ///   - document: The document.
    /// - Returns: The outcome.
    static func setting(_ value: [UInt8], at path: JSONValuePath, in document: [UInt8]) -> Outcome {
        guard let root = JSONSpanScanner.scan(document) else { return .notJSON }
        guard case .member(let name)? = path.steps.last else {
            let targets = resolve(path.steps[...], from: root)
            return apply(targets.map { ($0.range, value) }, to: document)
        }
        var edits: [(Range<Int>, [UInt8])] = []
        for parent in resolve(path.steps.dropLast(), from: root) {
            guard case .object(let range, let members) = parent else { continue }
            let named = members.filter { $0.name == name }
            if named.isEmpty {
                let at = members.last?.value.range.upperBound ?? range.upperBound - 1
                let member = JSONStringLiteral.encoded(name) + Array(":".utf8) + value
                edits.append((at..<at, (members.isEmpty ? [] : Array(",".utf8)) + member))
            } else {
                edits += named.map { ($0.value.range, value) }
            }
        }
        return apply(edits, to: document)
    }

    /// Removes the values at `path` with their member names and the commas that separated them.
    ///
    /// - Parameters:
    ///   - path: Where; at least one step (the document itself cannot be removed).
    ///   - document: The document.
    /// - Returns: The outcome.
    static func removing(at path: JSONValuePath, in document: [UInt8]) -> Outcome {
        guard let root = JSONSpanScanner.scan(document) else { return .notJSON }
        guard let last = path.steps.last else { return .notFound }
        var edits: [(Range<Int>, [UInt8])] = []
        var count = 0
        for parent in resolve(path.steps.dropLast(), from: root) {
            let children = parent.children
            let removed = positions(of: last, in: parent)
            count += removed.count
            edits += removalRanges(of: removed, among: children).map { ($0, []) }
        }
        guard count > 0 else { return .notFound }
        guard case .edited(let bytes, _) = apply(edits, to: document) else { return .notFound }
        return .edited(bytes, count: count)
    }

    /// The values the steps lead to from `span`, in document order.
    static func resolve(_ steps: ArraySlice<JSONValuePath.Step>, from span: JSONSpan) -> [JSONSpan] {
        guard let step = steps.first else { return [span] }
        let children = span.children
        return positions(of: step, in: span).flatMap { resolve(steps.dropFirst(), from: children[$0].value) }
    }

    /// The positions among `span`'s children that `step` selects, ascending.
    private static func positions(of step: JSONValuePath.Step, in span: JSONSpan) -> [Int] {
        switch (step, span) {
        case (.wildcard, _):
            return Array(span.children.indices)
        case (.member(let name), .object(_, let members)):
            return members.indices.filter { members[$0].name == name }
        case (.index(let index), .array(_, let elements)):
            let position = index < 0 ? elements.count + index : index
            return elements.indices.contains(position) ? [position] : []
        default:
            return []
        }
    }

    /// The byte ranges that remove the children at `removed` (ascending) with their separating commas.
    ///
    /// Each run of neighbours goes with the comma after it, or, for a run at the end, the comma before it; a run of
    /// every child empties the container.
    private static func removalRanges(
        of removed: [Int],
        among children: [(start: Int, end: Int, value: JSONSpan)]
    ) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var runStart = 0
        while runStart < removed.count {
            var runEnd = runStart
            while runEnd + 1 < removed.count, removed[runEnd + 1] == removed[runEnd] + 1 { runEnd += 1 }
            let first = removed[runStart]
            let last = removed[runEnd]
            if last + 1 < children.count {
                ranges.append(children[first].start..<children[last + 1].start)
            } else if first > 0 {
                ranges.append(children[first - 1].end..<children[last].end)
            } else {
                ranges.append(children[first].start..<children[last].end)
            }
            runStart = runEnd + 1
        }
        return ranges
    }

    /// The document with each range replaced by its bytes; the ranges do not overlap.
    private static func apply(_ edits: [(Range<Int>, [UInt8])], to document: [UInt8]) -> Outcome {
        guard !edits.isEmpty else { return .notFound }
        var result = document
        for (range, bytes) in edits.sorted(by: { $0.0.lowerBound > $1.0.lowerBound }) {
            result.replaceSubrange(range, with: bytes)
        }
        return .edited(result, count: edits.count)
    }
}
