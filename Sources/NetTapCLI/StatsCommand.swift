import Foundation
import NetTapCore
import NetTapReport

/// `nettap stats FILE.(har|sqlite) [--by host|minute] [--bucket SECONDS]`: flow statistics of a capture as
/// tables: per host, or as a time series of bytes and requests per second.
///
/// The numbers and their definitions are those of `FlowStatistics` (NetTapReport): body bytes only (headers are
/// not counted), failed = failed or cancelled transactions, 4xx and 5xx counted apart, nearest-rank p50/p95/p99
/// of the duration in milliseconds, and who answered.
///
/// Exit codes: 0 done, 1 the file is missing, not a valid HAR or not a readable NetTap store, 2 usage error.
public struct StatsCommand: Command {
    /// The command's description.
    public static let spec = CommandSpec(
        name: "stats",
        summary: "Flow statistics of a HAR file or NetTap store: per host, or bytes and requests per second.",
        positionals: [
            PositionalSpec(name: "FILE.(har|sqlite)", help: "The HAR 1.2 file, or NetTap SQLite store, to read.")
        ],
        options: [
            OptionSpec(
                names: ["--by"],
                valueName: "host|minute",
                help: "host (default): a table per host; minute: a time series in 60-second buckets."
            ),
            OptionSpec(
                names: ["--bucket"],
                valueName: "SECONDS",
                help: "A time series in buckets of this many seconds (decimals allowed, at least 0.001)."
            ),
        ],
        discussion: """
            Definitions: bytes up/down = request/response body sizes (full sizes, headers not counted);
            failed = failed or cancelled (no response); 4xx and 5xx count error responses apart;
            p50/p95/p99 = nearest-rank percentiles of the duration in milliseconds; answered by = who
            answered (network, mock, cassette, …) with its share. In a time series a request counts in the
            bucket of its start, bytes up where the request was sent, bytes down where the response ended.

            --by minute uses 60-second buckets; --bucket SECONDS sets the bucket (alone, it implies a time
            series). Exit codes: 0 success, 1 missing or invalid HAR file or store, 2 usage error.
            """
    )

    /// How the statistics are grouped.
    public enum Grouping: String, Sendable {
        /// One row per host, then the total.
        case host
        /// One row per time bucket.
        case time
    }

    /// The file, as typed.
    public var path: String
    /// The grouping.
    public var grouping: Grouping
    /// The bucket of the time series, in seconds.
    public var bucketSeconds: Double

    /// Creates the command from parsed arguments.
    ///
    /// - Parameter arguments: Parsed with ``spec``.
    /// - Throws: A usage ``CLIError`` for an unknown `--by` value, a `--bucket` that is not a number ≥ 0.001, or
    ///   `--by host` with `--bucket`.
    public init(arguments: ParsedArguments) throws(CLIError) {
        path = arguments.positionals.first ?? ""
        let by = arguments.value("--by")
        var bucket: Double?
        if let text = arguments.value("--bucket") {
            guard let seconds = Double(text), seconds.isFinite, seconds >= 0.001 else {
                throw CLIError.usage(
                    command: "stats",
                    input: "--bucket \(Formatting.quoted(text))",
                    message: "must be a number of seconds >= 0.001"
                )
            }
            bucket = seconds
        }
        switch by {
        case nil:
            grouping = bucket == nil ? .host : .time
        case "host":
            if bucket != nil {
                throw CLIError.usage(
                    command: "stats",
                    input: "--bucket",
                    message: "applies to a time series; use it with --by minute or alone"
                )
            }
            grouping = .host
        case "minute":
            grouping = .time
        case .some(let other):
            throw CLIError.usage(
                command: "stats",
                input: "--by \(Formatting.quoted(other))",
                message: "must be host or minute"
            )
        }
        bucketSeconds = bucket ?? (by == "minute" ? 60 : 1)
    }

    /// Reads the file and prints the tables.
    ///
    /// - Parameter environment: Outputs and working directory.
    /// - Returns: ``ExitCode/success``.
    /// - Throws: ``CLIError`` (exit 1) naming the file when it cannot be read.
    public func run(in environment: CommandEnvironment) async throws(CLIError) -> ExitCode {
        let transactions = try await CaptureFile.transactions(path, command: "stats", in: environment)
        let statistics = FlowStatistics(
            transactions: transactions,
            bucketDuration: .milliseconds(Int64((bucketSeconds * 1000).rounded()))
        )
        environment.standardOutput.write(Self.text(statistics, grouping: grouping, file: path))
        return .success
    }

    /// The text form of the statistics.
    ///
    /// - Parameters:
    ///   - statistics: The statistics.
    ///   - grouping: Per host or per time bucket.
    ///   - file: The file name shown in the first line.
    /// - Returns: Lines ending with a newline.
    public static func text(_ statistics: FlowStatistics, grouping: Grouping, file: String) -> String {
        let total = statistics.total
        let count = total.requests == 1 ? "1 transaction" : "\(total.requests) transactions"
        var output = "\(file): \(count), \(statistics.hosts.count) host\(statistics.hosts.count == 1 ? "" : "s")"
        if let range = statistics.range {
            output += ", \(Formatting.milliseconds(range.duration * 1000)) ms"
        }
        output += "\n\n"
        switch grouping {
        case .host:
            var table = TextTable(
                headings: [
                    "HOST", "REQUESTS", "BYTES UP", "BYTES DOWN", "FAILED", "4XX", "5XX", "P50 MS", "P95 MS",
                    "P99 MS",
                ],
                alignments: [.left] + Array(repeating: .right, count: 9)
            )
            for totals in statistics.hosts + [total] {
                table.rows.append([
                    totals.host, "\(totals.requests)", "\(totals.bytesUp)", "\(totals.bytesDown)", "\(totals.failed)",
                    "\(totals.clientErrors)", "\(totals.serverErrors)",
                    totals.p50Milliseconds.map(Formatting.milliseconds) ?? "-",
                    totals.p95Milliseconds.map(Formatting.milliseconds) ?? "-",
                    totals.p99Milliseconds.map(Formatting.milliseconds) ?? "-",
                ])
            }
            output += table.rendered
            if !total.answeredBy.isEmpty {
                var sources = TextTable(
                    headings: ["ANSWERED BY", "COUNT", "SHARE"],
                    alignments: [.left, .right, .right]
                )
                sources.rows = total.answeredBy.map {
                    [$0.source, "\($0.count)", String(format: "%.1f%%", $0.share * 100)]
                }
                output += "\n" + sources.rendered
            }
        case .time:
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            var table = TextTable(
                headings: ["START", "REQUESTS", "REQ/S", "BYTES UP/S", "BYTES DOWN/S"],
                alignments: [.left, .right, .right, .right, .right]
            )
            table.rows = statistics.series.map { bucket in
                [
                    formatter.string(from: bucket.start), "\(bucket.requests)",
                    String(format: "%.2f", bucket.requestsPerSecond), String(format: "%.1f", bucket.bytesUpPerSecond),
                    String(format: "%.1f", bucket.bytesDownPerSecond),
                ]
            }
            output += "Buckets of \(Formatting.milliseconds(statistics.bucketSeconds * 1000)) ms:\n" + table.rendered
        }
        return output
    }
}
