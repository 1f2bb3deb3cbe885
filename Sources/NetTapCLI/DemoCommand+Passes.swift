import Foundation
import NetTapCore
import NetTapHAR
import NetTapMocking

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The demo's passes, in the order ``DemoCommand/run(in:)`` runs them; each prints what it shows and its table.
extension DemoCommand {
    /// The first pass: every step (and the upstream's, with `--upstream`) answered by the HAR responder; prints
    /// the table, the summary and each redirect, and writes the HAR.
    ///
    /// - Returns: The rows and the HAR written.
    /// - Throws: ``CLIError`` when the HAR file cannot be written.
    func runCapturePass(
        _ document: HARDocument,
        in environment: CommandEnvironment
    ) async throws(CLIError) -> (rows: [Row], har: HARDocument) {
        let output = environment.standardOutput
        output.write(
            "NetTap demo: real URLSession requests to \(Self.baseURL), answered by NetTap from the bundled "
                + "demo.har (\(document.log.entries.count) entries)\n\n"
        )
        var steps = Self.steps
        if let upstream {
            steps.append(Step(caller: .async, method: "GET", url: upstream.absoluteString))
            steps.append(
                Step(caller: .completionHandler, method: "POST", url: upstream.absoluteString, body: #"{"demo":true}"#)
            )
        }
        var rows: [Row] = []
        for step in steps { rows.append(await Self.send(step, through: environment.interceptor)) }
        output.write(Self.table(rows))
        output.write("\n" + Self.summary(rows) + "\n")
        for row in rows {
            guard let transaction = row.transaction, let hop = transaction.redirects.first,
                let final = transaction.response
            else { continue }
            output.write(
                "Redirect: \(hop.url.absoluteString) answered \(hop.statusCode); NetTap followed it to "
                    + "\(final.url.absoluteString) and the caller received the final \(final.statusCode).\n"
            )
        }
        let har = HARDocument(transactions: rows.compactMap(\.transaction))
        let data: Data
        do {
            data = try har.encoded()
        } catch {
            throw CLIError.failure(command: "demo", input: "--har \(Formatting.quoted(harPath))", message: "\(error)")
        }
        try write(data, to: harPath, option: "--har", in: environment)
        return (rows, har)
    }

    /// The scenario pass: the cart request once per scenario of the bundled mocks.
    ///
    /// - Throws: ``CLIError`` when a scenario cannot be activated.
    static func runScenarioPass(_ mocks: MockConfiguration, in environment: CommandEnvironment) async throws(CLIError) {
        environment.standardOutput.write(
            "\nScenario switch: \(cartStep.method) \(cartStep.url) once per scenario of the bundled "
                + "\(mocksResourceName),\nswitched with mocks.activate(scenario:) before each send; "
                + "answered by MockHandler (\"mock\").\n\n"
        )
        let rows = try await runScenarioSwitch(mocks, through: environment.interceptor)
        environment.standardOutput.write(scenarioTable(rows))
    }

    /// The record / replay pass: recorded into the cassette, replayed from it alone, and one request it lacks.
    ///
    /// - Returns: What was recorded and replayed.
    /// - Throws: ``CLIError`` when the cassette cannot be written or read.
    func runCassettePass(
        _ document: HARDocument,
        in environment: CommandEnvironment
    ) async throws(CLIError)
        -> CassetteRun
    {
        let output = environment.standardOutput
        output.write(
            "\nRecord / replay: \(Self.cassetteSteps.count) requests recorded into a cassette by ReplayHandler "
                + "(record mode all) in\nfront of the HAR responder, then replayed by ReplayHandler (record mode "
                + "none) alone, with nothing\nelse to answer.\n\n"
        )
        let cassette = try await Self.runRecordReplay(
            answeringFrom: document,
            cassette: environment.fileURL(cassettePath),
            typedAs: cassettePath,
            through: environment.interceptor
        )
        output.write(Self.cassetteTable(cassette))
        let unrecorded = Self.unrecordedStep
        if let message = cassette.unrecordedMessage, let error = cassette.unrecorded.error {
            output.write(
                "\nNot in the cassette: \(unrecorded.method) \(unrecorded.url) failed with "
                    + "\(Formatting.errorSummary(error)):\n  \(message.replacingOccurrences(of: "\n", with: " "))\n"
            )
        } else {
            output.write(
                "\nNot in the cassette: \(unrecorded.method) \(unrecorded.url) was answered (status "
                    + "\(cassette.unrecorded.statusCode.map { "\($0)" } ?? "-")), but it should have failed.\n"
            )
        }
        return cassette
    }

    /// The shaping pass: one download unshaped, then shaped.
    ///
    /// - Returns: Whether both arrived with the same bytes.
    static func runShapingPass(in environment: CommandEnvironment) async -> Bool {
        let output = environment.standardOutput
        output.write(
            "\nShaping: \(shapingStep.method) \(shapingStep.url) (\(shapingBodySize) bytes from a "
                + "MockHandler stub) sent twice:\nunshaped, then with ShapingHandler first in the handler list. "
                + "MS is the caller's time to the last byte.\n\n"
        )
        let rows = await runShaping(through: environment.interceptor)
        output.write(shapingTable(rows))
        let sameBytes = shapingBytesMatch(rows)
        output.write("same bytes: \(sameBytes ? "yes" : "no")\n")
        output.write(shapingPresetLine + "\n")
        return sameBytes
    }

    /// The local files and integrity pass.
    ///
    /// - Returns: What was served.
    /// - Throws: ``CLIError`` when a bundled folder is missing.
    static func runLocalFilesPass(in environment: CommandEnvironment) async throws(CLIError) -> LocalFilesResult {
        let output = environment.standardOutput
        output.write(
            "\nLocal files and integrity: the bundled help pages served from \(webPrefix) by LocalFilesHandler;"
                + "\ntheir CDN widget answered by a MockHandler stub that tampers with it, behind an IntegrityHandler"
                + "\nthat checks the SHA-256 in the widget's file name and falls back to the bundled copy.\n\n"
        )
        let result = try await runLocalFiles(through: environment.interceptor)
        output.write(localFilesTable(result))
        output.write(integrityLines(result))
        return result
    }

    /// The findings pass: requests through the audit.
    ///
    /// - Returns: The findings per request.
    static func runFindingsPass(in environment: CommandEnvironment) async -> FindingsResult {
        environment.standardOutput.write(
            "\nFindings: \(findingSteps.count) requests through an AuditHandler (first party: "
                + "\(firstPartyHosts.joined(separator: ", "))) in front of\nMockHandler stubs; the audit only "
                + "looks, the app receives every byte unchanged.\n\n"
        )
        let findings = await runFindings(through: environment.interceptor)
        environment.standardOutput.write(findingsReport(findings))
        return findings
    }

    /// Writes one of the demo's files.
    ///
    /// - Parameters:
    ///   - data: The bytes.
    ///   - path: The path as typed.
    ///   - option: The option that names it, for the error.
    ///   - environment: The working directory.
    /// - Throws: ``CLIError`` naming the option and path when the file cannot be written.
    func write(_ data: Data, to path: String, option: String, in environment: CommandEnvironment) throws(CLIError) {
        let url = environment.fileURL(path)
        do {
            try data.write(to: url, options: .atomic)
        } catch {
            throw CLIError.failure(
                command: "demo",
                input: "\(option) \(Formatting.quoted(path))",
                message: Formatting.unwritableFileReason(url, error: error)
            )
        }
    }

    /// Fails the demo when a pass did not show what it should (after every file was written).
    ///
    /// - Throws: ``CLIError`` naming the first request that failed, a replay that differs, shaped bytes that
    ///   differ, a wrong local file, a rule the audit missed, or a cassette that answered what it lacks.
    func checkOutcomes(
        rows: [Row],
        cassette: CassetteRun,
        shapedBytesMatch: Bool,
        localFiles: LocalFilesResult,
        findings: FindingsResult
    ) throws(CLIError) {
        func fail(_ input: String, _ message: String) -> CLIError {
            CLIError.failure(command: "demo", input: input, message: message)
        }
        if let failed = rows.first(where: { $0.error != nil }), let error = failed.error {
            throw fail(failed.url, "request failed: \(Formatting.errorSummary(error))")
        }
        if let index = cassette.replayed.indices.first(where: { !cassette.isSameAsRecorded($0) }) {
            throw fail(cassette.replayed[index].url, "the replay from \(cassettePath) differs from the recording")
        }
        if !shapedBytesMatch {
            throw fail(Self.shapingStep.url, "the shaped download's bytes differ from the unshaped one's")
        }
        if !localFiles.isCorrect {
            throw fail(Self.webPrefix, "a local file or the widget's fallback did not arrive byte for byte")
        }
        if let index = findings.firstMissingRule {
            throw fail(findings.rows[index].url, "the audit did not report \(Self.findingSteps[index].expectedRule.id)")
        }
        if cassette.unrecorded.error == nil {
            throw fail(Self.unrecordedStep.url, "the cassette answered a request it does not hold")
        }
    }
}
