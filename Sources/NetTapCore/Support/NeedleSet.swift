/// Byte strings ("needles") looked for together in one pass over a buffer, to tell whether any of them occurs.
///
/// The question redaction's prefilters ask before they parse a body or run a regular expression: a body in which
/// no secret field name, escape or token marker occurs needs neither. Each position of the buffer costs one bit
/// test in a table of the needles' first two bytes (65,536 bits); only where a needle may begin are bytes compared
/// further, so a body of one repeated letter, or text without any needle's opening pair, is read once at memory
/// speed whatever the needles are.
package struct NeedleSet: Sendable {
    /// Whether ASCII letters match in either case (needles are stored lowercased then).
    private let ignoresASCIICase: Bool
    /// Bit `first << 8 | second` set when a needle starts with those two bytes (every second byte for a
    /// needle of one byte).
    private let openingPairs: [UInt64]
    /// The needles, by their first byte.
    private let byFirstByte: [[[UInt8]]]
    /// Whether some needle is one byte long (it can also occur at a buffer's last byte).
    private let hasSingleByteNeedle: Bool

    /// Prepares needles for searching.
    ///
    /// - Parameters:
    ///   - needles: The byte strings; empty ones are ignored (they would occur everywhere).
    ///   - ignoringASCIICase: Whether `A`–`Z` and `a`–`z` match each other.
    package init(_ needles: some Sequence<[UInt8]>, ignoringASCIICase: Bool) {
        var pairs = [UInt64](repeating: 0, count: 1024)
        var table = [[[UInt8]]](repeating: [], count: 256)
        var hasSingle = false
        func mark(_ key: Int) { pairs[key >> 6] |= 1 << UInt64(key & 63) }
        for needle in Set(needles) where !needle.isEmpty {
            let folded = ignoringASCIICase ? needle.map(Self.lowercased) : needle
            table[Int(folded[0])].append(folded)
            if folded.count == 1 {
                hasSingle = true
                for second in 0..<256 { mark(Int(folded[0]) << 8 | second) }
            } else {
                mark(Int(folded[0]) << 8 | Int(folded[1]))
            }
        }
        self.ignoresASCIICase = ignoringASCIICase
        self.openingPairs = pairs
        self.byFirstByte = table
        self.hasSingleByteNeedle = hasSingle
    }

    /// Whether any needle occurs in `bytes`.
    ///
    /// - Complexity: O(n) with one table lookup per byte; needles are compared only where their first two bytes
    ///   are found.
    package func occurs(in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return false }
        let count = bytes.count
        let found = openingPairs.withUnsafeBufferPointer { pairs -> Bool in
            var first = fold(base[0])
            var index = 0
            while index + 1 < count {
                let second = fold(base[index + 1])
                let key = Int(first) << 8 | Int(second)
                if pairs[key >> 6] & (1 << UInt64(key & 63)) != 0, startsNeedle(at: index, in: bytes) { return true }
                first = second
                index += 1
            }
            return false
        }
        if found { return true }
        return hasSingleByteNeedle && byFirstByte[Int(fold(base[count - 1]))].contains { $0.count == 1 }
    }

    /// Whether a needle starts at `index` (its first two bytes are known to fit).
    private func startsNeedle(at index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for needle in byFirstByte[Int(fold(bytes[index]))] where index + needle.count <= bytes.count {
            var offset = 1
            while offset < needle.count, fold(bytes[index + offset]) == needle[offset] { offset += 1 }
            if offset == needle.count { return true }
        }
        return false
    }

    private func fold(_ byte: UInt8) -> UInt8 { ignoresASCIICase ? Self.lowercased(byte) : byte }

    private static func lowercased(_ byte: UInt8) -> UInt8 { byte &- 0x41 < 26 ? byte | 0x20 : byte }
}
