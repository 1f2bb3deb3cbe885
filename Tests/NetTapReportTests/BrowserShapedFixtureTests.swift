import Foundation
import NetTapCore
import NetTapHAR
import NetTapReport
import Testing

/// The Firefox- and Safari-shaped fixtures import with their quirks and render redacted.
@Suite("Firefox- and Safari-shaped HAR exports")
struct BrowserShapedFixtureTests {
    @Test("they import every entry with its status, method and timings, quirks and all")
    func imports() throws {
        let files = HARFixtures.browserShaped
        let firefox = try HARDocument.load(contentsOf: files[0]).transactions()
        #expect(firefox.map(\.request.method) == ["GET", "GET", "POST", "GET"])
        #expect(firefox.map { $0.response?.statusCode ?? 0 } == [200, 200, 201, 0])
        #expect(firefox[0].timings.startDate == Date(timeIntervalSince1970: 1_795_162_442.118))
        #expect(firefox[2].request.body.map { String(decoding: $0.data, as: UTF8.self) }?.contains("quantity") == true)
        let safari = try HARDocument.load(contentsOf: files[1]).transactions()
        #expect(safari.map { $0.response?.statusCode ?? 0 } == [200, 200, 304])
        #expect(safari[0].response?.body.map { $0.data.count } == 59)
    }

    @Test("their reports show no planted secret")
    func redacted() throws {
        for file in HARFixtures.browserShaped {
            let html = HTMLReport(
                transactions: try HARDocument.load(contentsOf: file).transactions(),
                title: file.lastPathComponent
            ).render()
            for secret in [
                "ff-session-secret-4711", "ff-bearer-secret-0815", "pw-ff", "safari-session-secret-2024",
                "safari-key-secret-99",
            ] {
                #expect(!html.contains(secret), "\(file.lastPathComponent): \(secret)")
            }
        }
    }
}
