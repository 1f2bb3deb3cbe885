import Foundation

/// The seeded generator behind `{{randomId}}`: SplitMix64, so a seed gives the same ids in the same order on every
/// platform.
///
/// Not thread-safe by itself: a ``MockSet`` keeps it under its lock.
struct TemplateRandom: Sendable {
    private var state: UInt64

    /// Creates a generator.
    ///
    /// - Parameter seed: The seed; the same seed gives the same ids.
    init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// A random version-4 UUID, lowercase: `1b4e28ba-2fa1-4d2e-883f-0016d3cca427`.
    mutating func uuid() -> String {
        var high = next()
        var low = next()
        high = (high & ~0xF000) | 0x4000  // version 4 in bits 12…15 of the third group
        low = (low & ~(0xC000 << 48)) | (0x8000 << 48)  // variant 10 in the fourth group
        var bytes = [UInt8](repeating: UInt8(ascii: "-"), count: 36)
        var position = 0
        for word in [high, low] {
            for shift in stride(from: 60, through: 0, by: -4) {
                if [8, 13, 18, 23].contains(position) { position += 1 }
                bytes[position] = Self.hexDigits[Int((word >> UInt64(shift)) & 0xF)]
                position += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
