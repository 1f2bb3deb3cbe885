import Foundation
import NetTapCore
import NetTapHAR
import NetTapReplay
import NetTapTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The real HAR exports beside the HAR tests (copies of `../shared/fixtures/har/`), replayed as cassettes.
@Suite("Replaying real HAR exports")
struct FixtureReplayTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("NetTapHARTests/Fixtures")

    static let names = ["charles.har", "chrome.har", "insomnia.har", "postdata.har", "with-bom.har"]

    @Test("every entry with a response replays its status and body, in recorded order", arguments: names)
    func replay(name: String) async throws {
        let file = Self.fixtures.appendingPathComponent(name)
        let document = try HARDocument.load(contentsOf: file)
        let handler = try ReplayHandler(cassette: file, mode: .none)
        let harness = PipelineHarness(handlers: [handler])
        var replayed = 0
        for (index, entry) in document.log.entries.enumerated() where entry.response.status > 0 {
            var request = URLRequest(url: try #require(URL(string: entry.request.url)))
            request.httpMethod = entry.request.method
            request.httpBody = entry.request.postData?.decodedData()
            let result = try await harness.send(request)
            #expect(result.answeredBy == "cassette", "\(name) entry \(index)")
            #expect(result.statusCode == entry.response.status, "\(name) entry \(index)")
            let noContent = [204, 304].contains(entry.response.status) || entry.response.status < 200
            let recordedBody = noContent ? Data() : (entry.response.content.decodedData() ?? Data())
            #expect(result.body == recordedBody, "\(name) entry \(index)")
            #expect(
                result.response.headers["Content-Length"] == (noContent ? nil : String(result.body.count)),
                "\(name) entry \(index)"
            )
            #expect(result.annotations["cassette.entry"] != nil)
            replayed += 1
        }
        #expect(replayed > 0)
    }

    @Test("the broken export fails to load with its file name")
    func broken() {
        #expect {
            _ = try ReplayHandler(cassette: Self.fixtures.appendingPathComponent("broken.har"), mode: .none)
        } throws: { error in
            "\(error)".hasPrefix("broken.har:")
        }
    }
}
