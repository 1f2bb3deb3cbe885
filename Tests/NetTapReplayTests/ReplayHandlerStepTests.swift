import Foundation
import NetTapCore
import NetTapHAR
import NetTapReplay
import NetTapTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("ReplayHandler stepped in the HandlerHarness: recorded as the body streams, replayed without the network")
struct ReplayHandlerStepTests {
    private static let url = URL(string: "https://api.example.com/v1/items?page=1")!

    @Test("keeps the handler contract when it records, replays, and refuses a request it does not hold")
    func contract() async throws {
        let folder = try TemporaryFolder()
        let file = folder.file("contract.har")
        let request = URLRequest(url: Self.url)
        let recording = await HandlerContract.violations(
            of: { replayHandler(file, .all) },
            request: request
        )
        #expect(recording == [])
        try await recordCassette(at: file, [request])
        for mode in [RecordMode.none, .once, .newEpisodes] {
            for url in [Self.url, URL(string: "https://api.example.com/v1/other")!] {
                let violations = await HandlerContract.violations(
                    of: { replayHandler(file, mode) },
                    request: URLRequest(url: url)
                )
                #expect(violations == [], "\(mode), \(url)")
            }
        }
    }

    @Test("each chunk reaches the app as it comes; the recording holds the whole body, and replays it alone")
    func recordsAsItStreams() async throws {
        let folder = try TemporaryFolder()
        let file = folder.file("items.har")
        let recorder = try ReplayHandler(cassette: file, mode: .once)
        let harness = HandlerHarness(handler: recorder)
        guard case .passedOn = await harness.start(URLRequest(url: Self.url)) else {
            Issue.record("a new cassette did not pass the request on")
            return
        }
        try harness.sendHead(statusCode: 200, headers: ["Content-Type": "application/json"])
        _ = try await harness.answer()
        harness.sendChunk(Data(#"{"items":"#.utf8))
        #expect(try await harness.readChunk() == Data(#"{"items":"#.utf8))
        harness.sendChunk(Data("[1,2]}".utf8))
        #expect(try await harness.readChunk() == Data("[1,2]}".utf8))
        harness.end()
        #expect(try await harness.readChunk() == nil)
        try await harness.finish()
        try await recorder.flush()

        let player = HandlerHarness(handler: try ReplayHandler(cassette: file, mode: .none))
        guard case .answered(let answer) = await player.start(URLRequest(url: Self.url)) else {
            Issue.record("the recorded request was not replayed")
            return
        }
        #expect(answer.statusCode == 200)
        #expect(try await player.readBody() == Data(#"{"items":[1,2]}"#.utf8))
        #expect(player.context.answeredBy == ReplayHandler.defaultName)
        try await player.finish()
    }

    @Test("a body the app cancels midway is not recorded, and the body from below is cancelled")
    func cancelledBodyNotRecorded() async throws {
        let folder = try TemporaryFolder()
        let file = folder.file("partial.har")
        let recorder = try ReplayHandler(cassette: file, mode: .all)
        let harness = HandlerHarness(handler: recorder)
        _ = await harness.start(URLRequest(url: Self.url))
        try harness.sendHead(statusCode: 200, headers: ["Content-Type": "text/plain"])
        _ = try await harness.answer()
        harness.sendChunk(Data("part".utf8))
        #expect(try await harness.readChunk() == Data("part".utf8))
        harness.cancel()
        try await harness.finish()
        #expect(harness.isBodyFromBelowCancelled)
        try await recorder.flush()
        let entries =
            FileManager.default.fileExists(atPath: file.path) ? try Cassette.load(contentsOf: file).entries.count : 0
        #expect(entries == 0)
    }
}

/// A replay handler for `file`, or a stand-in that fails the test when the cassette cannot be opened.
private func replayHandler(_ file: URL, _ mode: RecordMode) -> any TransactionHandler {
    do {
        return try ReplayHandler(cassette: file, mode: mode)
    } catch {
        Issue.record("the cassette \(file.lastPathComponent) could not be opened: \(error)")
        return FailingHandler()
    }
}

/// Stands in for a handler that could not be made, so a contract check reports it instead of crashing.
private struct FailingHandler: TransactionHandler {
    let name = "could-not-be-made"
    func handle(_ request: URLRequest, context: TransactionContext, next: Next) async throws -> HandlerResponse {
        throw URLError(.unknown)
    }
}
