import Foundation
import Testing

@testable import NetTapCore

@Suite("HTTP dates (RFC 9110 §5.6.7): written as IMF-fixdate, read in the three forms a recipient must accept")
struct HTTPDateTests {
    private let date = Date(timeIntervalSince1970: 784_111_777)  // Sun, 06 Nov 1994 08:49:37 GMT

    @Test("a date is written as IMF-fixdate, with a four-digit year, a two-digit day and a 24-hour clock")
    func writes() {
        #expect(HTTPDate.string(from: date) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.string(from: Date(timeIntervalSince1970: 1_445_455_680)) == "Wed, 21 Oct 2015 19:28:00 GMT")
        #expect(HTTPDate.string(from: Date(timeIntervalSince1970: -2_208_988_800)) == "Mon, 01 Jan 1900 00:00:00 GMT")
    }

    @Test("IMF-fixdate, RFC 850 and asctime all read as the same instant")
    func readsAllForms() {
        #expect(HTTPDate.date(from: "Sun, 06 Nov 1994 08:49:37 GMT") == date)
        #expect(HTTPDate.date(from: "Sunday, 06-Nov-94 08:49:37 GMT") == date)
        #expect(HTTPDate.date(from: "Sun Nov  6 08:49:37 1994") == date)
        #expect(HTTPDate.date(from: "  Sun, 06 Nov 1994 08:49:37 GMT ") == date)
        #expect(HTTPDate.date(from: "Sun Nov 16 08:49:37 1994") == date.addingTimeInterval(10 * 86_400))
    }

    @Test(
        "texts that are not an HTTP date read as nil",
        arguments: [
            "", "yesterday", "Sun, 06 Nov 1994 08:49:37 GMTx", "x Sun, 06 Nov 1994 08:49:37 GMT",
            "Sun, 06 Nov 1994 25:49:37 GMT", "Sun, 31 Feb 1994 08:49:37 GMT", "1994-11-06T08:49:37Z",
            "Sun, 06 Nov 1994 08:49:37 GMT\u{1F600}", "\u{0301}Sun, 06 Nov 1994",
            String(repeating: "\u{FFFF}", count: 300),
        ]
    )
    func rejects(text: String) {
        #expect(HTTPDate.date(from: text) == nil)
    }

    @Test("a written date reads back as itself, to the second")
    func roundTrips() {
        for seconds in stride(from: -2_000_000_000.0, through: 4_000_000_000, by: 123_456_789) {
            let instant = Date(timeIntervalSince1970: seconds)
            #expect(HTTPDate.date(from: HTTPDate.string(from: instant)) == instant)
        }
    }
}
