import Foundation

/// A small, fast random number generator with a seed (SplitMix64), so shaped runs repeat exactly.
///
/// The algorithm is Sebastiano Vigna's SplitMix64 (the seeding generator of the xoshiro family, public
/// domain): the state advances by `0x9E3779B97F4A7C15` and is mixed by two xor-shift-multiply rounds.
/// Not for cryptography.
///
/// ```swift
/// let handler = ShapingHandler(shaper: shaper, random: SeededRandom(seed: 42))
/// ```
public struct SeededRandom: RandomNumberGenerator, Sendable, Hashable {
    private var state: UInt64

    /// Creates a generator whose sequence is fixed by `seed`.
    ///
    /// - Parameter seed: Any 64-bit value; equal seeds give equal sequences.
    public init(seed: UInt64) {
        self.state = seed
    }

    /// The next 64 random bits.
    ///
    /// - Returns: A value spread uniformly over `UInt64`.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}
