/// Replaces every occurrence of one byte string with another in a body that arrives in pieces, left to right and
/// without overlaps (as `String.replacingOccurrences(of:with:)` does), holding back between pieces only the end of
/// a piece that begins an occurrence (at most `needle.count - 1` bytes): an occurrence split across two chunks is
/// still found, memory stays bounded whatever the body's size, and other bytes pass on at once.
struct StreamingTextReplacer: Sendable {
    /// The bytes searched for; not empty.
    let needle: [UInt8]
    /// What replaces them.
    let replacement: [UInt8]
    /// How many occurrences were replaced so far.
    private(set) var count = 0
    /// Bytes of the last piece that may begin an occurrence the next piece completes.
    private var pending: [UInt8] = []

    /// Creates a replacer.
    ///
    /// - Parameters:
    ///   - needle: The bytes to find; not empty.
    ///   - replacement: What replaces them.
    init(needle: [UInt8], replacement: [UInt8]) {
        self.needle = needle
        self.replacement = replacement
    }

    /// Takes the next piece of the body and returns what can be passed on.
    ///
    /// - Parameter piece: The bytes.
    /// - Returns: The bytes before any held back, with occurrences replaced.
    mutating func feed(_ piece: [UInt8]) -> [UInt8] {
        let buffer = pending.isEmpty ? piece : pending + piece
        var output: [UInt8] = []
        output.reserveCapacity(buffer.count)
        var cursor = 0
        while let found = Self.firstOccurrence(of: needle, in: buffer, from: cursor) {
            output += buffer[cursor..<found]
            output += replacement
            cursor = found + needle.count
            count += 1
        }
        let kept = Self.heldBack(of: needle, in: buffer, from: cursor)
        output += buffer[cursor..<(buffer.count - kept)]
        pending = Array(buffer[(buffer.count - kept)...])
        return output
    }

    /// Ends the body: returns the bytes held back.
    ///
    /// - Returns: The held-back bytes (too few to hold an occurrence).
    mutating func finish() -> [UInt8] {
        defer { pending = [] }
        return pending
    }

    /// Replaces in a whole body at once.
    ///
    /// - Parameter body: The body.
    /// - Returns: The body with every occurrence replaced.
    mutating func replacingAll(in body: [UInt8]) -> [UInt8] {
        feed(body) + finish()
    }

    /// How many bytes at the end of `bytes` (after `start`) begin `needle`: the longest such end, shorter than the
    /// needle (a whole occurrence would have been replaced).
    static func heldBack(of needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int {
        guard let first = needle.first else { return 0 }
        var position = max(start, bytes.count - (needle.count - 1))
        while position < bytes.count {
            if bytes[position] == first, bytes[position...].elementsEqual(needle.prefix(bytes.count - position)) {
                return bytes.count - position
            }
            position += 1
        }
        return 0
    }

    /// The first position at or after `start` where `needle` occurs whole in `bytes`.
    static func firstOccurrence(of needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard let first = needle.first, bytes.count - start >= needle.count else { return nil }
        var position = start
        let last = bytes.count - needle.count
        while position <= last {
            guard let candidate = bytes[position...last].firstIndex(of: first) else { return nil }
            if bytes[candidate..<(candidate + needle.count)].elementsEqual(needle) { return candidate }
            position = candidate + 1
        }
        return nil
    }
}
