import Foundation
import NetTapCore
import NetTapHAR
import NetTapReplay
import NetTapTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Record modes")
struct RecordModeTests {
    @Test("once, file missing: every request goes to the network and is recorded")
    func onceRecords() async throws {
        let folder = try TemporaryFolder()
        let file = folder.file("once.har")
        let transport = CountingTransport()
        let handler = try ReplayHandler(cassette: file, mode: .once)
        let harness = PipelineHarness(handlers: [handler], transport: transport)
        let first = try await harness.send(try makeRequest("http://127.0.0.1:9/a"))
        let second = try await harness.send(try makeRequest("http://127.0.0.1:9/a"))
        #expect(first.answeredBy == "network" && second.answeredBy == "network")
        #expect(first.text == "GET /a #1" && second.text == "GET /a #2")
        try await handler.flush()
        let cassette = try Cassette.load(contentsOf: file)
        #expect(cassette.entries.map(\.response.content.text) == ["GET /a #1", "GET /a #2"])
    }

    @Test("once, file present: requests replay and the network is never used")
    func onceReplays() async throws {
        let folder = try TemporaryFolder()
        let file = folder.file("once.har")
        try await recordCassette(at: file, [try makeRequest("http://127.0.0.1:9/a")])
        let before = try Data(contentsOf: file)
        let transport = CountingTransport()
        let handler = try ReplayHandler(cassette: file, mode: .once)
        let result = try await PipelineHarness(handlers: [handler], transport: transport)
            .send(try makeRequest("http://127.0.0.1:9/a"))
        #expect(result.answeredBy == "cassette")
        #expect(result.annotations["cassette.entry"] == "0")
        #expect(result.text == "GET /a #1")
        #expect(transport.requests.isEmpty)
        try await handler.flush()
        #expect(try Data(contentsOf: file) == before)
    }

