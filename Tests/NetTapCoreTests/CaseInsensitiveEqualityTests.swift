import Foundation
import Testing

@testable import NetTapCore

@Suite("Case-insensitive equality of field names (ASCII fast path, Foundation's rules otherwise)")
struct CaseInsensitiveEqualityTests {
    @Test(
        "agrees with caseInsensitiveCompare",
        arguments: [
            ("Content-Type", "content-type"), ("SET-COOKIE", "set-cookie"), ("Accept", "Accept-Encoding"),
            ("", ""), ("a", ""), ("HEAD", "head"), ("HEAD", "HEAd "), ("[", "{"), ("@", "`"), ("Z", "z"),
            ("Straße", "STRASSE"), ("É", "é"), ("x-naïve", "X-NAÏVE"), ("ß", "ss"), ("k", "\u{212A}"),
        ]
    )
    func agrees(_ pair: (String, String)) {
        let expected = pair.0.caseInsensitiveCompare(pair.1) == .orderedSame
        #expect(pair.0.caseInsensitivelyEquals(pair.1) == expected)
        #expect(pair.1.caseInsensitivelyEquals(pair.0) == expected)
    }

    @Test("agrees with caseInsensitiveCompare on 20,000 seeded random ASCII pairs")
    func randomASCII() {
        var generator = SeededGenerator(seed: 14)
        let alphabet = Array("aAbBzZ-_09[]@`{}~ \t")
        for _ in 0..<20_000 {
            let first = String(
                (0..<Int.random(in: 0...4, using: &generator)).map { _ in
                    alphabet.randomElement(using: &generator) ?? "a"
                }
            )
            let variant = Bool.random(using: &generator) ? first.uppercased() : first.lowercased()
            let other = String(variant.shuffled(using: &generator))
            let second = Bool.random(using: &generator) ? variant : other
            let expected = first.caseInsensitiveCompare(second) == .orderedSame
            #expect(first.caseInsensitivelyEquals(second) == expected, "\(first) vs \(second)")
        }
    }
}

/// A small deterministic generator (SplitMix64) so a failure names a reproducible case.
private struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
