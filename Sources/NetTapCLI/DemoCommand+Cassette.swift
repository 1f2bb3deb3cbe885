import Foundation
import NetTapCore
import NetTapHAR
import NetTapReplay

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension DemoCommand {
    /// The requests the record / replay pass records into the cassette, then replays from it.
    package static let cassetteSteps: [Step] = [
        Step(caller: .async, method: "GET", url: baseURL + "/v1/profile"),
        Step(caller: .completionHandler, method: "GET", url: baseURL + "/v1/items?page=1"),
        Step(caller: .delegate, method: "GET", url: baseURL + "/v1/avatar.png"),
        Step(caller: .async, method: "GET", url: baseURL + "/v1/reports/daily"),
    ]

    /// The request the replay pass sends that the cassette does not hold: it must fail.
    package static let unrecordedStep = Step(caller: .async, method: "GET", url: baseURL + "/v1/items?page=2")

    /// What the record / replay pass produced.
    package struct CassetteRun: Sendable {
        /// Each request of ``DemoCommand/cassetteSteps`` while recording (answered by the HAR responder).
        package var recorded: [Row]
        /// The same requests replayed from the cassette alone.
        package var replayed: [Row]
        /// ``DemoCommand/unrecordedStep`` sent to the cassette alone.
        package var unrecorded: Row
        /// The number of HAR entries the cassette file holds after recording.
        package var entryCount: Int

        /// Whether a replayed request received exactly what it received while recording: status and body bytes.
        ///
        /// - Parameter index: The index in ``recorded`` and ``replayed``.
        /// - Returns: `true` when both the status and every body byte are equal.
        package func isSameAsRecorded(_ index: Int) -> Bool {
            let before = recorded[index]
            let after = replayed[index]
            return before.error == nil && after.error == nil && before.statusCode == after.statusCode
                && before.data == after.data
        }

        /// The one-line message of the unrecorded request's error: what the caller's `URLError` says, or the
        /// capture's message when the caller's error has no description.
        package var unrecordedMessage: String? {
            guard let error = unrecorded.error else { return nil }
            let description = (error as NSError).userInfo[NSLocalizedDescriptionKey] as? String
            return description ?? unrecorded.transaction?.error?.message ?? error.localizedDescription
        }
    }

    /// Records ``cassetteSteps`` into a cassette with a `ReplayHandler` in `.all` mode in front of the HAR
    /// responder, then replays them with a `ReplayHandler` in `.none` mode as the only handler, and sends
    /// ``unrecordedStep``, which the cassette cannot answer.
    ///
    /// - Parameters:
    ///   - document: The capture the HAR responder answers from (the demo's stand-in for a server).
    ///   - cassetteURL: The cassette file; replaced.
    ///   - cassettePath: The path as typed, for error lines.
    ///   - interceptor: The interceptor to send through; its handlers are replaced.
    /// - Returns: What each pass received.
    /// - Throws: ``CLIError`` (exit 1) naming `--cassette` when the cassette cannot be written or read back.
    package static func runRecordReplay(
        answeringFrom document: HARDocument,
        cassette cassetteURL: URL,
        typedAs cassettePath: String,
        through interceptor: NetTapInterceptor
    ) async throws(CLIError) -> CassetteRun {
        let input = "--cassette \(Formatting.quoted(cassettePath))"
        let recorder: ReplayHandler
        do {
            recorder = try ReplayHandler(cassette: cassetteURL, mode: .all)
        } catch {
            throw CLIError.failure(command: "demo", input: input, message: "\(error)")
        }
        interceptor.handlers = [recorder, HARResponder(document: document, name: responderName)]
        var recorded: [Row] = []
        for step in cassetteSteps {
            recorded.append(await send(step, through: interceptor))
        }
        do {
            try await recorder.flush()
        } catch {
            throw CLIError.failure(
                command: "demo",
                input: input,
                message: Formatting.unwritableFileReason(cassetteURL, error: error)
            )
        }

        let player: ReplayHandler
        let entryCount: Int
        do {
            player = try ReplayHandler(cassette: cassetteURL, mode: .none)
            entryCount = try Cassette.load(contentsOf: cassetteURL).entries.count
        } catch {
            throw CLIError.failure(command: "demo", input: input, message: "\(error)")
        }
        interceptor.handlers = [player]
        var replayed: [Row] = []
        for step in cassetteSteps {
            replayed.append(await send(step, through: interceptor))
        }
        let unrecorded = await send(unrecordedStep, through: interceptor)
        return CassetteRun(recorded: recorded, replayed: replayed, unrecorded: unrecorded, entryCount: entryCount)
    }

    /// The record / replay table: request, who answered while recording, who answered the replay, the replayed
    /// status and bytes, and whether the replay is byte-identical to the recording.
    ///
    /// - Parameter run: The pass's results.
    /// - Returns: Lines ending with a newline.
    package static func cassetteTable(_ run: CassetteRun) -> String {
        var table = TextTable(
            headings: ["#", "REQUEST", "RECORDED FROM", "REPLAYED BY", "STATUS", "BYTES", "SAME AS RECORDED"],
            alignments: [.right, .left, .left, .left, .right, .right, .left]
        )
        for (index, (before, after)) in zip(run.recorded, run.replayed).enumerated() {
            let status = after.statusCode.map { "\($0)" } ?? "ERR \(after.error.map { "\($0.errorCode)" } ?? "")"
            table.rows.append([
                "\(index + 1)", "\(after.method) \(pathAndQuery(after.url))", before.answeredBy, after.answeredBy,
                status, "\(after.byteCount)", run.isSameAsRecorded(index) ? "yes" : "no",
            ])
        }
        return table.rendered
    }

    /// The path and query of a URL as typed, for example `/v1/items?page=1`.
    static func pathAndQuery(_ url: String) -> String {
        guard url.hasPrefix(baseURL) else { return url }
        return String(url.dropFirst(baseURL.count))
    }
}