    @Test("once, file present: an unmatched request fails naming the file, the request and the closest entry")
    func onceUnmatched() async throws {
        let folder = try TemporaryFolder()
        let file = folder.file("api.har")
        try await recordCassette(
            at: file,
            [try makeRequest("http://127.0.0.1:9/items?page=1"), try makeRequest("http://127.0.0.1:9/other")]
        )
        let transport = CountingTransport()
        let handler = try ReplayHandler(cassette: file, mode: .once)
        let harness = PipelineHarness(handlers: [handler], transport: transport)
        let error = await #expect(throws: URLError.self) {
            try await harness.send(try makeRequest("http://127.0.0.1:9/items?page=2"))
        }
        #expect(error?.code == .resourceUnavailable)
        let message = error?.localizedDescription ?? ""
        #expect(message.contains("cassette api.har"), "\(message)")
        #expect(message.contains("GET http://127.0.0.1:9/items?page=2"), "\(message)")
        #expect(message.contains("closest is entry 0, GET http://127.0.0.1:9/items?page=1"), "\(message)")
        #expect(message.contains("query page=2, recorded page=1"), "\(message)")
        #expect(transport.requests.isEmpty)
    }

    @Test("newEpisodes: known requests replay, new ones are recorded and appended")
    func newEpisodes() async throws {
        let folder = try TemporaryFolder()
        let file = folder.file("episodes.har")
        try await recordCassette(at: file, [try makeRequest("http://127.0.0.1:9/known")])
        let transport = CountingTransport()
        let handler = try ReplayHandler(cassette: file, mode: .newEpisodes)
        let harness = PipelineHarness(handlers: [handler], transport: transport)
        let known = try await harness.send(try makeRequest("http://127.0.0.1:9/known"))
        let new = try await harness.send(try makeRequest("http://127.0.0.1:9/new", method: "POST"))
        #expect(known.answeredBy == "cassette" && known.text == "GET /known #1")
        #expect(new.answeredBy == "network" && new.text == "POST /new #1")
        #expect(transport.requests.map { $0.url?.path } == ["/new"])
        try await handler.flush()
        let cassette = try Cassette.load(contentsOf: file)
        #expect(
            cassette.entries.map { "\($0.request.method) \($0.request.url)" } == [
                "GET http://127.0.0.1:9/known", "POST http://127.0.0.1:9/new",
            ]
        )
    }

    @Test("newEpisodes on a missing file records everything")
    func newEpisodesMissingFile() async throws {
        let folder = try TemporaryFolder()
        let file = folder.file("fresh.har")
        let handler = try ReplayHandler(cassette: file, mode: .newEpisodes)
        let result = try await PipelineHarness(handlers: [handler], transport: CountingTransport())
            .send(try makeRequest("http://127.0.0.1:9/x"))
        #expect(result.answeredBy == "network")
        try await handler.flush()
        #expect(try Cassette.load(contentsOf: file).entries.count == 1)
    }

    @Test("none: replays, and every unmatched request fails without touching the network")
    func noneMode() async throws {
        let folder = try TemporaryFolder()
        let file = folder.file("none.har")
        try await recordCassette(at: file, [try makeRequest("http://127.0.0.1:9/a")])
        let transport = CountingTransport()
        let handler = try ReplayHandler(cassette: file, mode: .none)
        let harness = PipelineHarness(handlers: [handler], transport: transport)
        #expect(try await harness.send(try makeRequest("http://127.0.0.1:9/a")).answeredBy == "cassette")
        let error = await #expect(throws: URLError.self) {
            try await harness.send(try makeRequest("http://127.0.0.1:9/b"))
        }
        #expect(error?.code == .resourceUnavailable)
        #expect(error?.localizedDescription.contains("path /b, recorded /a") == true)
        #expect(transport.requests.isEmpty)
        try await handler.flush()
        #expect(try Cassette.load(contentsOf: file).entries.count == 1)
    }

    @Test("a request a replay-only cassette refuses is answered by the cassette, with the explanation as a note")
    func refusalIsAnsweredByTheCassette() async throws {
        let folder = try TemporaryFolder()
        let file = folder.file("refuse.har")
        try await recordCassette(at: file, [try makeRequest("http://127.0.0.1:9/a")])
        for mode in [RecordMode.none, .once] {
            let context = TransactionContext()
            let pipeline = Pipeline(
                handlers: [try ReplayHandler(cassette: file, mode: mode)],
                transport: CountingTransport()
            )
            let error = await #expect(throws: URLError.self) {
                _ = try await pipeline.send(try makeRequest("http://127.0.0.1:9/b"), context: context)
            }
            #expect(context.answeredBy == "cassette", "mode \(mode)")
            let note = context.annotations[ReplayHandler.unmatchedAnnotation]
            #expect(note == error?.localizedDescription, "mode \(mode)")
            #expect(note?.contains("no recorded entry matches GET http://127.0.0.1:9/b") == true, "mode \(mode)")
        }
    }

    @Test("none with a missing file: requests fail and say the file does not exist")
    func noneMissingFile() async throws {
        let folder = try TemporaryFolder()
        let handler = try ReplayHandler(cassette: folder.file("missing.har"), mode: .none)
        let error = await #expect(throws: URLError.self) {
            try await PipelineHarness(handlers: [handler]).send(try makeRequest("http://127.0.0.1:9/a"))
        }
        #expect(error?.localizedDescription.contains("missing.har") == true)
        #expect(error?.localizedDescription.contains("the file does not exist") == true)
        #expect(!FileManager.default.fileExists(atPath: folder.file("missing.har").path))
    }

    @Test("all: never replays, and the file is replaced by this run's recordings")
    func allMode() async throws {
        let folder = try TemporaryFolder()
        let file = folder.file("all.har")
        try await recordCassette(
            at: file,
            [try makeRequest("http://127.0.0.1:9/old"), try makeRequest("http://127.0.0.1:9/a")]
        )
        let transport = CountingTransport()
        let handler = try ReplayHandler(cassette: file, mode: .all)
        let result = try await PipelineHarness(handlers: [handler], transport: transport)
            .send(try makeRequest("http://127.0.0.1:9/a"))
        #expect(result.answeredBy == "network")
        #expect(transport.requests.count == 1)
        try await handler.flush()
        let entries = try Cassette.load(contentsOf: file).entries
        #expect(entries.map(\.request.url) == ["http://127.0.0.1:9/a"])
        #expect(entries.map(\.response.content.text) == ["GET /a #1"])
    }

    @Test("the modes' replay and record decisions follow the table")
    func table() {
        let rows = RecordMode.allCases.map {
            "\($0) \($0.replays(fileExists: true)) \($0.records(fileExists: true)) "
                + "\($0.replays(fileExists: false)) \($0.records(fileExists: false))"
        }
        #expect(
            rows == [
                "once true false false true", "newEpisodes true true true true", "none true false true false",
                "all false true false true",
            ]
        )
    }
}
