import Foundation

extension StringProtocol {
    /// Whether the two texts are equal ignoring case, as `caseInsensitiveCompare(_:) == .orderedSame` decides.
    ///
    /// ASCII texts (every header field name and method in practice) are compared byte by byte, folding only
    /// `A`–`Z`: Foundation's comparison goes through `NSString` and costs about a microsecond per call, several
    /// times per request. Anything else is left to Foundation's Unicode rules.
    package func caseInsensitivelyEquals<Other: StringProtocol>(_ other: Other) -> Bool {
        var mine = utf8.makeIterator()
        var theirs = other.utf8.makeIterator()
        while true {
            switch (mine.next(), theirs.next()) {
            case (nil, nil): return true
            case (let a?, let b?) where a < 0x80 && b < 0x80:
                if a == b || Self.asciiLowercased(a) == Self.asciiLowercased(b) { continue }
                return false
            case (let a?, let b?) where a >= 0x80 || b >= 0x80:
                return caseInsensitiveCompare(other) == .orderedSame
            default:
                // One text ended first: two ASCII texts then differ; with non-ASCII text Unicode folding may still
                // make them equal ("ß" and "SS").
                let isASCII = !utf8.contains { $0 >= 0x80 } && !other.utf8.contains { $0 >= 0x80 }
                return !isASCII && caseInsensitiveCompare(other) == .orderedSame
            }
        }
    }

    private static func asciiLowercased(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
    }
}
