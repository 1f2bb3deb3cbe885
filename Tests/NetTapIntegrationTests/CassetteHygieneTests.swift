import Foundation
import NetTapCore
import NetTapHAR
import NetTapReplay
import NetTapTestSupport
import NetTapTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Playback repeats, unplayed entries and re-recording, as the app sees them through a real URLSession.
///
/// Replayed URLs use `127.0.0.1:1`, where nothing listens, so a request that escaped the cassette would fail
/// with another error instead of reaching anything.
@Suite("Cassette hygiene through URLSession")
struct CassetteHygieneTests {
    private static let base = "http://127.0.0.1:1"

    /// A cassette of entries answering `GET <url>` with `text`, recorded at `started`.
    private static func writeCassette(
        _ answers: [(url: String, text: String)],
        started: String = "2024-01-01T00:00:00.000Z",
        in folder: TemporaryFolder,
        name: String
    ) throws -> URL {
        var cassette = Cassette()
        cassette.entries = answers.map { answer in
            HAREntry(
                startedDateTime: started,
                time: 0,
                request: HARRequest(method: "GET", url: answer.url),
                response: HARResponse(
                    status: 200,
                    headers: [HARHeader(name: "Content-Type", value: "text/plain")],
                    content: HARContent(size: answer.text.utf8.count, mimeType: "text/plain", text: answer.text)
                )
            )
        }
        let file = folder.url.appendingPathComponent(name)
        try cassette.save(to: file)
        return file
    }

    @Test(
        "with playback repeats off, a repeated request fails with URLError(.resourceUnavailable) naming the entry",
        arguments: CallerStyle.allCases
    )
    func repeatRefused(style: CallerStyle) async throws {
        let folder = try TemporaryFolder(prefix: "nettap-hygiene")
        let url = Self.base + "/profile"
        let file = try Self.writeCassette([(url, "ada")], in: folder, name: "profile.har")
        let interceptor = NetTapInterceptor()
        interceptor.handlers = [try ReplayHandler(cassette: file, mode: .none, allowPlaybackRepeats: false)]
        let client = Client(name: "cassette", interceptor: interceptor)
        let first = await client.send(URLRequest(url: URL(string: url)!), style: style)
        #expect(first.error == nil)
        #expect(first.statusCode == 200)
        #expect(String(decoding: first.body, as: UTF8.self) == "ada")
        let again = await client.send(URLRequest(url: URL(string: url)!), style: style)
        #expect(again.statusCode == nil)
        #expect(again.error == "\(NSURLErrorDomain) \(URLError.Code.resourceUnavailable.rawValue)")
        #expect(again.errorIsURLError)
        #expect(
            again.errorDescription
                == "cassette profile.har: GET \(url) matches only entry 0, played already, and playback repeats are off "
                + "(allowPlaybackRepeats false, record mode none)"
        )
        #expect(again.errorUserInfoKeys.contains("NSErrorFailingURLKey"))
        #expect(again.errorUserInfoKeys.contains("NSErrorFailingURLStringKey"))
        let refused = try #require(interceptor.captureLog.transactions.last)
        #expect(refused.answeredBy == ReplayHandler.defaultName)
        #expect(refused.annotations[ReplayHandler.unmatchedAnnotation] == again.errorDescription)
    }

    @Test("withNetTap reports the entry the app never requested", arguments: CallerStyle.allCases)
    func unplayedEntryReported(style: CallerStyle) async throws {
        let folder = try TemporaryFolder(prefix: "nettap-hygiene")
        let file = try Self.writeCassette(
            [(Self.base + "/cart", "cart"), (Self.base + "/wishlist", "wishes")],
            in: folder,
            name: "shop.har"
        )
        let scopeLine = #line + 2
        try await withKnownIssue {
            try await withNetTap(cassette: file, recordMode: .none, checkUnplayedEntries: true) { tap in
                let client = Client(name: "scope", interceptor: tap.interceptor)
                let outcome = await client.send(URLRequest(url: URL(string: Self.base + "/cart")!), style: style)
                #expect(String(decoding: outcome.body, as: UTF8.self) == "cart")
            }
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            return issue.sourceLocation?.line == scopeLine
                && text == "1 entry(ies) of cassette \(file.path) never played:\n"
                    + "  $.log.entries[1]: GET \(Self.base)/wishlist (recorded 2024-01-01T00:00:00.000Z)"
        }
    }

    @Test(
        "a cassette older than reRecordInterval is recorded again: the app gets the live answer, the file the new entry",
        arguments: CallerStyle.allCases
    )
    func expiredCassetteRecordedAgain(style: CallerStyle) async throws {
        let server = try await HTTPBin.shared()
        let folder = try TemporaryFolder(prefix: "nettap-hygiene")
        let url = server.url("/base64/bGl2ZQ==")  // "live"
        let file = try Self.writeCassette(
            [(url.absoluteString, "stale"), (server.url("/other").absoluteString, "other")],
            started: "2020-01-01T00:00:00.000Z",
            in: folder,
            name: "aged.har"
        )
        let handler = try ReplayHandler(cassette: file, mode: .once, reRecordInterval: .seconds(30 * 86_400))
        #expect(handler.isExpired)
        let interceptor = NetTapInterceptor()
        interceptor.handlers = [handler]
        let outcome = await Client(name: "cassette", interceptor: interceptor).send(URLRequest(url: url), style: style)
        #expect(outcome.statusCode == 200)
        #expect(String(decoding: outcome.body, as: UTF8.self) == "live")
        try await handler.flush()
        let entries = try Cassette.load(contentsOf: file).entries
        #expect(entries.map(\.request.url) == [url.absoluteString])
        #expect(entries.first?.response.content.text == "live")
        #expect(entries.first?.startedDateTime.hasPrefix("2020") == false)
    }
}
