import Foundation
import NetTapCore
import NetTapTesting
import Testing

@testable import NetTapShaping

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("SharedLink: the bandwidth the requests of one profile share")
struct SharedLinkTests {
    @Test("reservations queue behind each other: two transfers taking turns get half the bandwidth each")
    func reservationsQueue() {
        let clock = ManualClock()
        let link = SharedLink.Direction()
        // 500 bytes at 10,000 B/s is 50 ms. A and B alternate, each reserving its next piece when the last is due.
        let a1 = link.reserve(byteCount: 500, bytesPerSecond: 10_000, on: clock)
        let b1 = link.reserve(byteCount: 500, bytesPerSecond: 10_000, on: clock)
        #expect(a1.offset == .milliseconds(50))
        #expect(b1.offset == .milliseconds(100))
        clock.advance(by: .milliseconds(50))
        let a2 = link.reserve(byteCount: 500, bytesPerSecond: 10_000, on: clock)
        #expect(a2.offset == .milliseconds(150))
        clock.advance(by: .milliseconds(50))
        let b2 = link.reserve(byteCount: 500, bytesPerSecond: 10_000, on: clock)
        #expect(b2.offset == .milliseconds(200))
    }

    @Test("a sleeper woken a little late loses nothing; a link idle for more than a step earns no burst")
    func latenessAndIdleness() {
        let clock = ManualClock()
        let link = SharedLink.Direction()
        _ = link.reserve(byteCount: 500, bytesPerSecond: 10_000, on: clock)  // due at 50 ms
        clock.advance(by: .milliseconds(70))  // woken 20 ms late
        #expect(link.reserve(byteCount: 500, bytesPerSecond: 10_000, on: clock).offset == .milliseconds(100))
        clock.advance(by: .milliseconds(1_000))  // idle for 930 ms
        #expect(link.reserve(byteCount: 500, bytesPerSecond: 10_000, on: clock).offset == .milliseconds(1_120))
    }

    @Test("requests of one rule share a link; other rules and the app-wide profile each have one; changes renew")
    func linksPerProfileSlot() throws {
        let data = try #require(URL(string: "http://127.0.0.1:9/data"))
        let other = try #require(URL(string: "http://127.0.0.1:9/other"))
        let third = try #require(URL(string: "http://example.com/x"))
        let slow = NetworkProfile(downloadBytesPerSecond: 10_000)
        let shaper = NetworkShaper(
            profile: slow,
            rules: [ShapingRule(.path("/data"), profile: slow), ShapingRule(.host("127.0.0.1"), profile: slow)]
        )
        let link = { (url: URL) throws -> SharedLink in try #require(shaper.shaping(for: URLRequest(url: url))).link }
        #expect(try link(data) === link(data))
        #expect(try link(data) !== link(other))
        #expect(try link(other) !== link(third))
        let before = try link(third)
        shaper.setProfile(slow)
        #expect(try link(third) !== before)
        let ruleBefore = try link(data)
        shaper.setRules(shaper.rules)
        #expect(try link(data) !== ruleBefore)
    }
}
