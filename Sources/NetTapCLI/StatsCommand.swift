import Foundation
import NetTapCore
import NetTapReport

/// `nettap stats FILE.(har|sqlite) [--by host|time|minute] [--bucket SECONDS] [--json]`: flow statistics of a capture
/// as tables: per host with who answered, or as a time series of bytes and requests per second.
///
/// The numbers and their definitions are those of `FlowStatistics` (NetTapReport): body bytes only (headers are
/// not counted), failed = failed or cancelled transactions, 4xx and 5xx counted apart, nearest-rank p50/p95/p99
/// of the duration in milliseconds, and who answered (overall and per host).
///
/// Time series buckets start at whole multiples of the bucket since 1970-01-01T00:00:00Z (UTC): `--by minute`
/// buckets start on whole minutes, `--bucket 1` ones on whole seconds. The per-host view ends with a one-line
/// summary of the 1-second series (its peaks) and names `--by time` for the full series.
///
/// Exit codes: 0 done, 1 the file is missing, not a valid HAR or not a readable NetTap store, 2 usage error.
package struct StatsCommand: Command {
    /// The command's description.
    package static let spec = CommandSpec(
        name: "stats",
        summary: "Flow statistics of a HAR file or NetTap store: per host, or bytes and requests per second.",
        positionals: [
            PositionalSpec(name: "FILE.(har|sqlite)", help: "The HAR 1.2 file, or NetTap SQLite store, to read.")
        ],
        options: [
            OptionSpec(
                names: ["--json"],
                help: "Prints the statistics as JSON: total and hosts (the objects nettap report --json prints), "
                    + "and with --by time or --bucket the series."
            ),
            HARInput.strictOption,
            HARInput.warningsOption,
            OptionSpec(
                names: ["--by"],
                valueName: "host|time|minute",
                help: "host (default): a table per host with who answered; time: a time series in --bucket "
                    + "buckets (1 s by default); minute: a time series in whole UTC minutes."
            ),
            OptionSpec(
                names: ["--bucket"],
                valueName: "SECONDS",
                help: "The bucket of the time series, in seconds (decimals allowed, at least 0.001); alone, it "
                    + "implies --by time."
            ),
        ],
        discussion: """
            The figures are those of nettap report and the HTML report, from one engine; docs/statistics.md
            defines each. Bytes out/in = request/response body sizes as sent and received (decoded, full
            sizes, headers not counted; for HAR files NetTap's _netTap.bodies, else content.size and
            bodySize: the larger when not compressed, content.size when compressed, -1 = unknown = 0);
            failed = failed or cancelled (no response); 4xx and 5xx count error responses apart;
            p50/p95/p99 = nearest-rank percentiles of the duration in milliseconds; answered by = who
            answered (network, mock, cassette, …) with its share, per host and overall. In a time series a
            request counts in the bucket of its start, bytes out where the request was sent, bytes in where
            the response ended.

            Time series buckets start at whole multiples of the bucket since 1970-01-01T00:00:00Z (UTC):
            --by minute on whole minutes, --bucket 1 on whole seconds, --bucket 3600 on whole hours. When
            the series has more than 1000 buckets only those with traffic are listed, at most 1000 rows;
            the output says how many were left out. The bucket is never changed.

            --by host (the default) ends with the peaks of the 1-second series. --by minute and --bucket,
            and --by host and --bucket, are usage errors. Exit codes: 0 success, 1 missing or invalid HAR
            file or store, 2 usage error.
            """
    )

    /// How the statistics are grouped.
    package enum Grouping: String, Sendable {
        /// One row per host, then the total, who answered, and the peaks of the series.
        case host
        /// One row per time bucket.
        case time
    }

    /// The most rows a time series prints.
    package static let rowLimit = 1_000

    /// The file, as typed.
    package var path: String
    /// Whether the statistics are printed as JSON (`--json`).
    package var printsJSON: Bool
    /// Whether a HAR file with values read leniently is refused (`--strict`).
    package var strict: Bool
    /// Whether every value read leniently is listed (`--warnings`).
    package var listsWarnings: Bool
    /// The grouping.
    package var grouping: Grouping
    /// The longest `--bucket`, in seconds (about 31 years); longer ones could not be counted in milliseconds.
    package static let maximumBucketSeconds: Double = 1_000_000_000

    /// The bucket of the time series, in seconds: `--bucket`, 60 for `--by minute`, else 1.
    package var bucketSeconds: Double

    /// Creates the command from parsed arguments.
    ///
    /// - Parameter arguments: Parsed with ``spec``.
    /// - Throws: A usage ``CLIError`` for an unknown `--by` value, a `--bucket` that is not a number ≥ 0.001,
    ///   or `--bucket` with `--by host` or `--by minute`.
    package init(arguments: ParsedArguments) throws(CLIError) {
        path = arguments.positionals.first ?? ""
        strict = arguments.has("--strict")
        listsWarnings = arguments.has("--warnings")
        printsJSON = arguments.has("--json")
        let by = arguments.value("--by")
        var bucket: Double?
        if let text = arguments.value("--bucket") {
            guard let seconds = Double(text), seconds.isFinite, seconds >= 0.001,
                seconds <= Self.maximumBucketSeconds
            else {
                throw CLIError.usage(
                    command: "stats",
                    input: "--bucket \(Formatting.quoted(text))",
                    message: "must be a number of seconds from 0.001 to 1000000000 (about 31 years)"
                )
            }
            bucket = seconds
        }
        switch by {
        case nil:
            grouping = bucket == nil ? .host : .time
        case "host", "minute":
            if bucket != nil {
                throw CLIError.usage(
                    command: "stats",
                    input: "--by \(by ?? "") --bucket",
                    message: by == "minute"
                        ? "conflict: --by minute uses 60-second buckets; use --by time --bucket SECONDS for another"
                        : "conflict: --bucket applies to a time series; use --by time --bucket SECONDS"
                )
            }
            grouping = by == "host" ? .host : .time
        case "time":
            grouping = .time
        case .some(let other):
            throw CLIError.usage(
                command: "stats",
                input: "--by \(Formatting.quoted(other))",
                message: "must be host, time or minute"
            )
        }
        bucketSeconds = bucket ?? (by == "minute" ? 60 : 1)
    }

    /// Reads the file and prints the tables.
    ///
    /// - Parameter environment: Outputs and working directory.
    /// - Returns: ``ExitCode/success``.
    /// - Throws: ``CLIError`` (exit 1) naming the file when it cannot be read.
    package func run(in environment: CommandEnvironment) async throws(CLIError) -> ExitCode {
        let transactions = try await CaptureFile.transactions(
            path,
            command: "stats",
            strict: strict,
            listsWarnings: listsWarnings,
            in: environment
        )
        let statistics = Self.statistics(of: transactions, bucketSeconds: bucketSeconds)
        if printsJSON {
            do {
                environment.standardOutput.write(try Self.json(statistics, grouping: grouping))
                environment.standardOutput.write("\n")
            } catch {
                throw CLIError.failure(command: "stats", input: path, message: "cannot encode JSON: \(error)")
            }
        } else {
            environment.standardOutput.write(Self.text(statistics, grouping: grouping, file: path))
        }
        return .success
    }

    /// What `--json` prints.
    struct JSONOutput: Encodable {
        /// Every transaction's figures, as `report --json` prints `total`.
        var total: FlowStatistics.Totals
        /// Per host, as `report --json` prints `hosts`.
        var hosts: [FlowStatistics.Totals]
        /// The first start and the last end, ISO 8601 UTC; absent without transactions.
        var start: String?
        var end: String?
        /// The series' bucket, in seconds, and its buckets (empty ones included up to ``rowLimit``); only with
        /// `--by time`, `--by minute` or `--bucket`.
        var bucketSeconds: Double?
        var bucketCount: Int?
        var series: [FlowStatistics.Bucket]?
    }

    /// The JSON form of the statistics: pretty-printed, sorted keys, dates in ISO 8601 UTC with milliseconds.
    static func json(_ statistics: FlowStatistics, grouping: Grouping) throws -> Data {
        var output = JSONOutput(total: statistics.total, hosts: statistics.hosts)
        output.start = statistics.range.map { timestamp($0.start) }
        output.end = statistics.range.map { timestamp($0.end) }
        if grouping == .time {
            output.bucketSeconds = statistics.bucketSeconds
            output.bucketCount = statistics.bucketCount
            output.series = Array(statistics.series.prefix(rowLimit))
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(timestamp(date))
        }
        return try encoder.encode(output)
    }

    /// The statistics the command prints: buckets aligned to UTC multiples of the bucket, every bucket when
    /// the series has at most ``rowLimit`` of them, else only those with traffic (never a widened bucket).
    ///
    /// - Parameters:
    ///   - transactions: The transactions.
    ///   - bucketSeconds: The bucket, in seconds.
    /// - Returns: The statistics.
    package static func statistics(of transactions: [CapturedTransaction], bucketSeconds: Double) -> FlowStatistics {
        let seconds = min(max(bucketSeconds, 0.001), maximumBucketSeconds)
        let bucket = Duration.milliseconds(Int64((seconds * 1000).rounded()))
        let sparse = FlowStatistics(
            transactions: transactions,
            bucketDuration: bucket,
            alignment: .wallClock,
            includesEmptyBuckets: false
        )
        guard sparse.bucketCount <= rowLimit else { return sparse }
        return FlowStatistics(transactions: transactions, bucketDuration: bucket, alignment: .wallClock)
    }

    /// The text form of the statistics.
    ///
    /// - Parameters:
    ///   - statistics: The statistics, made as ``statistics(of:bucketSeconds:)`` makes them.
    ///   - grouping: Per host or per time bucket.
    ///   - file: The file name shown in the first line.
    /// - Returns: Lines ending with a newline.
    package static func text(_ statistics: FlowStatistics, grouping: Grouping, file: String) -> String {
        let total = statistics.total
        var output =
            "\(file): \(ReportFormat.counted(total.requests, "transaction")), "
            + ReportFormat.counted(statistics.hosts.count, "host")
        if let range = statistics.range {
            output += ", over \(ReportFormat.duration(seconds: range.duration))"
            // No transaction with a start date (a HAR whose every startedDateTime is missing) starts at 1970.
            output +=
                range.start.timeIntervalSince1970 == 0
                ? " (start times unknown)" : " (\(timestamp(range.start)) to \(timestamp(range.end)))"
        }
        output += "\n\n"
        switch grouping {
        case .host:
            output += hostText(statistics)
        case .time:
            output += seriesText(statistics)
        }
        return output
    }

    private static func hostText(_ statistics: FlowStatistics) -> String {
        let total = statistics.total
        var table = TextTable(
            headings: [
                "HOST", "REQUESTS", "BYTES OUT", "BYTES IN", "FAILED", "4XX", "5XX", "P50 MS", "P95 MS", "P99 MS",
                "ANSWERED BY",
            ],
            alignments: [.left] + Array(repeating: .right, count: 9) + [.left]
        )
        for totals in statistics.hosts + [total] {
            table.rows.append([
                totals.host, "\(totals.requests)", "\(totals.bytesOut)", "\(totals.bytesIn)", "\(totals.failed)",
                "\(totals.clientErrors)", "\(totals.serverErrors)",
                totals.p50Milliseconds.map(Formatting.milliseconds) ?? "-",
                totals.p95Milliseconds.map(Formatting.milliseconds) ?? "-",
                totals.p99Milliseconds.map(Formatting.milliseconds) ?? "-",
                totals.answeredBy.map { "\($0.source) \(share($0.share))" }.joined(separator: ", "),
            ])
        }
        var output = table.rendered
        if !total.answeredBy.isEmpty {
            var sources = TextTable(headings: ["ANSWERED BY", "COUNT", "SHARE"], alignments: [.left, .right, .right])
            sources.rows = total.answeredBy.map { [$0.source, "\($0.count)", share($0.share)] }
            output += "\n" + sources.rendered
        }
        let series = statistics.series.filter { $0.requests > 0 || $0.bytesOut > 0 || $0.bytesIn > 0 }
        if let busiest = series.max(by: { $0.requests < $1.requests }),
            let fastestDown = series.max(by: { $0.bytesIn < $1.bytesIn }),
            let fastestUp = series.max(by: { $0.bytesOut < $1.bytesOut })
        {
            let bucket = ReportFormat.interval(seconds: statistics.bucketSeconds)
            output += "\nTime series (\(bucket) buckets; all of them with --by time): "
            output += "\(series.count) of \(ReportFormat.counted(statistics.bucketCount, "bucket")) with traffic; "
            output += "peaks \(rate(busiest.requestsPerSecond)) requests/s at \(timestamp(busiest.start)), "
            output += "\(bytesRate(fastestDown.bytesInPerSecond)) down at \(timestamp(fastestDown.start)), "
            output += "\(bytesRate(fastestUp.bytesOutPerSecond)) up at \(timestamp(fastestUp.start))\n"
        }
        return output
    }

    private static func seriesText(_ statistics: FlowStatistics) -> String {
        let bucket = ReportFormat.interval(seconds: statistics.bucketSeconds)
        var output = "Buckets of \(bucket), starting at whole multiples of \(bucket) since 1970-01-01T00:00:00Z (UTC)"
        var rows = statistics.series
        let isSparse = rows.count < statistics.bucketCount
        if isSparse {
            let empty = statistics.bucketCount - rows.count
            output += "; only the \(ReportFormat.counted(rows.count, "bucket")) with traffic are listed "
            output += "(\(ReportFormat.counted(empty, "empty bucket")) of \(statistics.bucketCount) left out)"
        }
        output += ":\n"
        var cut = 0
        if rows.count > rowLimit {
            cut = rows.count - rowLimit
            rows = Array(rows.prefix(rowLimit))
        }
        var table = TextTable(
            headings: ["START", "REQUESTS", "REQ/S", "BYTES OUT/S", "BYTES IN/S"],
            alignments: [.left, .right, .right, .right, .right]
        )
        table.rows = rows.map { bucket in
            [
                timestamp(bucket.start), "\(bucket.requests)", String(format: "%.2f", bucket.requestsPerSecond),
                String(format: "%.1f", bucket.bytesOutPerSecond), String(format: "%.1f", bucket.bytesInPerSecond),
            ]
        }
        output += table.rendered
        if cut > 0 {
            output += "… \(ReportFormat.counted(cut, "more bucket")) with traffic not listed (at most \(rowLimit) "
            output += "rows); a larger --bucket gives fewer rows\n"
        }
        return output
    }

    private static func bytesRate(_ value: Double) -> String {
        ReportFormat.bytes(Int64(min(9e18, value.rounded()))) + "/s"
    }

    private static func share(_ value: Double) -> String { String(format: "%.1f%%", value * 100) }

    private static func rate(_ value: Double) -> String {
        value == value.rounded() && value < 1e15 ? String(Int64(value)) : String(format: "%.2f", value)
    }

    /// An instant as ISO 8601 UTC with milliseconds, rounded to the nearest (the style truncates: 10 ms after a
    /// start read 9 ms).
    private static func timestamp(_ date: Date) -> String {
        let rounded = Date(timeIntervalSince1970: (date.timeIntervalSince1970 * 1000).rounded() / 1000)
        return rounded.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}
