import Foundation
import NetTapCore
import NetTapHAR
import NetTapStore

/// `nettap query STORE [filters] [--har OUT]`: lists, or exports as HAR, the transactions of a NetTap SQLite store.
///
/// Opens the store read-only (an app may be writing it at the same time). Filters combine with AND and map to
/// `StoreQuery`; the table lists transactions newest first, a HAR export (`--har`) oldest first, as HAR 1.2
/// prefers. When `--answered-by` names nothing the store holds, a line on standard error lists the names it has.
///
/// Exit codes: 0 done, 1 the store is missing, damaged, not a NetTap store or of a newer schema (the line names
/// the file), or OUT cannot be written; 2 usage error (a malformed filter names the option).
package struct QueryCommand: Command {
    /// The command's description.
    package static let spec = CommandSpec(
        name: "query",
        summary: "Lists or exports the transactions of a NetTap SQLite store, filtered by time, host, status and more.",
        positionals: [PositionalSpec(name: "STORE", help: "The store file a TransactionStore wrote.")],
        options: [
            OptionSpec(
                names: ["--host"],
                valueName: "HOST",
                help: "An exact host, or *.example.com for subdomains; HOST:PORT (as stats prints) for one port."
            ),
            OptionSpec(names: ["--method"], valueName: "METHOD", help: "A request method, such as GET."),
            OptionSpec(names: ["--status"], valueName: "CLASS", help: "1xx, 2xx, 3xx, 4xx, 5xx or failed."),
            OptionSpec(names: ["--path"], valueName: "TEXT", help: "Text the URL path contains (case-sensitive)."),
            OptionSpec(
                names: ["--since"],
                valueName: "ISO8601",
                help: "Started at or after, e.g. 2025-06-01 or 2025-06-01T12:00:00Z."
            ),
            OptionSpec(
                names: ["--until"],
                valueName: "ISO8601",
                help: "Started before this date and time; a date alone includes that whole day (UTC)."
            ),
            OptionSpec(names: ["--finding"], help: "Only transactions with at least one finding."),
            OptionSpec(
                names: ["--answered-by"],
                valueName: "NAME",
                help: "Who answered: network, mock (alias stub), cassette, files (alias file), cache, a handler…"
            ),
            OptionSpec(
                names: ["--limit"],
                valueName: "N",
                help: "The most transactions to list; 100 by default for the table, all with --har."
            ),
            OptionSpec(
                names: ["--har"],
                valueName: "OUT",
                help: "Writes the matching transactions, with bodies, oldest first, as a HAR 1.2 file instead."
            ),
        ],
        discussion: """
            The table lists transactions newest first (--har writes them oldest first, as HAR 1.2 prefers;
            with --limit, the newest N). It shows each transaction's start (UTC), method, status (the HTTP
            status; without a response, the state and error code, as in "failed -1004" or "cancelled -999";
            "-" when neither is known), the HTTP version (as negotiated on the wire when the transport saw it),
            duration in milliseconds, who answered, its number of findings and URL.

            Dates are ISO 8601 in UTC unless they carry an offset. A date alone is midnight for --since and the
            end of that day for --until, so --since 2025-06-01 --until 2025-06-01 is that one day.

            --answered-by takes the names NetTap records: network, mock (stubs; alias stub), cassette,
            files (alias file), cache, integrity, shaping, or a custom handler's name. When the name matches
            nothing in the store, standard error lists the names it holds.

            Exit codes: 0 success, 1 unreadable store or unwritable OUT, 2 usage error.
            """
    )

    /// The store file, as typed.
    package var path: String
    /// The filters.
    package var query: StoreQuery
    /// Where to write a HAR file, or `nil` to print a table.
    package var harPath: String?

    /// Creates the command from parsed arguments.
    ///
    /// - Parameter arguments: Parsed with ``spec``.
    /// - Throws: A usage ``CLIError`` naming the option when a status class, date, host pattern or limit is
    ///   malformed.
    package init(arguments: ParsedArguments) throws(CLIError) {
        path = arguments.positionals.first ?? ""
        harPath = arguments.value("--har")
        var query = StoreQuery()
        query.host = arguments.value("--host")
        query.method = arguments.value("--method")
        query.pathContains = arguments.value("--path")
        query.answeredBy = arguments.value("--answered-by")
        if arguments.has("--finding") { query.hasFinding = true }
        if let text = arguments.value("--status") {
            do {
                query.statusClass = try StoreQuery.StatusClass.parse(text)
            } catch {
                throw CLIError.usage(
                    command: "query",
                    input: "--status \(Formatting.quoted(text))",
                    message: error.message
                )
            }
        }
        let sinceText = arguments.value("--since")
        let untilText = arguments.value("--until")
        query.since = try Self.date(sinceText, option: "--since")?.date
        if let until = try Self.date(untilText, option: "--until") {
            // A date alone means that whole day: before the next midnight.
            query.until = until.isDateOnly ? until.date.addingTimeInterval(86_400) : until.date
        }
        if let since = query.since, let until = query.until, let sinceText, let untilText, until <= since {
            throw CLIError.usage(
                command: "query",
                input: "--until \(Formatting.quoted(untilText))",
                message: "is not after --since \(Formatting.quoted(sinceText)), so nothing can match"
            )
        }
        if let text = arguments.value("--limit") {
            guard let limit = Int(text), limit >= 0 else {
                throw CLIError.usage(
                    command: "query",
                    input: "--limit \(Formatting.quoted(text))",
                    message: "must be a whole number >= 0"
                )
            }
            query.limit = limit
        } else if harPath == nil {
            query.limit = 100
        }
        do {
            try query.validate()
        } catch {
            let option = Self.option(for: error.input)
            throw CLIError.usage(command: "query", input: option, message: error.message)
        }
        self.query = query
    }

    /// Reads the store and prints the table, or writes the HAR file.
    ///
    /// - Parameter environment: Outputs and working directory.
    /// - Returns: ``ExitCode/success``.
    /// - Throws: ``CLIError`` (exit 1) naming the store or OUT.
    package func run(in environment: CommandEnvironment) async throws(CLIError) -> ExitCode {
        if let harPath, Formatting.isSameFile(environment.fileURL(harPath), environment.fileURL(path)) {
            throw CLIError.usage(
                command: "query",
                input: "--har \(Formatting.quoted(harPath))",
                message: "is the store being read; writing the HAR there would replace the store, choose another file"
            )
        }
        let store = try Self.open(path, command: "query", in: environment)
        do {
            if let harPath {
                let document = try await Self.exportHAR(
                    store,
                    matching: query,
                    redactor: environment.configuredRedactor
                )
                let outURL = environment.fileURL(harPath)
                do {
                    try document.encoded().write(to: outURL, options: .atomic)
                } catch {
                    throw CLIError.failure(
                        command: "query",
                        input: "--har \(Formatting.quoted(harPath))",
                        message: Formatting.unwritableFileReason(outURL, error: error)
                    )
                }
                let count = document.log.entries.count
                environment.standardOutput.write("wrote \(count) entr\(count == 1 ? "y" : "ies") to \(harPath)\n")
                return .success
            }
            var unlimited = query
            unlimited.limit = nil
            unlimited.offset = 0
            let total = try await store.count(matching: unlimited)
            if total == 0, let name = query.answeredBy {
                try await Self.warnUnknownAnsweredBy(name, in: store, environment: environment)
            }
            let stored = try await store.transactions(matching: query)
            let transactions =
                environment.configuredRedactor.map { redactor in
                    redactor.redact(transactions: stored).map(\.value)
                } ?? stored
            environment.standardOutput.write(Self.text(transactions, matching: total, file: path))
            return .success
        } catch let error as CLIError {
            throw error
        } catch let error as StoreError {
            throw CLIError.failure(command: "query", input: path, message: Self.message(error))
        } catch {
            throw CLIError.failure(command: "query", input: path, message: "\(error)")
        }
    }

    /// The table of transactions: a heading line, then one row each.
    ///
    /// - Parameters:
    ///   - transactions: The transactions shown.
    ///   - total: How many matched in all (before the limit).
    ///   - file: The store's name shown in the first line.
    /// - Returns: Lines ending with a newline.
    package static func text(_ transactions: [CapturedTransaction], matching total: Int, file: String) -> String {
        let shown = transactions.count == total ? "" : " (showing \(transactions.count))"
        let output = "\(file): \(total) matching transaction\(total == 1 ? "" : "s")\(shown)\n"
        guard !transactions.isEmpty else { return output }
        var table = TextTable(
            headings: ["START", "METHOD", "STATUS", "HTTP", "MS", "ANSWERED BY", "FINDINGS", "URL"],
            alignments: [.left, .left, .right, .left, .right, .left, .right, .left]
        )
        let formatter = ISO8601DateFormatter()
        for transaction in transactions {
            let status: String
            if let response = transaction.response {
                status = "\(response.statusCode)"
            } else if let error = transaction.error {
                status = "\(transaction.state.rawValue) \(error.code)"
            } else {
                status = "-"
            }
            table.rows.append([
                formatter.string(from: transaction.timings.startDate),
                transaction.request.method,
                status,
                transaction.negotiatedHTTPVersion ?? "-",
                transaction.timings.end.map(Formatting.milliseconds) ?? "-",
                transaction.answeredBy,
                "\(transaction.findings.count)",
                transaction.request.url.absoluteString,
            ])
        }
        return output + "\n" + table.rendered
    }

    /// Opens a store read-only for a command, turning its errors into failures naming the file as typed.
    static func open(
        _ path: String,
        command: String,
        in environment: CommandEnvironment
    ) throws(CLIError)
        -> TransactionStore
    {
        let url = environment.fileURL(path)
        if let reason = Formatting.unreadableFileReason(url) {
            throw CLIError.failure(command: command, input: path, message: reason)
        }
        do {
            return try TransactionStore(url: url, mode: .readOnly)
        } catch {
            var text = message(error)
            if error.code == .notAStore, looksLikeJSON(url) {
                text += "; a HAR file is read by nettap report and nettap stats"
            }
            throw CLIError.failure(command: command, input: path, message: text)
        }
    }

    /// Whether the file starts, after white space (and a byte-order mark), with `{`: a HAR file given to a command
    /// that reads stores.
    static func looksLikeJSON(_ url: URL) -> Bool {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return false }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 64)) ?? Data()
        let text = String(decoding: head, as: UTF8.self).drop { $0.isWhitespace || $0 == "\u{FEFF}" }
        return text.first == "{"
    }

    /// A store error's text without the absolute file path (the CLI line names the file as typed).
    static func message(_ error: StoreError) -> String {
        [error.input, error.message].compactMap { $0 }.joined(separator: ": ")
    }

    /// Prints on standard error, when no stored transaction was answered by `name` (or what it is an alias for),
    /// the names the store does hold.
    private static func warnUnknownAnsweredBy(
        _ name: String,
        in store: TransactionStore,
        environment: CommandEnvironment
    ) async throws(StoreError) {
        let names = try await store.answeredByNames()
        guard Set(StoreQuery.answeredByNames(matching: name)).isDisjoint(with: names) else { return }
        let held = names.isEmpty ? "it holds no transactions" : "names in this store: " + names.joined(separator: ", ")
        environment.standardError.write(
            "nettap: query: --answered-by \(Formatting.quoted(name)) matches no transaction; \(held)\n"
        )
    }

    /// Parses `--since`/`--until`: an RFC 3339 date and time (with or without fractional seconds), or a date
    /// (midnight UTC, with `isDateOnly` set).
    private static func date(_ text: String?, option: String) throws(CLIError) -> (date: Date, isDateOnly: Bool)? {
        guard let text else { return nil }
        let formatter = ISO8601DateFormatter()
        for options: ISO8601DateFormatter.Options in [
            [.withInternetDateTime], [.withInternetDateTime, .withFractionalSeconds], [.withFullDate],
        ] {
            formatter.formatOptions = options
            guard let date = formatter.date(from: text) else { continue }
            // Foundation's parser rolls impossible fields over (2026-02-30 is 2 March, 25:00 the next day).
            guard let problem = impossibleField(in: text) else { return (date, options == [.withFullDate]) }
            throw CLIError.usage(
                command: "query",
                input: "\(option) \(Formatting.quoted(text))",
                message: "\(problem); give a real date (2025-06-01) or date and time (2025-06-01T12:00:00Z)"
            )
        }
        throw CLIError.usage(
            command: "query",
            input: "\(option) \(Formatting.quoted(text))",
            message: "must be an ISO 8601 date (2025-06-01) or date and time (2025-06-01T12:00:00Z)"
        )
    }

    /// What is impossible in an RFC 3339 text the formatter accepted: `there is no day 30 in month 2 of 2026`,
    /// `hour 25 is past 23`; `nil` when every field is in range.
    private static func impossibleField(in text: String) -> String? {
        let fields = text.split { !$0.isNumber }.prefix(6).compactMap { Int($0) }
        guard fields.count >= 3 else { return nil }
        let day = DateComponents(year: fields[0], month: fields[1], day: fields[2])
        if !(1...12).contains(fields[1]) { return "there is no month \(fields[1])" }
        if !day.isValidDate(in: Calendar(identifier: .gregorian)) {
            return "there is no day \(fields[2]) in month \(fields[1]) of \(fields[0])"
        }
        if fields.count >= 4, fields[3] > 23 { return "hour \(fields[3]) is past 23" }
        if fields.count >= 5, fields[4] > 59 { return "minute \(fields[4]) is past 59" }
        if fields.count >= 6, fields[5] > 60 { return "second \(fields[5]) is past 60" }
        return nil
    }

    /// The option a `StoreQuery` argument error refers to, with its value: `host "a*b"` → `--host "a*b"`.
    private static func option(for input: String?) -> String? {
        guard let input else { return nil }
        let renamed = [
            "path": "--path", "host": "--host", "method": "--method", "until": "--until", "limit": "--limit",
        ]
        guard let space = input.firstIndex(of: " "), let name = renamed[String(input[..<space])] else { return input }
        return name + input[space...]
    }
}
