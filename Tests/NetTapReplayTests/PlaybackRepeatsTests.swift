import Foundation
import NetTapCore
import NetTapHAR
import NetTapReplay
import NetTapTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A cassette entry answering `GET <url>` with `text`, recorded at `started`.
func textEntry(
    _ url: String,
    _ text: String,
    method: String = "GET",
    started: String = "2024-01-01T00:00:00.000Z"
)
    -> HAREntry
{
    HAREntry(
        startedDateTime: started,
        time: 0,
        request: HARRequest(method: method, url: url),
        response: HARResponse(
            status: 200,
            headers: [HARHeader(name: "Content-Type", value: "text/plain")],
            content: HARContent(size: text.utf8.count, mimeType: "text/plain", text: text)
        )
    )
}

/// Writes a cassette of `entries` to `file`.
func writeCassette(_ entries: [HAREntry], to file: URL) throws {
    var cassette = Cassette()
    cassette.entries = entries
    try cassette.save(to: file)
}

@Suite("ReplayHandler: playback repeats and unplayed entries")
struct PlaybackRepeatsTests {
    @Test("with playback repeats off, each entry plays once in order and a further request is refused naming them")
    func repeatsOffRefuses() async throws {
        let folder = try TemporaryFolder()
        let file = folder.file("once.har")
        let url = "http://127.0.0.1:9/n"
        try writeCassette(
            [textEntry(url, "first"), textEntry(url + "/other", "x"), textEntry(url, "second")],
            to: file
        )
        let handler = try ReplayHandler(cassette: file, mode: .none, allowPlaybackRepeats: false)
        #expect(!handler.allowPlaybackRepeats)
        let transport = CountingTransport()
        let harness = PipelineHarness(handlers: [handler], transport: transport)
        #expect(try await harness.send(try makeRequest(url)).text == "first")
        #expect(try await harness.send(try makeRequest(url)).text == "second")
        let error = await #expect(throws: URLError.self) { try await harness.send(try makeRequest(url)) }
        #expect(error?.code == .resourceUnavailable)
        let message = error?.localizedDescription ?? ""
        #expect(
            message
                == "cassette once.har: GET http://127.0.0.1:9/n matches only entries 0 and 2, each played already, "
                + "and playback repeats are off (allowPlaybackRepeats false, record mode none)",
            "\(message)"
        )
        #expect(error?.failingURL?.absoluteString == url)
        #expect(transport.requests.isEmpty)
        #expect(handler.refusals == [message])
    }

    @Test("a single played entry is named alone, and the refusal is annotated and answered by the cassette")
    func singleEntryRefusal() async throws {
        let folder = try TemporaryFolder()
        let file = folder.file("single.har")
        try writeCassette([textEntry("http://127.0.0.1:9/a", "a")], to: file)
        let handler = try ReplayHandler(cassette: file, mode: .once, allowPlaybackRepeats: false)
        let harness = PipelineHarness(handlers: [handler])
        _ = try await harness.send(try makeRequest("http://127.0.0.1:9/a"))
        let error = await #expect(throws: URLError.self) {
            try await harness.send(try makeRequest("http://127.0.0.1:9/a"))
        }
        #expect(error?.localizedDescription.contains("matches only entry 0, played already") == true)
        #expect(error?.localizedDescription.contains("record mode once") == true)
    }

    @Test("by default the last matching entry answers again, as before")
    func repeatsOnByDefault() async throws {
        let folder = try TemporaryFolder()
        let file = folder.file("default.har")
        try writeCassette([textEntry("http://127.0.0.1:9/a", "a1"), textEntry("http://127.0.0.1:9/a", "a2")], to: file)
        let handler = try ReplayHandler(cassette: file, mode: .none)
        #expect(handler.allowPlaybackRepeats)
        let harness = PipelineHarness(handlers: [handler])
        var texts: [String] = []
        for _ in 0..<4 { texts.append(try await harness.send(try makeRequest("http://127.0.0.1:9/a")).text) }
        #expect(texts == ["a1", "a2", "a2", "a2"])
        #expect(handler.refusals.isEmpty)
    }

    @Test("with repeats off in newEpisodes, a repeated request is recorded from the network and appended")
    func repeatsOffRecordsInNewEpisodes() async throws {
        let folder = try TemporaryFolder()
        let file = folder.file("episodes.har")
        try writeCassette([textEntry("http://127.0.0.1:9/a", "recorded")], to: file)
        let handler = try ReplayHandler(cassette: file, mode: .newEpisodes, allowPlaybackRepeats: false)
        let transport = CountingTransport()
        let harness = PipelineHarness(handlers: [handler], transport: transport)
        #expect(try await harness.send(try makeRequest("http://127.0.0.1:9/a")).text == "recorded")
        #expect(try await harness.send(try makeRequest("http://127.0.0.1:9/a")).text == "GET /a #1")
        try await handler.flush()
        let entries = try Cassette.load(contentsOf: file).entries
        #expect(entries.map(\.request.url) == ["http://127.0.0.1:9/a", "http://127.0.0.1:9/a"])
        #expect(entries.last?.response.content.text == "GET /a #1")
    }

    @Test("unplayedEntries lists the loaded entries no request replayed, with their JSON paths, in order")
    func unplayedEntries() async throws {
        let folder = try TemporaryFolder()
        let file = folder.file("unplayed.har")
        var failed = textEntry("http://127.0.0.1:9/failed", "")
        failed.response.status = 0
        try writeCassette(
            [
                textEntry("http://127.0.0.1:9/a", "a"), failed,
                textEntry("http://127.0.0.1:9/b", "b", method: "POST", started: "2024-02-03T04:05:06.789Z"),
                textEntry("http://127.0.0.1:9/c", "c"),
            ],
            to: file
        )
        let handler = try ReplayHandler(cassette: file, mode: .none)
        #expect(handler.unplayedEntries.map(\.index) == [0, 2, 3])
        let harness = PipelineHarness(handlers: [handler])
        _ = try await harness.send(try makeRequest("http://127.0.0.1:9/c"))
        _ = try await harness.send(try makeRequest("http://127.0.0.1:9/a"))
        let unplayed = handler.unplayedEntries
        #expect(unplayed.map(\.index) == [2])
        #expect(unplayed.first?.jsonPath == "$.log.entries[2]")
        #expect(
            unplayed.first?.description
                == "$.log.entries[2]: POST http://127.0.0.1:9/b (recorded 2024-02-03T04:05:06.789Z)"
        )
    }

    @Test("a mode that replays nothing has no unplayed entries", arguments: [RecordMode.all, .once])
    func nothingLoadedNothingUnplayed(mode: RecordMode) throws {
        let folder = try TemporaryFolder()
        let file = folder.file("c.har")
        if mode == .all { try writeCassette([textEntry("http://127.0.0.1:9/a", "a")], to: file) }
        #expect(try ReplayHandler(cassette: file, mode: mode).unplayedEntries.isEmpty)
    }

    @Test("concurrent identical requests with repeats off each get their own entry, and the rest are refused")
    func concurrentRequestsTakeDistinctEntries() async throws {
        let folder = try TemporaryFolder()
        let file = folder.file("concurrent.har")
        let url = "http://127.0.0.1:9/n"
        try writeCassette((0..<8).map { textEntry(url, "answer \($0)") }, to: file)
        let handler = try ReplayHandler(cassette: file, mode: .none, allowPlaybackRepeats: false)
        let harness = PipelineHarness(handlers: [handler])
        let texts = await withTaskGroup(of: String?.self) { group in
            for _ in 0..<12 { group.addTask { try? await harness.send(try makeRequest(url)).text } }
            var texts: [String?] = []
            for await text in group { texts.append(text) }
            return texts
        }
        #expect(Set(texts.compactMap { $0 }) == Set((0..<8).map { "answer \($0)" }))
        #expect(texts.filter { $0 == nil }.count == 4)
        #expect(handler.unplayedEntries.isEmpty)
    }
}
