import Foundation
import NetTapCore
import NetTapHAR

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A handler that answers requests from a cassette (a HAR 1.2 file) and records new ones into it, in the
/// manner of VCR, vcrpy and Polly.JS.
///
/// **Replay.** A request is redacted with ``redactor`` and compared (``matching``) with the loaded entries,
/// redacted the same way, so a secret recorded as `[redacted]` still matches; repeated identical requests take
/// the matching entries in recorded order, and then the last one answers again, or, with
/// ``allowPlaybackRepeats`` off, none does. The answer has the entry's status, headers and decoded body, and the
/// transaction is answered by ``name``. An entry without a response (status 0) that recorded a network failure
/// (NetTap's `_netTap.error`, Chrome's `_error`: offline, refused, DNS, reset, timed out) fails the request with
/// that `URLError`, worded as the platform words the real one. In a mode that does not record, a request no entry
/// matches (or only entries already played, with repeats off) fails with `URLError(.resourceUnavailable)` naming
/// the closest entry, without reaching the network. ``unplayedEntries`` lists the entries no request used.
///
/// **Record.** The response is passed to the caller unchanged while a copy of up to ``bodyByteLimit`` bytes is
/// kept; when the body ends, the transaction is redacted, turned into HAR entries and handed to the `writer`.
/// Failed or cancelled requests are not recorded. Call ``flush()`` to write what was recorded. A cassette older
/// than ``reRecordInterval`` (by its earliest entry's `startedDateTime`) is recorded again when the mode records.
///
/// ```swift
/// let cassette = try ReplayHandler(cassette: fixtures.appendingPathComponent("login.har"), mode: .once)
/// interceptor.handlers = [cassette]
/// // … run the code under test …
/// try await cassette.flush()
/// ```
///
/// Thread safety: one handler may serve concurrent requests.
///
/// The replay and record rules in full are in the “Cassettes” article of the NetTap documentation.
public struct ReplayHandler: TransactionHandler {
    /// The default handler name, `cassette`.
    public static let defaultName = "cassette"
    /// The annotation key holding why a request was refused in a mode that does not record (no entry matched).
    public static let unmatchedAnnotation = "cassette.unmatched"
    /// The default per-body byte limit of recordings: 16 MiB.
    public static let defaultBodyByteLimit = 16 * 1024 * 1024

    /// The handler's name, shown as the transaction's `answeredBy` for replayed requests.
    public let name: String
    /// The cassette file.
    public let fileURL: URL
    /// The record mode.
    public let mode: RecordMode
    /// How requests are matched with entries.
    public let matching: CassetteMatching
    /// Whether the last matching entry answers again once every matching entry was played (vcrpy's
    /// `allow_playback_repeats`); when `false`, each entry plays at most once.
    public let allowPlaybackRepeats: Bool
    /// The age after which a cassette is recorded again, or `nil` for never.
    public let reRecordInterval: Duration?
    /// Whether the loaded cassette was older than ``reRecordInterval`` when the handler was created: its entries
    /// are then not replayed and the file is replaced by this run's recordings, unless the mode is
    /// ``RecordMode/none``, which replays it anyway.
    public var isExpired: Bool { age.isExpired }
    /// What is redacted before writing and before matching.
    public let redactor: Redactor
    /// The most bytes of each request and response body a recording keeps.
    public let bodyByteLimit: Int
    /// Whether the cassette file existed when the handler was created.
    public let fileExisted: Bool
    /// The writer of recorded entries.
    package let writer: CassetteWriter
    let index: CassetteIndex
    /// The values this handler's recordings redacted, swept from later recordings wherever they reappear.
    let secrets = CaptureSecrets()
    /// Whether loaded entries answer requests (the mode replays, and the cassette is not being recorded again).
    let replaysEntries: Bool
    /// Whether a request no entry answers is sent on and recorded.
    let recordsRequests: Bool
    /// How old the loaded cassette is, for notes.
    let age: CassetteAge
    /// Why requests were refused, oldest first: the newest ``refusalLimit``.
    let refusalLog = Locked<[String]>([])

