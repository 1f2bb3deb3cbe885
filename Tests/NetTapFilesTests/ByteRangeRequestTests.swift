import Foundation
import Testing

@testable import NetTapFiles

@Suite("Range header evaluation (RFC 9110 §14.1.2)")
struct ByteRangeRequestTests {
    @Test(
        "single ranges, suffixes, open ends, multiple ranges, bad syntax and unsatisfiable ones",
        arguments: [
            ("bytes=0-499", 1000, ByteRangeRequest.partial(first: 0, last: 499)),
            ("bytes=500-", 1000, .partial(first: 500, last: 999)),
            ("bytes=-200", 1000, .partial(first: 800, last: 999)),
            ("bytes=-5000", 1000, .partial(first: 0, last: 999)),
            ("bytes=990-5000", 1000, .partial(first: 990, last: 999)),
            ("bytes=0-99999999999999999999999", 1000, .partial(first: 0, last: 999)),
            ("BYTES = 10-19", 1000, .partial(first: 10, last: 19)),
            ("bytes=5-5,", 1000, .partial(first: 5, last: 5)),
            ("bytes=0-1,5-9", 1000, .whole),
            ("bytes=9-5", 1000, .whole),
            ("bytes=abc", 1000, .whole),
            ("bytes=-", 1000, .whole),
            ("bytes=+1-2", 1000, .whole),
            ("items=0-5", 1000, .whole),
            ("0-5", 1000, .whole),
            ("bytes=1000-", 1000, .unsatisfiable),
            ("bytes=2000-3000", 1000, .unsatisfiable),
            ("bytes=-0", 1000, .unsatisfiable),
            ("bytes=0-0", 0, .unsatisfiable),
            ("bytes=-1", 0, .unsatisfiable),
        ]
    )
    func evaluates(header: String, size: Int64, expected: ByteRangeRequest) {
        #expect(ByteRangeRequest.evaluate(header, size: size) == expected)
    }
}
