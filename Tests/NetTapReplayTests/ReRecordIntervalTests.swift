import Foundation
import NetTapCore
import NetTapHAR
import NetTapReplay
import NetTapTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("ReplayHandler: re-recording a cassette older than reRecordInterval")
struct ReRecordIntervalTests {
    /// 2024-03-01T00:00:00Z.
    static let now = Date(timeIntervalSince1970: 1_709_251_200)
    static let url = "http://127.0.0.1:9/a"

    /// A cassette whose entries were recorded on the given dates.
    private func cassette(in folder: TemporaryFolder, started: [String]) throws -> URL {
        let file = folder.file("aged.har")
        try writeCassette(started.map { textEntry(Self.url, "recorded", started: $0) }, to: file)
        return file
    }

    @Test("a cassette younger than the interval replays", arguments: [RecordMode.once, .newEpisodes, .none])
    func youngCassetteReplays(mode: RecordMode) async throws {
        let folder = try TemporaryFolder()
        // 29 days before `now`, interval 30 days.
        let file = try cassette(in: folder, started: ["2024-02-01T00:00:00Z"])
        let handler = try ReplayHandler(
            cassette: file,
            mode: mode,
            reRecordInterval: .seconds(30 * 86_400),
            now: Self.now
        )
        #expect(!handler.isExpired)
        let transport = CountingTransport()
        let result = try await PipelineHarness(handlers: [handler], transport: transport).send(
            try makeRequest(Self.url)
        )
        #expect(result.text == "recorded")
        #expect(transport.requests.isEmpty)
    }

    @Test("an expired cassette is recorded again and the file replaced", arguments: [RecordMode.once, .newEpisodes])
    func expiredCassetteIsRecordedAgain(mode: RecordMode) async throws {
        let folder = try TemporaryFolder()
        // The earliest entry decides: one entry is recent, the other 31 days old.
        let file = try cassette(in: folder, started: ["2024-02-29T00:00:00Z", "2024-01-30T00:00:00.000Z"])
        let handler = try ReplayHandler(
            cassette: file,
            mode: mode,
            reRecordInterval: .seconds(30 * 86_400),
            now: Self.now
        )
        #expect(handler.isExpired)
        #expect(handler.unplayedEntries.isEmpty)
        let transport = CountingTransport()
        let result = try await PipelineHarness(handlers: [handler], transport: transport).send(
            try makeRequest(Self.url)
        )
        #expect(result.text == "GET /a #1")
        #expect(transport.requests.count == 1)
        try await handler.flush()
        let entries = try Cassette.load(contentsOf: file).entries
        #expect(entries.count == 1)
        #expect(entries.first?.response.content.text == "GET /a #1")
        // The next run replays the new recording.
        let next = try ReplayHandler(cassette: file, mode: .none, reRecordInterval: .seconds(30 * 86_400))
        #expect(!next.isExpired)
    }

    @Test("in mode none an expired cassette still replays, with a note saying it is stale")
    func noneReplaysStaleCassette() async throws {
        let folder = try TemporaryFolder()
        let file = try cassette(in: folder, started: ["2023-01-01T00:00:00.000Z"])
        let handler = try ReplayHandler(
            cassette: file,
            mode: .none,
            reRecordInterval: .seconds(7 * 86_400),
            now: Self.now
        )
        #expect(handler.isExpired)
        let result = try await PipelineHarness(handlers: [handler]).send(try makeRequest(Self.url))
        #expect(result.text == "recorded")
        #expect(
            result.annotations["cassette.note"]
                == "replayed from a cassette recorded 2023-01-01T00:00:00Z, older than reRecordInterval 7 days; "
                + "record mode none does not record it again"
        )
    }

    @Test("the age comes from the recorded dates, not the file's modification date")
    func ageFromRecordedDates() throws {
        let folder = try TemporaryFolder()
        let file = try cassette(in: folder, started: ["2024-02-28T00:00:00Z"])
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: 0)],
            ofItemAtPath: file.path
        )
        let handler = try ReplayHandler(cassette: file, reRecordInterval: .seconds(7 * 86_400), now: Self.now)
        #expect(!handler.isExpired)
        let old = try cassette(in: folder, started: ["2020-01-01T00:00:00Z"])
        #expect(try ReplayHandler(cassette: old, reRecordInterval: .seconds(7 * 86_400), now: Self.now).isExpired)
    }

    @Test("without an interval, or without an entry, a cassette never expires")
    func neverExpires() throws {
        let folder = try TemporaryFolder()
        let old = try cassette(in: folder, started: ["2001-01-01T00:00:00Z"])
        #expect(!(try ReplayHandler(cassette: old, now: Self.now).isExpired))
        let empty = try cassette(in: folder, started: [])
        #expect(!(try ReplayHandler(cassette: empty, reRecordInterval: .seconds(1), now: Self.now).isExpired))
    }

    @Test("nettap.json's cassette section reads allowPlaybackRepeats and reRecordIntervalDays")
    func configuration() throws {
        let folder = try TemporaryFolder()
        let config = folder.file("nettap.json")
        try Data(
            #"{"cassette": {"path": "c.har", "allowPlaybackRepeats": false, "reRecordIntervalDays": 1.5}}"#.utf8
        ).write(to: config)
        let handler = try ReplayHandler.load(contentsOf: config)
        #expect(!handler.allowPlaybackRepeats)
        #expect(handler.reRecordInterval == .seconds(129_600))
        try Data(#"{"cassette": {"path": "c.har"}}"#.utf8).write(to: config)
        let defaults = try ReplayHandler.load(contentsOf: config)
        #expect(defaults.allowPlaybackRepeats)
        #expect(defaults.reRecordInterval == nil)
    }

    @Test(
        "a bad allowPlaybackRepeats or reRecordIntervalDays names the file and the JSON path",
        arguments: [
            (
                #"{"cassette": {"path": "c.har", "reRecordIntervalDays": 0}}"#, "$.cassette.reRecordIntervalDays",
                "above 0"
            ),
            (
                #"{"cassette": {"path": "c.har", "reRecordIntervalDays": "7d"}}"#, "$.cassette.reRecordIntervalDays",
                "number"
            ),
            (
                #"{"cassette": {"path": "c.har", "allowPlaybackRepeats": "no"}}"#, "$.cassette.allowPlaybackRepeats",
                "boolean"
            ),
            (#"{"cassette": {"path": "c.har", "allowPlaybackRepeat": true}}"#, "$.cassette", "allowPlaybackRepeats"),
        ]
    )
    func badConfiguration(json: String, path: String, words: String) throws {
        let folder = try TemporaryFolder()
        let config = folder.file("nettap.json")
        try Data(json.utf8).write(to: config)
        let error = #expect(throws: ConfigurationError.self) { try ReplayHandler.load(contentsOf: config) }
        let text = error.map { "\($0)" } ?? ""
        #expect(text.contains("nettap.json"), "\(text)")
        #expect(text.contains(path), "\(text)")
        #expect(text.contains(words), "\(text)")
    }
}
