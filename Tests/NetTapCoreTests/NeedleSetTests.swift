import Foundation
import Testing

@testable import NetTapCore

@Suite("NeedleSet: several byte strings looked for in one pass")
struct NeedleSetTests {
    private func occurs(_ needles: [String], in text: String, ignoringCase: Bool = true) -> Bool {
        let set = NeedleSet(needles.map { Array($0.utf8) }, ignoringASCIICase: ignoringCase)
        return Array(text.utf8).withUnsafeBufferPointer { set.occurs(in: $0) }
    }

    @Test("finds a needle at the start, in the middle and at the very end, and not a near miss")
    func positions() {
        #expect(occurs(["password"], in: "password=1"))
        #expect(occurs(["password"], in: "a=1&user_password=2"))
        #expect(occurs(["password"], in: "a=1&password"))
        #expect(!occurs(["password"], in: "a=1&passwor"))
        #expect(!occurs(["password"], in: "pass word"))
    }

    @Test("one-byte needles count everywhere, the last byte included")
    func singleByteNeedles() {
        #expect(occurs(["%"], in: "%"))
        #expect(occurs(["%"], in: "abc%"))
        #expect(occurs(["%"], in: "%abc"))
        #expect(!occurs(["%"], in: "abc"))
        #expect(occurs(["token", "%"], in: "x=1%"))
    }

    @Test("ASCII case is ignored only when asked, and bytes above ASCII are not folded")
    func caseFolding() {
        #expect(occurs(["secret"], in: "{\"Client_SECRET\":1}"))
        #expect(!occurs(["secret"], in: "{\"Client_SECRET\":1}", ignoringCase: false))
        #expect(occurs(["eyJ"], in: "Bearer eyJhbGci", ignoringCase: false))
        #expect(!occurs(["eyJ"], in: "Bearer EYJhbGci", ignoringCase: false))
        // 0xC3 0xA9 is "é"; folding must not turn 0xC3 into anything else.
        #expect(!occurs(["ã"], in: "é"))
        #expect(occurs(["é"], in: "café"))
    }

    @Test("an empty set, empty needles and an empty buffer never match; a needle longer than the buffer does not")
    func edges() {
        #expect(!occurs([], in: "anything"))
        #expect(!occurs([""], in: "anything"))
        #expect(!occurs(["abc"], in: ""))
        #expect(!occurs(["abcdef"], in: "abc"))
        #expect(occurs(["abc", "bcd"], in: "xbcd"))
    }

    @Test("agrees with a plain search on 2,000 random buffers over a small alphabet")
    func agreesWithPlainSearch() {
        var generator = SplitMix(seed: 0x5EED)
        let alphabet = Array("aAbB%\\u".utf8)
        for round in 0..<2_000 {
            let needles = (0..<Int.random(in: 1...4, using: &generator)).map { _ in
                (0..<Int.random(in: 1...4, using: &generator)).map { _ in alphabet.randomElement(using: &generator) ?? 0
                }
            }
            let buffer = (0..<Int.random(in: 0...24, using: &generator)).map { _ in
                alphabet.randomElement(using: &generator) ?? 0
            }
            let folded: ([UInt8]) -> [UInt8] = { $0.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 } }
            for ignoringCase in [false, true] {
                let haystack = ignoringCase ? folded(buffer) : buffer
                let expected = needles.contains { needle in
                    let needle = ignoringCase ? folded(needle) : needle
                    return haystack.count >= needle.count
                        && (0...(haystack.count - needle.count)).contains {
                            haystack[$0..<$0 + needle.count].elementsEqual(needle)
                        }
                }
                let set = NeedleSet(needles, ignoringASCIICase: ignoringCase)
                let found = buffer.withUnsafeBufferPointer { set.occurs(in: $0) }
                #expect(found == expected, "round \(round): \(needles) in \(buffer), ignoring case \(ignoringCase)")
            }
        }
    }

    @Test("a megabyte of a letter that opens needles holds none of them; one appended at its end is found")
    func repeatedLetter() {
        let set = NeedleSet(
            ["access_token", "api_key", "apikey", "authorization"].map { Array($0.utf8) },
            ignoringASCIICase: true
        )
        let body = [UInt8](repeating: UInt8(ascii: "a"), count: 1 << 20)
        #expect(!body.withUnsafeBufferPointer { set.occurs(in: $0) })
        let tail = body + Array("&api_KEY=1".utf8)
        #expect(tail.withUnsafeBufferPointer { set.occurs(in: $0) })
    }
}

/// A seeded generator (SplitMix64), so a failing round can be replayed.
private struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
