import Foundation
import NetTapCore
import NetTapHAR

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `nettap demo`: shows NetTap at work without any network.
///
/// Installs a `HARResponder` over the bundled `demo.har` (a small handwritten capture of the fictional
/// API `https://api.nettap.example`) as the interceptor's only handler, sends real URLSession requests in
/// all three caller styles (``DemoCaller``), prints a table of what each caller received and who answered,
/// and writes the capture as a HAR 1.2 file.
///
/// Redirects: the 301 that the HAR answers for `/v1/me` is followed inside NetTap, as a network redirect would
/// be, so the caller receives the final 200 of `/v1/profile`; the capture records the hop.
///
/// With `--upstream URL` it also sends a GET and a POST to that server through NetTap's forwarding transport
/// (answered by `network`).
package struct DemoCommand: Command {
    /// ``ConfigurationUse/apply``: the command sends requests, so `--config FILE` is applied to its interceptor.
    package static var configurationUse: ConfigurationUse { .apply }

    /// The command's description.
    package static let spec = CommandSpec(
        name: "demo",
        summary: "Sends real URLSession requests through NetTap, answered from a bundled HAR; no network needed.",
        options: [
            OptionSpec(
                names: ["--upstream"],
                valueName: "URL",
                help: "Also sends a live GET and POST to URL through NetTap (for example httpbin's /anything)."
            ),
            OptionSpec(
                names: ["--har"],
                valueName: "OUT",
                help: "Where to write the HAR capture; nettap-demo.har by default."
            ),
            OptionSpec(
                names: ["--cassette"],
                valueName: "PATH",
                help: "Where to record the cassette (replaced); nettap-demo-cassette.har beside the HAR by default."
            ),
            OptionSpec(
                names: ["--mocks"],
                valueName: "OUT",
                help:
                    "Where to write a copy of the demo's mocks file; nettap-demo-mocks.json beside the HAR by default."
            ),
            OptionSpec(
                names: ["--store"],
                valueName: "OUT",
                help:
                    "Where to write the SQLite store of every demo request (an earlier demo store there is "
                    + "replaced); nettap-demo.sqlite beside the HAR by default."
            ),
            OptionSpec(
                names: ["--html"],
                valueName: "OUT",
                help: "Where to write the HTML report of the store; nettap-demo.html beside the HAR by default."
            ),
        ],
        discussion: """
            Every request to https://api.nettap.example is answered by NetTap's HAR responder from the bundled
            demo.har; nothing leaves the process unless --upstream is given. The 301 of /v1/me is followed
            inside NetTap, like a network redirect: the caller receives the final response, and the capture
            records the hop.

            Then more passes, still without network:
            - Scenario switch: GET /v1/cart once per scenario of the bundled demo-mocks.json (the
              MockConfiguration JSON format), switched at runtime with MockSet.activate(scenario:) and
              answered by MockHandler.
            - Record / replay: a few requests recorded into a cassette (a HAR file) by a ReplayHandler in
              front of the HAR responder, then replayed by a ReplayHandler in record mode "none" alone; the
              replies must be byte-identical, and a request the cassette does not hold must fail.
            - Shaping: a 64 KiB download answered by a MockHandler stub, sent unshaped and then through a
              ShapingHandler with the 3G preset (NetworkProfile.threeG); the bytes must be identical.
            - Local files and integrity: the bundled help pages served from http://localhost:1000/ by a
              LocalFilesHandler (index.html for directories, a redirect for /docs, a 404), and their CDN
              widget, tampered on the way by a stub, replaced by its bundled copy by an IntegrityHandler that
              checks the SHA-256 in the file name; the finding is printed.
            - Findings: an AuditHandler in front of stubs sees a login over plain http that sets a cookie, a
              password in a query, an e-mail address sent to a tracker, an AWS key id in a query and a 600 KiB
              banner image; each finding is printed with its severity and place, and the capture shows the
              secrets redacted.

            Every request of every pass is also kept in a TransactionStore (SQLite) at --store, read back at
            the end and rendered to a self-contained HTML report at --html; both paths are printed.

            --config FILE applies the file's scope, capture limits and store to the demo's interceptor (with a
            store section, every demo request is stored for 'nettap query'); each pass sets its own handlers,
            so the file's mocks, cassette, shaping, files, integrity, cache and audit sections are not used.

            Exit codes: 0 success, 1 an upstream request failed, a replay differed from its recording, the
            shaped download's bytes differed, a local file or the widget's fallback did not arrive byte for
            byte, a findings request did not trip its rule, a file at --store is not a NetTap store, or a file
            could not be written, 2 usage error.
            """
    )

    /// The name the HAR responder answers under, shown in the table's ANSWERED BY column.
    package static let responderName = "demo.har"

    /// The fictional API the bundled capture describes.
    package static let baseURL = "https://api.nettap.example"

    /// One request the demo sends.
    package struct Step: Sendable, Hashable {
        /// The caller style.
        package var caller: DemoCaller
        /// The method.
        package var method: String
        /// The URL.
        package var url: String
        /// The JSON body, if any.
        package var body: String?
    }

    /// One row of the demo's table: a request and what came of it.
    package struct Row: Sendable {
        /// The caller style that sent it.
        package var caller: DemoCaller
        /// The method.
        package var method: String
        /// The URL.
        package var url: String
        /// The status the caller received, or `nil` when the request failed.
        package var statusCode: Int?
        /// The number of body bytes the caller received.
        package var byteCount: Int { data.count }
        /// The body bytes the caller received.
        package var data: Data
        /// The transaction's duration in milliseconds, from NetTap's capture.
        package var milliseconds: Double?
        /// Who answered (`CapturedTransaction/answeredBy`), or `?` when the capture is missing.
        package var answeredBy: String
        /// The error the caller received, if any.
        package var error: URLError?
        /// The captured transaction.
        package var transaction: CapturedTransaction?
    }

    /// The requests to the bundled API, in the order they are sent.
    package static let steps: [Step] = [
        Step(caller: .async, method: "GET", url: baseURL + "/v1/profile"),
        Step(caller: .async, method: "GET", url: baseURL + "/v1/items?page=1"),
        Step(
            caller: .completionHandler,
            method: "POST",
            url: baseURL + "/v1/login",
            body: #"{"user":"ada","password":"correct horse"}"#
        ),
        Step(
            caller: .completionHandler,
            method: "PUT",
            url: baseURL + "/v1/items/42",
            body: #"{"title":"Pencil","done":true}"#
        ),
        Step(caller: .completionHandler, method: "DELETE", url: baseURL + "/v1/items/42"),
        Step(caller: .delegate, method: "GET", url: baseURL + "/v1/items/999"),
        Step(caller: .delegate, method: "GET", url: baseURL + "/v1/reports/daily"),
        Step(caller: .delegate, method: "GET", url: baseURL + "/v1/avatar.png"),
        Step(caller: .async, method: "GET", url: baseURL + "/v1/me"),
        Step(caller: .async, method: "GET", url: baseURL + "/v1/items?page=2"),
    ]

    /// The upstream server, when given.
    package var upstream: URL?
    /// Where to write the HAR, as typed.
    package var harPath: String
    /// Where to record the cassette, as typed.
    package var cassettePath: String
    /// Where to write the copy of the mocks file, as typed.
    package var mocksPath: String
    /// Where to write the SQLite store of every demo request, as typed.
    package var storePath: String
    /// Where to write the HTML report of the store, as typed.
    package var reportPath: String

    /// Creates the command from parsed arguments.
    ///
    /// - Parameter arguments: Parsed with ``spec``.
    /// - Throws: A usage ``CLIError`` when `--upstream` is not an absolute http(s) URL.
    package init(arguments: ParsedArguments) throws(CLIError) {
        if let text = arguments.value("--upstream") {
            guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
                !(url.host ?? "").isEmpty
            else {
                throw CLIError.usage(
                    command: "demo",
                    input: "--upstream \(Formatting.quoted(text))",
                    message: "must be an absolute http or https URL"
                )
            }
            upstream = url
        } else {
            upstream = nil
        }
        harPath = arguments.value("--har") ?? "nettap-demo.har"
        cassettePath = arguments.value("--cassette") ?? Self.sibling(of: harPath, named: "nettap-demo-cassette.har")
        mocksPath = arguments.value("--mocks") ?? Self.sibling(of: harPath, named: "nettap-demo-mocks.json")
        storePath = arguments.value("--store") ?? Self.sibling(of: harPath, named: "nettap-demo.sqlite")
        reportPath = arguments.value("--html") ?? Self.sibling(of: harPath, named: "nettap-demo.html")
    }

    /// A file named `name` in the folder of `path`, as the user would type it.
    static func sibling(of path: String, named name: String) -> String {
        let folder = (path as NSString).deletingLastPathComponent
        return folder.isEmpty ? name : (folder as NSString).appendingPathComponent(name)
    }

    /// Runs the demo: installs the HAR responder, sends every step, prints the table and writes the HAR; then
    /// the scenario switch, the record / replay, shaping, local files and findings passes, each with its table;
    /// then writes the store and its HTML report, and prints where each file went.
    ///
    /// The interceptor's handlers are replaced for the run and restored afterwards; the store observes its
    /// capture log for the run only.
    /// - Parameter environment: Outputs, interceptor and working directory.
    /// - Returns: ``ExitCode/success``.
    /// - Throws: ``CLIError`` (exit 1) when a bundled resource cannot be read, an upstream request fails, a
    ///   replay differs from its recording, the shaped download's bytes differ, a local file or the fallback is
    ///   wrong, a findings request trips no rule, the store path holds another file, or a file cannot be
    ///   written.
    package func run(in environment: CommandEnvironment) async throws(CLIError) -> ExitCode {
        let document = try Self.loadBundledCapture()
        let mocks = try Self.loadBundledMocks()
        let interceptor = environment.interceptor
        let previousHandlers = interceptor.handlers
        interceptor.handlers = [HARResponder(document: document, name: Self.responderName)]
        defer { interceptor.handlers = previousHandlers }
        let store = try Self.openFreshStore(at: environment.fileURL(storePath), typedAs: storePath)
        let storeObserver = interceptor.captureLog.addObserver(store)
        defer { interceptor.captureLog.removeObserver(storeObserver) }

        let capture = try await runCapturePass(document, in: environment)
        try await Self.runScenarioPass(mocks.configuration, in: environment)
        let cassette = try await runCassettePass(document, in: environment)
        let sameBytes = await Self.runShapingPass(in: environment)
        let localFiles = try await Self.runLocalFilesPass(in: environment)
        let findings = await Self.runFindingsPass(in: environment)
        interceptor.captureLog.removeObserver(storeObserver)
        let stored = try await Self.finishStore(store, reportURL: environment.fileURL(reportPath), typedAs: reportPath)
        try write(mocks.data, to: mocksPath, option: "--mocks", in: environment)

        // A redirected transaction is one entry per hop plus its final entry.
        let output = environment.standardOutput
        output.write("\nHAR: wrote \(capture.har.log.entries.count) entries to \(harPath)\n")
        output.write("Cassette: wrote \(cassette.entryCount) entries to \(cassettePath)\n")
        output.write(
            "Mocks: wrote the \(mocks.configuration.scenarios.count) scenarios above to \(mocksPath) "
                + "(see them with: nettap mock list \(mocksPath))\n"
        )
        output.write(Self.storeLines(stored, storePath: storePath, reportPath: reportPath))
        try checkOutcomes(
            rows: capture.rows,
            cassette: cassette,
            shapedBytesMatch: sameBytes,
            localFiles: localFiles,
            findings: findings
        )
        return .success
    }

    /// Reads the bundled `demo.har`.
    ///
    /// - Returns: The capture.
    /// - Throws: ``CLIError`` (exit 1) when the resource is missing or invalid.
    package static func loadBundledCapture() throws(CLIError) -> HARDocument {
        guard let url = Bundle.module.url(forResource: "demo", withExtension: "har") else {
            throw CLIError.failure(command: "demo", input: "demo.har", message: "the bundled capture is missing")
        }
        do {
            return try HARDocument.load(contentsOf: url)
        } catch {
            throw CLIError.failure(command: "demo", input: nil, message: "\(error)")
        }
    }

    /// Sends one step and pairs what the caller received with NetTap's capture of it.
    ///
    /// - Parameters:
    ///   - step: The request to send.
    ///   - headers: Request header fields set after `Accept: application/json` (which they may replace); none by
    ///     default.
    ///   - interceptor: The interceptor to send through.
    /// - Returns: The table row.
    package static func send(
        _ step: Step,
        headers: [String: String] = [:],
        through interceptor: NetTapInterceptor
    ) async -> Row {
        let url = URL(string: step.url) ?? URL(fileURLWithPath: "/")
        var request = URLRequest(url: url)
        request.httpMethod = step.method
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            request.setValue(value, forHTTPHeaderField: name)
        }
        if let body = step.body {
            request.httpBody = Data(body.utf8)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let known = Set(interceptor.captureLog.transactions.map(\.id))
        let outcome = await step.caller.send(request, through: interceptor)
        // The capture is complete before the caller hears of the end, so it is already in the log.
        // The demo sends one request at a time, so the new transaction is this request's. (Its URL is as the
        // interceptor's redactor left it: a password or key in the query redacted.)
        let transaction = interceptor.captureLog.transactions.last { transaction in
            !known.contains(transaction.id) && transaction.request.method == step.method
        }
        return Row(
            caller: step.caller,
            method: step.method,
            url: step.url,
            statusCode: outcome.statusCode,
            data: outcome.data,
            milliseconds: transaction?.timings.duration,
            answeredBy: transaction?.answeredBy ?? "?",
            error: outcome.error,
            transaction: transaction
        )
    }

    /// The table of rows: `#`, caller, method, URL, status, bytes, milliseconds, who answered.
    ///
    /// - Parameter rows: The rows.
    /// - Returns: Lines ending with a newline.
    package static func table(_ rows: [Row]) -> String {
        var table = TextTable(
            headings: ["#", "CALLER", "METHOD", "URL", "STATUS", "BYTES", "MS", "ANSWERED BY"],
            alignments: [.right, .left, .left, .left, .right, .right, .right, .left]
        )
        for (index, row) in rows.enumerated() {
            let status = row.statusCode.map { "\($0)" } ?? "ERR \(row.error.map { "\($0.errorCode)" } ?? "")"
            table.rows.append([
                "\(index + 1)", row.caller.rawValue, row.method, row.url, status, "\(row.byteCount)",
                row.milliseconds.map(Formatting.milliseconds) ?? "-", row.answeredBy,
            ])
        }
        return table.rendered
    }

    /// The one-line summary: request count, caller styles, who answered, status classes, failures.
    ///
    /// - Parameter rows: The rows.
    /// - Returns: One line without a newline.
    package static func summary(_ rows: [Row]) -> String {
        let callers = DemoCaller.allCases.map { caller in
            "\(caller.rawValue) \(rows.filter { $0.caller == caller }.count)"
        }
        var answered: [String: Int] = [:]
        for row in rows { answered[row.answeredBy, default: 0] += 1 }
        let answeredText = answered.sorted { $0.key < $1.key }.map { "\($0.value) by \($0.key)" }.joined(
            separator: ", "
        )
        var classes: [Int: Int] = [:]
        for row in rows { if let status = row.statusCode { classes[status / 100, default: 0] += 1 } }
        let classText = classes.sorted { $0.key < $1.key }.map { "\($0.value)×\($0.key)xx" }.joined(separator: ", ")
        let failed = rows.filter { $0.error != nil }.count
        return "\(rows.count) requests (\(callers.joined(separator: ", "))); answered \(answeredText); "
            + "\(classText); \(failed) failed"
    }
}
