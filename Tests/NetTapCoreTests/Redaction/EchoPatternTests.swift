import Foundation
import Testing

@testable import NetTapCore

/// The echo search without a regular expression (found by the `FuzzHAR` fuzz target: every echo expression over
/// 256 UTF-16 units leaked its pattern's copy in swift-corelibs-foundation's `NSRegularExpression`).
@Suite("EchoPattern: every spelling of long secrets, without a regular expression")
struct EchoPatternTests {
    /// A secret far over the 256-unit pattern size that leaked, with a space, a `/`, a `%` and a non-ASCII
    /// character.
    static let secret = "Bearer eyJhbGciOi/" + String(repeating: "x1Y2", count: 60) + " 100%·end"

    @Test("a long secret is found as is, percent-encoded in either case, with + for space and \\/ for /")
    func longSecretSpellings() throws {
        let pattern = try #require(EchoPattern([Self.secret]))
        let encoded = try #require(Self.secret.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
        let everyByteLowercase = Self.secret.utf8.map { String(format: "%%%02x", $0) }.joined()
        let spellings = [
            Self.secret,
            encoded,
            everyByteLowercase,
            Self.secret.replacingOccurrences(of: " ", with: "+").replacingOccurrences(of: "/", with: "\\/"),
        ]
        for spelling in spellings {
            #expect(pattern.replacing(in: "a \(spelling) b", with: "[r]") == "a [r] b", "\(spelling.prefix(40))")
        }
        #expect(pattern.replacing(in: "a \(Self.secret.dropLast()) b", with: "[r]") == "a \(Self.secret.dropLast()) b")
    }

    @Test("a % in a secret matches itself or %25, the longer secret wins, and text around copies is kept")
    func percentLongestFirstAndSurroundings() throws {
        let pattern = try #require(EchoPattern(["ab%25cd", "ab%25cdef", "zz%yyy"]))
        #expect(pattern.replacing(in: "[ab%25cdef]", with: "R") == "[R]")
        #expect(pattern.replacing(in: "ab%2525cd", with: "R") == "R")
        #expect(pattern.replacing(in: "1 zz%25yyy 2 zz%yyy 3 zz%2", with: "R") == "1 R 2 R 3 zz%2")
        #expect(pattern.replacing(in: "ünïcode ab%25cd ✓", with: "R") == "ünïcode R ✓")
    }

    @Test("a long token echoed in another header is redacted in every copy")
    func longTokenEchoedInHeader() throws {
        let token = String(repeating: "QREFRESH+_a8/", count: 40)
        let headers: HeaderFields = ["Authorization": "Bearer \(token)", "X-Echo": "seen \(token) twice \(token)"]
        let url = try #require(URL(string: "http://127.0.0.1/anything"))
        let transaction = CapturedTransaction(
            request: CapturedRequest(method: "GET", url: url, headers: headers),
            timings: Timings(startDate: Date(timeIntervalSince1970: 1_700_000_000))
        )
        let redacted = Redactor.default.redact(transaction: transaction).value
        #expect(redacted.request.headers["X-Echo"] == "seen [redacted] twice [redacted]")
    }
}
