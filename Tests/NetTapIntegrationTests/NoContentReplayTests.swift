import Foundation
import NetTapCore
import NetTapHAR
import NetTapMocking
import NetTapReplay
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A recorded response without content (Chrome's 304, which stores the cached body beside it) answers the
/// same whether it is replayed from a cassette or saved as a stub.
@Suite("A 304 from a cassette and from a stub")
struct NoContentReplayTests {
    static let chrome = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("NetTapHARTests/Fixtures/chrome.har")

    private struct Answer: Equatable {
        var status: Int
        var headers: [String: String]
        var expectedContentLength: Int64
        var body: Data
    }

    private func fetch(_ url: URL, through handler: any TransactionHandler) async throws -> Answer {
        let interceptor = NetTapInterceptor()
        interceptor.handlers = [handler]
        let session = interceptor.makeSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }
        let (data, response) = try await session.data(from: url)
        let http = try #require(response as? HTTPURLResponse)
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            headers[String(describing: name).lowercased()] = String(describing: value)
        }
        return Answer(
            status: http.statusCode,
            headers: headers,
            expectedContentLength: http.expectedContentLength,
            body: data
        )
    }

    @Test("Chrome's 304 entry answers with no body and no Content-Length from both, and the same head")
    func chrome304() async throws {
        let entry = try #require(try HARDocument.load(contentsOf: Self.chrome).log.entries.first)
        #expect(entry.response.status == 304)
        #expect((entry.response.content.decodedData()?.count ?? 0) > 0, "the fixture keeps the cached body")
        let url = try #require(URL(string: entry.request.url))

        let replayed = try await fetch(url, through: try ReplayHandler(cassette: Self.chrome, mode: .none))
        let stub = try Stub(recording: entry, redactor: .disabled)
        let stubbed = try await fetch(url, through: MockHandler(mocks: MockSet(stubs: [stub]), unmatched: .fail))

        #expect(replayed.status == 304)
        #expect(replayed.headers["content-length"] == nil)
        #expect(replayed.expectedContentLength == -1)
        #expect(replayed.body.isEmpty)
        #expect(replayed == stubbed)
    }
}