    /// Creates a handler for a cassette file, reading it when it exists.
    ///
    /// - Parameters:
    ///   - fileURL: The cassette's file URL (`.har`).
    ///   - mode: When to replay and when to record; ``RecordMode/once`` by default.
    ///   - matching: How requests match entries; method and URL by default.
    ///   - allowPlaybackRepeats: Whether the last matching entry answers again after every matching entry was
    ///     played; `true` by default. When `false`, a request whose entries were all played is recorded when the
    ///     mode records, and fails with `URLError(.resourceUnavailable)` otherwise.
    ///   - reRecordInterval: The age after which the cassette is recorded again, measured from its earliest
    ///     entry's `startedDateTime` to `now`; `nil` (the default) never. An expired cassette is treated as a
    ///     missing file: in ``RecordMode/once`` and ``RecordMode/newEpisodes`` nothing is replayed and the file is
    ///     replaced by this run's recordings; ``RecordMode/none`` still replays it (see ``isExpired``).
    ///   - redactor: What is redacted; `Redactor/default` by default. The cassette's `creator.comment` records
    ///     it: `{"redaction": "on"}`, or `{"redaction": "off"}` for `Redactor.disabled`.
    ///   - bodyByteLimit: The most bytes of each body a recording keeps; 16 MiB by default.
    ///   - name: The handler name; `cassette` by default.
    ///   - now: The current date, for the age check; `Date()` by default (a test passes a fixed date).
    /// - Throws: `HARError` naming the file and the JSON path when the file exists but is not a HAR document.
    /// - Complexity: O(size of the cassette).
    public init(
        cassette fileURL: URL,
        mode: RecordMode = .once,
        matching: CassetteMatching = .default,
        allowPlaybackRepeats: Bool = true,
        reRecordInterval: Duration? = nil,
        redactor: Redactor = .default,
        bodyByteLimit: Int = ReplayHandler.defaultBodyByteLimit,
        name: String = ReplayHandler.defaultName,
        now: Date = Date()
    ) throws(HARError) {
        let exists = FileManager.default.fileExists(atPath: fileURL.path)
        var loaded = exists && mode != .all ? try Cassette.load(contentsOf: fileURL) : Cassette()
        let age = CassetteAge(entries: loaded.entries, interval: reRecordInterval, now: now)
        // An expired cassette is recorded again as if it were missing; `none` never records, so it replays it.
        let reRecords = age.isExpired && mode != .none
        if reRecords { loaded = Cassette() }
        // What this handler writes says whether it was redacted (`{"redaction": "off"}` for Redactor.disabled).
        loaded.document.log.creator = loaded.document.log.creator.recordingRedaction(redactor.isEnabled)
        self.name = name
        self.fileURL = fileURL
        self.mode = mode
        self.matching = matching
        self.allowPlaybackRepeats = allowPlaybackRepeats
        self.reRecordInterval = reRecordInterval
        self.age = age
        self.redactor = redactor
        self.bodyByteLimit = max(0, bodyByteLimit)
        self.fileExisted = exists
        replaysEntries = mode.replays(fileExists: exists && !reRecords)
        recordsRequests = mode.records(fileExists: exists && !reRecords)
        self.index = CassetteIndex(entries: replaysEntries ? loaded.entries : [], redactor: redactor)
        self.writer = CassetteWriter(fileURL: fileURL, cassette: loaded)
    }

    /// Answers from the cassette, records through `next`, or fails, as ``mode`` says.
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - context: The transaction's context.
    ///   - next: The rest of the pipeline, called only to record.
    /// - Returns: The replayed response, or the live response with its body teed into the recording.
    /// - Throws: The recorded network failure of a status-0 entry; `URLError(.resourceUnavailable)` when no entry
    ///   matches (or, with ``allowPlaybackRepeats`` off, every matching entry was played) and the mode does not
    ///   record (its description names the cassette file, the request and the closest entry with the differences,
    ///   or the entries already played); what `next` throws while recording.
    /// - Complexity: O(entries sharing the request's method, origin and path) to match.
    public func handle(_ request: URLRequest, context: TransactionContext, next: Next) async throws -> HandlerResponse {
        let incoming = redactor.redact(request: Self.capture(request, limit: Int.max)).value
        var played: [CassetteIndex.Recorded] = []
        if replaysEntries {
            switch index.take(incoming, matching: matching, allowRepeats: allowPlaybackRepeats) {
            case .entry(let recorded): return try replay(recorded, for: request, context: context)
            case .exhausted(let entries): played = entries
            case .none: break
            }
        }
        guard recordsRequests else {
            let explanation =
                played.isEmpty ? explainUnmatched(incoming) : explainExhausted(incoming, played: played)
            throw refuse(request, explanation: explanation, context: context)
        }
        return try await record(request, context: context, next: next)
    }

    /// Waits until every recorded entry is written to the cassette file.
    ///
    /// - Throws: The last write's error (`EncodingError`, `CocoaError`, `POSIXError`).
    public func flush() async throws {
        try await writer.flush()
    }

    /// The recorded response, or the recorded network failure, worded as the platform words it.
    private func replay(
        _ recorded: CassetteIndex.Recorded,
        for request: URLRequest,
        context: TransactionContext
    ) throws -> HandlerResponse {
        let url = request.url ?? recorded.request.url
        context.answer(by: name)
        context.annotate("cassette.entry", String(recorded.index))
        if let failure = recorded.failure {
            throw SimulatedFailure.replayedError(failure, url: url, recordedMessage: recorded.failureMessage)
        }
        var notes: [String] = []
        if let note = recorded.entry.response.content.comment, note.hasPrefix("body truncated") {
            notes.append("replayed a recording with its " + note)
        }
        if isExpired { notes.append(age.staleReplayNote(mode: mode)) }
        if !notes.isEmpty { context.annotate("cassette.note", notes.joined(separator: "; ")) }
        return recorded.response(url: url)
    }

    /// The request as a captured value, its body kept up to `limit` bytes.
    static func capture(_ request: URLRequest, limit: Int) -> CapturedRequest {
        let body = request.httpBody.map {
            CapturedBody(data: Data($0.prefix(limit)), totalByteCount: Int64($0.count))
        }
        return CapturedRequest(
            method: request.httpMethod ?? "GET",
            url: request.url ?? URL(fileURLWithPath: "/"),
            headers: HeaderFields(request.allHTTPHeaderFields ?? [:]),
            body: body
        )
    }
}

/// Starts on URLSession's queue: its synchronous part neither calls URLSession nor blocks.
extension ReplayHandler: StartsInline {}
