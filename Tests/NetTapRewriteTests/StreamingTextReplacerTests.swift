import Foundation
import Testing

@testable import NetTapRewrite

@Suite("Streaming text replacement: occurrences split across pieces, bounded memory")
struct StreamingTextReplacerTests {
    /// Feeds `text` in pieces cut at `cuts` and returns the output.
    private static func replaced(_ text: String, find: String, with replacement: String, cuts: [Int]) -> (String, Int) {
        var replacer = StreamingTextReplacer(needle: Array(find.utf8), replacement: Array(replacement.utf8))
        let bytes = Array(text.utf8)
        var output: [UInt8] = []
        var start = 0
        for cut in cuts + [bytes.count] where cut >= start {
            output += replacer.feed(Array(bytes[start..<cut]))
            start = cut
        }
        output += replacer.finish()
        return (String(decoding: output, as: UTF8.self), replacer.count)
    }

    @Test("every way of cutting a body into two or three pieces gives what replacing it whole gives")
    func everyCut() {
        let text = "abcabcab-ab-aab-abab-ab"
        let expected = text.replacingOccurrences(of: "ab", with: "XYZ")
        let whole = Self.replaced(text, find: "ab", with: "XYZ", cuts: [])
        #expect(whole.0 == expected)
        #expect(whole.1 == 8)
        let count = text.utf8.count
        for first in 0...count {
            for second in first...count {
                let (output, replaced) = Self.replaced(text, find: "ab", with: "XYZ", cuts: [first, second])
                #expect(output == expected, "cut at \(first), \(second)")
                #expect(replaced == 8)
            }
        }
    }

    @Test("occurrences never overlap, left to right, as String.replacingOccurrences does")
    func noOverlap() {
        for cut in 0...9 {
            #expect(Self.replaced("aaaaaaaaa", find: "aa", with: "b", cuts: [cut]).0 == "bbbba")
        }
        #expect(Self.replaced("ababa", find: "aba", with: "-", cuts: [2]).0 == "-ba")
    }

    @Test("only the end of a piece that begins an occurrence is held back: at most needle length minus one byte")
    func boundedHoldBack() {
        var replacer = StreamingTextReplacer(needle: Array("staging-server".utf8), replacement: [])
        let plain = Array(String(repeating: "x", count: 100_000).utf8)
        #expect(replacer.feed(plain).count == plain.count)
        let ending = plain + Array("staging-serve".utf8)
        #expect(replacer.feed(ending).count == plain.count)
        #expect(replacer.finish() == Array("staging-serve".utf8))
        #expect(replacer.feed(Array("sstaging".utf8)) == Array("s".utf8))
    }

    @Test("multi-byte UTF-8 text is replaced whole, wherever a piece boundary falls inside it")
    func unicode() {
        let text = "Grüße aus Köln, Grüße!"
        for cut in 0...text.utf8.count {
            #expect(Self.replaced(text, find: "Grüße", with: "Hallo", cuts: [cut]).0 == "Hallo aus Köln, Hallo!")
        }
    }
}
