import Foundation
import NetTapAudit
import NetTapCore
import NetTapHAR
import NetTapReport
import NetTapStore

/// `nettap report FILE.(har|sqlite)`: a traffic summary of any HAR 1.2 file or NetTap store, as text or JSON.
///
/// Works on NetTap's own exports and those of browsers and proxies (Chrome, Firefox, Charles, Insomnia…), and
/// on the SQLite files a `TransactionStore` writes (recognized by their SQLite header, whatever their name;
/// every stored transaction is summarized as its HAR entries would be). The statistics and their definitions
/// are those of ``HARSummary``. URLs are printed redacted (secret query items and user-info passwords as
/// `[redacted]`) unless `--no-redact` is given, which the output then says (`redaction off` in the first line,
/// `"redaction" : "off"` in JSON).
///
/// Exit codes: 0 done, 1 the file is missing, not a valid HAR or not a readable NetTap store (the line names
/// the file and the JSON path or the problem), 2 usage error.
package struct ReportCommand: Command {
    /// The command's description.
    package static let spec = CommandSpec(
        name: "report",
        summary:
            "Summarizes a HAR file or NetTap store: per-host traffic, percentiles, statuses, who answered, GraphQL "
            + "operations, slowest.",
        positionals: [
            PositionalSpec(name: "FILE.(har|sqlite)", help: "The HAR 1.2 file, or NetTap SQLite store, to summarize.")
        ],
        options: [
            OptionSpec(names: ["--json"], help: "Prints the summary as JSON instead of text."),
            HARInput.strictOption,
            HARInput.warningsOption,
            OptionSpec(
                names: ["--audit"],
                help: "Also runs NetTap's audit rules (secrets over http, tokens in URLs, insecure cookies, "
                    + "personal data, oversized images) on every entry, for HAR files from other tools."
            ),
            OptionSpec(
                names: ["--slowest"],
                valueName: "N",
                help: "How many of the slowest entries to list; 10 by default."
            ),
            OptionSpec(
                names: ["--no-redact"],
                help: "Prints URLs with their secret query items (token, api_key, …) as the file has them."
            ),
            OptionSpec(
                names: ["--html"],
                valueName: "OUT.html",
                help: "Also writes a self-contained, redacted HTML report to OUT.html and prints its path."
            ),
        ],
        discussion: """
            Counts are of transactions, as in nettap stats and the HTML report: the redirect hop entries
            NetTap writes before a redirected request's final entry count with that transaction (the first
            line says how many; the status table has final statuses, the hops' statuses follow it). Entries
            of other tools are one transaction each.

            The figures are those of nettap stats and the HTML report, from one engine (report --json's
            total and hosts are the objects stats --json prints); docs/statistics.md defines each. Bytes
            in/out = response/request body sizes as received and sent (decoded, full sizes, headers not
            counted): NetTap's _netTap.bodies record, else content.size and bodySize, the larger when the
            response was not compressed and content.size when it was; HAR's -1 = unknown counts as 0.
            Failed = failed or cancelled (status 0, no response). HTTP errors = status >= 400, counted
            separately. p50/p95 = nearest-rank percentiles of the transaction's duration in milliseconds (the
            entry time, plus its redirect hops'). URLs are shown with secret query items redacted unless
            --no-redact.

            A NetTap store (an SQLite file, whatever its name) is read read-only and summarized as the HAR
            export of all its transactions would be.

            GraphQL: every GraphQL request counts with its operation (NetTap's graphql.operation label, or
            for other tools' entries the operationName or the query document's first operation, read from the
            request), one row per operation, figures as in the host table; the slowest list names it too.

            Findings: those NetTap recorded on the transactions (integrity mismatches, audit findings) are
            listed, most severe first, numbered as their messages below the table (HAR ENTRY is the entry's
            index in log.entries, from 0, as `mock save --entry` takes it); --audit also runs the audit rules on every entry
            (useful for HAR exports of browsers and proxies). No finding shows a secret's value.

            Exit codes: 0 success, 1 missing or invalid HAR file or store, 2 usage error.
            """
    )

    /// The HAR file, as typed.
    package var path: String
    /// Whether to print JSON.
    package var printsJSON: Bool
    /// How many slowest entries to list.
    package var slowestLimit: Int
    /// Whether to run the audit rules on every entry (`--audit`).
    package var audits: Bool
    /// Whether URLs are redacted (no `--no-redact`).
    package var redacts: Bool
    /// Whether a HAR file with values read leniently is refused (`--strict`).
    package var strict: Bool
    /// Whether every value read leniently is listed (`--warnings`).
    package var listsWarnings: Bool
    /// Where to write the HTML report (`--html`), as typed; `nil` for none.
    package var htmlPath: String?

    /// Creates the command from parsed arguments.
    ///
    /// - Parameter arguments: Parsed with ``spec``.
    /// - Throws: A usage ``CLIError`` when `--slowest` is not a whole number ≥ 0.
    package init(arguments: ParsedArguments) throws(CLIError) {
        path = arguments.positionals.first ?? ""
        printsJSON = arguments.has("--json")
        audits = arguments.has("--audit")
        htmlPath = arguments.value("--html")
        if let text = arguments.value("--slowest") {
            guard let limit = Int(text), limit >= 0 else {
                throw CLIError.usage(
                    command: "report",
                    input: "--slowest \(Formatting.quoted(text))",
                    message: "must be a whole number >= 0"
                )
            }
            slowestLimit = limit
        } else {
            slowestLimit = 10
        }
        redacts = !arguments.has("--no-redact")
        strict = arguments.has("--strict")
        listsWarnings = arguments.has("--warnings")
    }

    /// Reads the file and prints the summary.
    ///
    /// - Parameter environment: Outputs and working directory.
    /// - Returns: ``ExitCode/success``.
    /// - Throws: ``CLIError`` (exit 1) naming the file when it is missing or not a valid HAR.
    package func run(in environment: CommandEnvironment) async throws(CLIError) -> ExitCode {
        let fileURL = environment.fileURL(path)
        if let reason = Formatting.unreadableFileReason(fileURL) {
            throw CLIError.failure(command: "report", input: path, message: reason)
        }
        if let htmlPath, Formatting.isSameFile(environment.fileURL(htmlPath), fileURL) {
            throw CLIError.usage(
                command: "report",
                input: "--html \(Formatting.quoted(htmlPath))",
                message: "is the file being read; writing the page there would replace it, choose another file"
            )
        }
        // The file is read once: the summary needs the HAR entries, the HTML report the transactions.
        let progress = ProgressBar("reading \(fileURL.lastPathComponent)", output: environment.standardError)
        defer { progress.finish() }
        let (document, stored) = try await read(fileURL, progress: progress, in: environment)
        var transactions = stored
        progress.update(0.6, step: audits ? "summarizing and auditing" : "summarizing")
        var summary = HARSummary(
            entries: document.log.entries,
            slowestLimit: slowestLimit,
            redactor: redacts ? (environment.configuredRedactor ?? .default) : .disabled
        )
        summary.findings = HARSummary.findings(of: document.log.entries, audit: audits ? AuditHandler() : nil)
        summary.numberEntries(asIn: document.log)
        if htmlPath != nil && transactions == nil {
            progress.update(0.8, step: "reading the transactions")
            transactions = document.transactions()
        }
        progress.finish()
        try write(summary, in: environment)
        if let htmlPath { try writeHTML(transactions ?? [], to: htmlPath, in: environment) }
        return .success
    }

    /// The file's HAR document, and its transactions when it is a store (a HAR file's are read only when needed).
    private func read(
        _ fileURL: URL,
        progress: ProgressBar,
        in environment: CommandEnvironment
    ) async throws(CLIError) -> (document: HARDocument, transactions: [CapturedTransaction]?) {
        if CaptureFile.isSQLite(fileURL) {
            let stored = try await CaptureFile.transactions(
                path,
                command: "report",
                strict: strict,
                listsWarnings: listsWarnings,
                in: environment
            )
            // Not redacted here: the summary redacts what it prints, and the audit must see what was captured.
            return (HARDocument(transactions: stored, redactor: .disabled), stored)
        }
        // Decoding reports no progress: the bar ticks with the time elapsed.
        progress.update(0, step: "decoding")
        let document = try HARInput.load(
            fileURL,
            path: path,
            command: "report",
            strict: strict,
            listsWarnings: listsWarnings,
            in: environment
        )
        return (document, nil)
    }

    /// Prints the summary as text, or as JSON with `--json`.
    private func write(_ summary: HARSummary, in environment: CommandEnvironment) throws(CLIError) {
        guard printsJSON else {
            environment.standardOutput.write(Self.text(summary, file: path))
            return
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            environment.standardOutput.write(try encoder.encode(summary))
            environment.standardOutput.write("\n")
        } catch {
            throw CLIError.failure(command: "report", input: path, message: "cannot encode JSON: \(error)")
        }
    }

    /// The text form of a summary.
    ///
    /// - Parameters:
    ///   - summary: The summary.
    ///   - file: The file name shown in the first line.
    /// - Returns: Lines ending with a newline.
    package static func text(_ summary: HARSummary, file: String) -> String {
        var output = headline(summary, file: file) + "\n"
        output += hostTable(summary)
        output += "\n" + statusText(summary)
        if summary.answeredBy.contains(where: { $0.source != "network" }) {
            output += "\n" + answeredByTable(summary)
        }
        if !summary.graphQLOperations.isEmpty {
            output += "\n" + graphQLTable(summary)
        }
        if !summary.slowest.isEmpty {
            output += "\n" + slowestText(summary)
        }
        if !summary.findings.isEmpty {
            output += "\n" + findingsText(summary)
        }
        if !summary.rewrites.isEmpty {
            output += "\n" + rewritesText(summary)
        }
        return output
    }

    /// The first line: file, transactions (and redirect hops), hosts and whether redaction was off.
    private static func headline(_ summary: HARSummary, file: String) -> String {
        let hostCount = summary.hosts.count
        var count = ReportFormat.counted(summary.transactionCount, "transaction")
        if summary.redirectHopCount > 0 {
            let hops = summary.redirectHopCount
            count += " (and \(ReportFormat.counted(hops, "redirect hop")), counted with "
            count += "\(hops == 1 ? "its transaction" : "their transactions"): \(summary.entryCount) HAR entries)"
        }
        if summary.entriesLeftOut > 0 {
            count +=
                " (\(ReportFormat.counted(summary.entriesLeftOut, "entry", plural: "entries")) left out: not readable as HAR)"
        }
        let redaction = summary.redaction == "off" ? " (redaction off: URLs as recorded)" : ""
        return "\(file): \(count), \(ReportFormat.counted(hostCount, "host"))\(redaction)\n"
    }

    /// The table of hosts, with the total as its last row.
    private static func hostTable(_ summary: HARSummary) -> String {
        var hosts = TextTable(
            headings: ["HOST", "REQUESTS", "BYTES IN", "BYTES OUT", "FAILED", "HTTP ERRORS", "P50 MS", "P95 MS"],
            alignments: [.left, .right, .right, .right, .right, .right, .right, .right]
        )
        for statistics in summary.hosts + [summary.total] {
            hosts.rows.append([
                statistics.host, "\(statistics.requests)", "\(statistics.bytesIn)", "\(statistics.bytesOut)",
                "\(statistics.failed)", "\(statistics.httpErrors)",
                statistics.p50Milliseconds.map(Formatting.milliseconds) ?? "-",
                statistics.p95Milliseconds.map(Formatting.milliseconds) ?? "-",
            ])
        }
        return hosts.rendered
    }

    /// The table of final statuses, then the redirect hops' statuses when there are any.
    private static func statusText(_ summary: HARSummary) -> String {
        var statuses = TextTable(headings: ["STATUS", "COUNT"], alignments: [.right, .right])
        statuses.rows = summary.statusCounts.map { ["\($0.status)", "\($0.count)"] }
        var output = statuses.rendered
        if !summary.redirectHopStatusCounts.isEmpty {
            let hops = summary.redirectHopStatusCounts.map { "\($0.status) ×\($0.count)" }.joined(separator: ", ")
            output += "Redirect hops (not in the table: each transaction counts once, with its final status): "
            output += hops + "\n"
        }
        return output
    }

    /// The table of who answered, with the stubs that did.
    private static func answeredByTable(_ summary: HARSummary) -> String {
        var sources = TextTable(headings: ["ANSWERED BY", "COUNT", "STUBS"], alignments: [.left, .right, .left])
        sources.rows = summary.answeredBy.map { source in
            let stubs = source.stubs.map { "\($0.name) ×\($0.count)" }.joined(separator: ", ")
            return [source.source, "\(source.count)", stubs]
        }
        return sources.rendered
    }

    /// The GraphQL operations under their heading: requests, failures and durations per operation.
    private static func graphQLTable(_ summary: HARSummary) -> String {
        var operations = TextTable(
            headings: ["GRAPHQL OPERATION", "TYPE", "REQUESTS", "FAILED", "HTTP ERRORS", "P50 MS", "P95 MS"],
            alignments: [.left, .left, .right, .right, .right, .right, .right]
        )
        operations.rows = summary.graphQLOperations.map { operation in
            let statistics = operation.statistics
            return [
                operation.operation, operation.type ?? "-", "\(statistics.requests)", "\(statistics.failed)",
                "\(statistics.httpErrors)", statistics.p50Milliseconds.map(Formatting.milliseconds) ?? "-",
                statistics.p95Milliseconds.map(Formatting.milliseconds) ?? "-",
            ]
        }
        return operations.rendered
    }

    /// The slowest transactions, under their heading.
    private static func slowestText(_ summary: HARSummary) -> String {
        var slowest = TextTable(
            headings: ["MS", "STATUS", "HTTP", "METHOD", "URL"],
            alignments: [.right, .right, .left, .left, .left]
        )
        slowest.rows = summary.slowest.map {
            [
                Formatting.milliseconds($0.milliseconds), "\($0.status)", $0.httpVersion ?? "-", $0.method,
                Self.shortened($0.url) + ($0.graphQLOperation.map { " (GraphQL \($0))" } ?? ""),
            ]
        }
        return "Slowest \(summary.slowest.count):\n" + slowest.rendered
    }

    /// The findings table under its heading, then each finding's message by its number.
    private static func findingsText(_ summary: HARSummary) -> String {
        var findings = TextTable(
            headings: ["#", "SEVERITY", "RULE", "LOCATION", "HAR ENTRY", "METHOD", "URL"],
            alignments: [.right, .left, .left, .left, .right, .left, .left]
        )
        findings.rows = summary.findings.enumerated().map { number, entry in
            [
                "\(number + 1)", entry.finding.severity.rawValue, entry.finding.rule, entry.finding.location ?? "-",
                "\(entry.index)", entry.method, Self.shortened(entry.url, limit: 70),
            ]
        }
        let count = summary.findings.count
        var output = "Findings (\(count); # numbers the messages below, HAR ENTRY is the entry's index in "
        output += "log.entries, from 0, as mock save --entry takes it):\n" + findings.rendered
        for (number, entry) in summary.findings.enumerated() {
            output += "\(number + 1). \(entry.finding.message)\n"
        }
        return output
    }

    /// Shortens long URLs for the table (the JSON form keeps them whole).
    private static func shortened(_ url: String, limit: Int = 100) -> String {
        guard url.count > limit else { return url }
        return String(url.prefix(limit - 1)) + "…"
    }
}
