import Foundation
import NetTapCore
import NetTapReplay
import Testing

@Suite("Cassette matching and redacted echoes")
struct CassetteMatchingRedactionTests {
    private func request(_ url: String) throws -> CapturedRequest {
        CapturedRequest(method: "GET", url: try #require(URL(string: url)), headers: [:])
    }

    @Test("a recorded query value with the placeholder matches any text there, in order or not")
    func placeholderMatchesAnyText() throws {
        let recorded = try request("http://h/p?Set-Cookie=sid%3D%5Bredacted%5D%3B%20Path%3D%2F&q=1")
        let incoming = try request("http://h/p?Set-Cookie=sid%3Dabc-live%3B%20Path%3D%2F&q=1")
        #expect(CassetteMatching.default.differences(between: incoming, and: recorded).isEmpty)
        let reordered = try request("http://h/p?q=1&Set-Cookie=sid%3Dother%3B%20Path%3D%2F")
        #expect(CassetteMatching(ignoresQueryOrder: true).differences(between: reordered, and: recorded).isEmpty)
        #expect(!CassetteMatching.default.differences(between: reordered, and: recorded).isEmpty)
        // The text around the placeholder still counts, and so does every other item.
        let otherPath = try request("http://h/p?Set-Cookie=sid%3Dabc%3B%20Path%3D%2Fx&q=1")
        #expect(!CassetteMatching.default.differences(between: otherPath, and: recorded).isEmpty)
        let otherItem = try request("http://h/p?Set-Cookie=sid%3Dabc%3B%20Path%3D%2F&q=2")
        #expect(!CassetteMatching.default.differences(between: otherItem, and: recorded).isEmpty)
        // Only the recorded side is a pattern.
        #expect(!CassetteMatching.default.differences(between: recorded, and: incoming).isEmpty)
    }
}
