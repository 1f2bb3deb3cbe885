/// Byte strings found as they are, the longest first, in one pass whatever they share: a trie of their bytes.
///
/// What ``EchoPattern`` uses for text without escapes, where a copy of a secret can only be spelled as is. Secrets
/// of one capture often share a long prefix (session cookies of one server, `GA1.2.`): trying each secret at each
/// place costs the number of secrets, the trie the length of the longest match.
struct LiteralTrie {
    /// Per node, its children by byte (node 0 is the root).
    private var children: [[UInt8: Int32]] = [[:]]
    /// Per node, whether a string ends there.
    private var ends: [Bool] = [false]

    /// A trie of `strings`; empty strings are ignored.
    init(_ strings: some Sequence<[UInt8]>) {
        for bytes in strings where !bytes.isEmpty {
            var node = 0
            for byte in bytes {
                if let next = children[node][byte] {
                    node = Int(next)
                } else {
                    children.append([:])
                    ends.append(false)
                    children[node][byte] = Int32(children.count - 1)
                    node = children.count - 1
                }
            }
            ends[node] = true
        }
    }

    /// Where the longest string that starts at `start` of `bytes` ends, or `nil` when none does.
    ///
    /// - Complexity: O(length of the longest string sharing a prefix with the text at `start`).
    func longestMatchEnd(in bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Int? {
        var node = 0
        var position = start
        var end: Int?
        while position < bytes.count, let next = children[node][bytes[position]] {
            node = Int(next)
            position += 1
            if ends[node] { end = position }
        }
        return end
    }

    /// Whether any of the strings occurs in `bytes`.
    func occurs(in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let root = children[0]
        for start in bytes.indices where root[bytes[start]] != nil {
            if longestMatchEnd(in: bytes, at: start) != nil { return true }
        }
        return false
    }
}
