import Foundation
import Testing

@testable import NetTapCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("SetCookieReader: Foundation's Set-Cookie reading, safe for names that are not one UTF-16 unit per character")
struct SetCookieReaderTests {
    private let url = URL(string: "https://cookies.example/a/b")!

    private func pairs(_ value: String) -> [String] {
        SetCookieReader.cookies(in: value, for: url).map { "\($0.name)=\($0.value) path=\($0.path)" }
    }

    @Test(
        "printable ASCII fields read exactly as HTTPCookie reads them",
        arguments: [
            "id=a3f; Path=/p; Secure; HttpOnly", "a=1, b=2; Domain=cookies.example", "x", "=v", " n = v ; path=/q",
            "e=1; Expires=Wed, 21 Oct 2037 07:28:00 GMT, f=2", "a=b=c; Max-Age=10; Version=1",
        ]
    )
    func asciiUnchanged(value: String) {
        let direct = HTTPCookie.cookies(withResponseHeaderFields: ["Set-Cookie": value], for: url)
        let read = SetCookieReader.cookies(in: value, for: url)
        #expect(read.map(\.name) == direct.map(\.name))
        #expect(read.map(\.value) == direct.map(\.value))
        #expect(read.map(\.path) == direct.map(\.path))
        #expect(read.map(\.domain) == direct.map(\.domain))
        #expect(read.map(\.isSecure) == direct.map(\.isSecure))
        // Max-Age counts from the moment each cookie is made: the two may differ by the time between the calls.
        let expiries = zip(read.map(\.expiresDate), direct.map(\.expiresDate))
        #expect(
            expiries.allSatisfy { ($0 == nil) == ($1 == nil) && abs(($0 ?? .now).timeIntervalSince($1 ?? .now)) < 5 }
        )
    }

    @Test("a name with an emoji or a combining mark keeps its text and its whole value")
    func multiUnitNames() {
        #expect(pairs("\u{1F600}\u{1F600}=1") == ["\u{1F600}\u{1F600}=1 path=/"])
        #expect(pairs("e\u{301}=value; Path=/p") == ["e\u{301}=value path=/p"])
        #expect(pairs("caf\u{E9}=cr\u{E8}me") == ["caf\u{E9}=cr\u{E8}me path=/"])
    }

    @Test("a value of several lines (Firefox's HAR export) is one Set-Cookie per line, whatever the line break")
    func oneCookiePerLine() {
        #expect(
            pairs("sid=1; Path=/p\nsession=2; HttpOnly\r\ntheme=3\rx=4")
                == ["sid=1 path=/p", "session=2 path=/", "theme=3 path=/", "x=4 path=/"]
        )
        // A line without `name=value` holds no cookie; the next line still does.
        #expect(pairs("a\r\nb=v") == ["b=v path=/"])
        #expect(pairs("\n\nc=1\n") == ["c=1 path=/"])
    }

    @Test("an attribute name with such a character is an unknown attribute: ignored, the others still read")
    func multiUnitAttributes() {
        #expect(pairs("a=1; \u{1F600}=x; Path=/p") == ["a=1 path=/p"])
        #expect(pairs("a=1; b, \u{1F600}=2") == ["a=1 path=/"])
        #expect(pairs("x\u{1F600}, a=1") == ["a=1 path=/"])
    }

    @Test("an Expires date with a combining mark or an emoji is no date (it trapped DateFormatter); the cookie stays")
    func expiresWithWideCharacters() throws {
        let url = try #require(URL(string: "https://fuzz.example/a"))
        for date in [
            "Wed, 2\u{0369} Oct 2030 07:28:00 GMT", "Wed, 21 Oct 2030 07:28:00 GMT\u{1F36A}", "W\u{0301}ed, 21 Oct",
        ] {
            let cookies = SetCookieReader.cookies(in: "pd=a3f; Expires=\(date); Path=/", for: url)
            #expect(cookies.map(\.name) == ["pd"], "\(date)")
            #expect(cookies.first?.value == "a3f")
            #expect(cookies.first?.path == "/")
        }
        // A folded second cookie after the date keeps its value as sent.
        let folded = SetCookieReader.cookies(
            in: "a=1; Expires=Wed, 2\u{0369} Oct 2030 07:28:00 GMT, b=caf\u{00E9}",
            for: url
        )
        #expect(folded.first { $0.name == "b" }?.value == "caf\u{00E9}", "\(folded.map(\.name))")
        // The fuzzer's input, whole.
        let found = "pd=a3fWa; Expires=Wed, 2\u{0369} Oct 20\u{FFFD}ookie: b=\u{FFFD}\u{FFFD};d,"
        #expect(SetCookieReader.cookies(in: found, for: url).first?.name == "pd")
        // White space before the attribute's `=` (the fuzzer's second find).
        let spaced = SetCookieReader.cookies(
            in: "pd=a; Expires \t=Wed, 2\u{0369} Oct 2030; Expires=x\u{0369}",
            for: url
        )
        #expect(spaced.first?.name == "pd")
        // A comma not followed by a token and `=` does not end the date, as HTTPCookie reads it (the third find).
        let comma = SetCookieReader.cookies(in: "pd=a; Expires=We/, 2\u{0369}W/=We/, 2\u{0369} Oct", for: url)
        #expect(comma.first?.name == "pd")
        // A valid date is read as before.
        let valid = SetCookieReader.cookies(in: "c=1; Expires=Wed, 21 Oct 2037 07:28:00 GMT", for: url)
        #expect(valid.first?.expiresDate != nil)
    }

    @Test("values keep every character, emoji and commas included")
    func values() {
        #expect(pairs("a=\u{1F600}, \u{1F600}=2") == ["a=\u{1F600}, \u{1F600}=2 path=/"])
        #expect(pairs("a=\u{1F600}\u{1F600}; Path=/\u{1F600}") == ["a=\u{1F600}\u{1F600} path=/\u{1F600}"])
    }

    @Test("an = or ; that a combining mark joins is part of the text around it, as for Foundation's Scanner")
    func joinedSeparators() {
        #expect(pairs("a=\u{7F2}=") == ["a=\u{7F2}= path=/"])
        #expect(pairs("a=1;\u{301}x=2; Path=/p") == ["a=1;\u{301}x=2 path=/p"])
        #expect(pairs("a=1;\u{301}\u{1F600}=2; Path=/q") == ["a=1;\u{301}\u{1F600}=2 path=/q"])
        // Line breaks split the value into lines (one Set-Cookie each): no line here holds `name=value`.
        #expect(pairs("\r\n\u{200D}\r\r=v") == [])
    }

    @Test("30,000 fields built from separators, joiners, emoji and controls read without a trap")
    func neverTraps() {
        let pieces = [
            "a", "=", ";", ",", " ", "\u{301}", "\u{7F2}", "\u{1F600}", "\r\n", "\r", "\n", "\u{A0}", "\u{200D}",
            "\u{600}", "\u{1F1E6}", "\u{37E}", "Path", "Expires", "\u{FFFD}", "\t", "e\u{301}", "\u{E9}", "\"",
        ]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15  // a fixed seed: the same fields every run
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        var read = 0
        for _ in 0..<30_000 {
            let field = (0...next(14)).map { _ in pieces[next(pieces.count)] }.joined()
            read += SetCookieReader.cookies(in: field, for: url).count
        }
        #expect(read > 0)
    }
}
