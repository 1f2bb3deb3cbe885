/// Where a JSON value sits in a document's bytes, with the values inside it: what a JSON value rewrite needs to
/// change one value and leave every other byte as the server wrote it.
indirect enum JSONSpan: Sendable {
    /// A string, number, `true`, `false` or `null`.
    case scalar(Range<Int>)
    /// An object: its bytes from `{` to `}` and its members in order.
    case object(Range<Int>, [Member])
    /// An array: its bytes from `[` to `]` and its elements in order.
    case array(Range<Int>, [JSONSpan])

    /// One member of an object.
    struct Member: Sendable {
        /// The decoded name.
        let name: String
        /// The offset of the name's opening quote.
        let start: Int
        /// The member's value.
        let value: JSONSpan
    }

    /// The value's bytes.
    var range: Range<Int> {
        switch self {
        case .scalar(let range), .object(let range, _), .array(let range, _): range
        }
    }

    /// The values inside, each with where it starts (for a member, its name) and where it ends.
    var children: [(start: Int, end: Int, value: JSONSpan)] {
        switch self {
        case .scalar: []
        case .object(_, let members): members.map { ($0.start, $0.value.range.upperBound, $0.value) }
        case .array(_, let elements): elements.map { ($0.range.lowerBound, $0.range.upperBound, $0) }
        }
    }
}
