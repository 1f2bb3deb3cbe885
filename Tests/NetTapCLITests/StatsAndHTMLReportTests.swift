import Foundation
import NetTapCore
import NetTapStore
import Testing

@testable import NetTapCLI

@Suite("nettap stats and nettap report --html")
struct StatsAndHTMLReportTests {
    /// A store with three transactions on two hosts: 1000 and 3000 bytes in, a 503, durations 10/20/30 ms.
    static func makeStore(in directory: URL) async throws -> URL {
        let url = directory.appendingPathComponent("capture.sqlite")
        let store = try TransactionStore(url: url)
        // Recent starts: the store's retention drops old transactions.
        let start = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 / 60).rounded(.down) * 60 - 600)
        for (index, (address, status, down)) in [
            ("https://a.example.com/1", 200, 1000), ("https://a.example.com/2", 503, 0),
            ("http://b.example.com:81/3", 200, 3000),
        ]
        .enumerated() {
            let url = try #require(URL(string: address))
            store.record(
                CapturedTransaction(
                    request: CapturedRequest(method: "GET", url: url, headers: ["Authorization": "Bearer abc123def"]),
                    response: CapturedResponse(
                        statusCode: status,
                        headers: ["Content-Type": "text/plain"],
                        url: url,
                        body: down > 0 ? CapturedBody(data: Data(repeating: 0x61, count: down)) : nil
                    ),
                    timings: Timings(
                        startDate: start.addingTimeInterval(Double(index) * 40),
                        requestSent: 1,
                        firstByte: 2,
                        end: Double(index + 1) * 10
                    ),
                    answeredBy: index == 2 ? "mock" : "network",
                    state: .completed
                )
            )
        }
        try await store.flush()
        return url
    }

    @Test("stats of a store: one row per host and the total, exact bytes, errors and percentiles")
    func statsByHost() async throws {
        let directory = try makeTemporaryDirectory()
        let store = try await Self.makeStore(in: directory)
        let run = await runCLI(["stats", store.path])
        #expect(run.exitCode == .success)
        #expect(run.standardError.isEmpty)
        let lines = run.standardOutput.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        // Who answered, per host (last column) and overall.
        #expect(
            lines.contains([
                "a.example.com", "2", "0", "1000", "0", "0", "1", "10.0", "20.0", "20.0", "network", "100.0%",
            ])
        )
        #expect(
            lines.contains([
                "b.example.com:81", "1", "0", "3000", "0", "0", "0", "30.0", "30.0", "30.0", "mock", "100.0%",
            ])
        )
        #expect(
            lines.contains([
                "(all)", "3", "0", "4000", "0", "0", "1", "20.0", "30.0", "30.0", "network", "66.7%,", "mock", "33.3%",
            ])
        )
        #expect(lines.contains(["network", "2", "66.7%"]))
        #expect(lines.contains(["mock", "1", "33.3%"]))
        // The series, summed up, and where to find it.
        let series = try #require(
            run.standardOutput.components(separatedBy: "\n").first { $0.hasPrefix("Time series") }
        )
        #expect(
            series.contains(
                "(1 s buckets; all of them with --by time): 3 of 81 buckets with traffic; peaks 1 requests/s"
            )
        )
    }

    @Test("stats --json, report --json and report --html give the same total and hosts objects for a store")
    func oneEngineForAStore() async throws {
        let directory = try makeTemporaryDirectory()
        let store = try await Self.makeStore(in: directory)
        let stats = await runCLI(["stats", store.path, "--json"])
        #expect(stats.exitCode == .success, "\(stats.standardError)")
        let page = directory.appendingPathComponent("page.html")
        let report = await runCLI(["report", store.path, "--json", "--html", page.path])
        #expect(report.exitCode == .success, "\(report.standardError)")
        func figures(_ data: Data) throws -> NSDictionary {
            let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            return ["total": object["total"] ?? NSNull(), "hosts": object["hosts"] ?? NSNull()] as NSDictionary
        }
        let fromStats = try figures(stats.standardOutputData)
        #expect(try figures(report.standardOutputData) == fromStats)
        let html = try String(contentsOf: page, encoding: .utf8)
        let opening = try #require(html.range(of: #"<script type="application/json" id="nettap-statistics">"#))
        let closing = try #require(html.range(of: "</script>", range: opening.upperBound..<html.endIndex))
        #expect(try figures(Data(html[opening.upperBound..<closing.lowerBound].utf8)) == fromStats)

        let total = try #require(fromStats["total"] as? [String: Any])
        #expect(total["requests"] as? Int == 3)
        #expect(total["bytesIn"] as? Int == 4000)
        #expect(total["bytesOut"] as? Int == 0)
        #expect(total["httpErrors"] as? Int == 1)
        #expect(total["serverErrors"] as? Int == 1)
        #expect(total["p50Milliseconds"] as? Double == 20)
        let hosts = (fromStats["hosts"] as? [[String: Any]])?.map { $0["host"] as? String }
        #expect(hosts == ["a.example.com", "b.example.com:81"])
        // The series only with --by time, its dates in ISO 8601.
        let plain = try JSONSerialization.jsonObject(with: stats.standardOutputData) as? [String: Any]
        #expect(plain?["series"] == nil)
        let series = await runCLI(["stats", store.path, "--json", "--by", "minute"])
        let object = try #require(try JSONSerialization.jsonObject(with: series.standardOutputData) as? [String: Any])
        #expect(object["bucketSeconds"] as? Double == 60)
        let buckets = try #require(object["series"] as? [[String: Any]])
        #expect(buckets.reduce(0) { $0 + ($1["bytesIn"] as? Int ?? 0) } == 4000)
        #expect((buckets.first?["start"] as? String)?.hasSuffix("Z") == true)
    }

    @Test("stats --by minute: 60-second buckets; --bucket sets another bucket")
    func statsByTime() async throws {
        let directory = try makeTemporaryDirectory()
        let store = try await Self.makeStore(in: directory)
        let minute = await runCLI(["stats", store.path, "--by", "minute"])
        #expect(minute.exitCode == .success)
        #expect(
            minute.standardOutput.contains(
                "Buckets of 1 min, starting at whole multiples of 1 min since 1970-01-01T00:00:00Z (UTC):"
            )
        )
        // Starts at 0, 40 and 80 s: two in the first minute, one in the second.
        let rows = minute.standardOutput.split(separator: "\n").filter {
            $0.range(of: #"^\d{4}-"#, options: .regularExpression) != nil
        }
        #expect(rows.map { $0.split(separator: " ")[1] } == ["2", "1"])

        let seconds = await runCLI(["stats", store.path, "--bucket", "40"])
        #expect(seconds.standardOutput.contains("Buckets of 40 s, starting"))
        let time = await runCLI(["stats", store.path, "--by", "time"])
        #expect(time.standardOutput.contains("Buckets of 1 s, starting"))
        #expect(
            seconds.standardOutput.split(separator: "\n").filter {
                $0.range(of: #"^\d{4}-"#, options: .regularExpression) != nil
            }.count == 3
        )
    }

    @Test("stats rejects an unknown grouping, a bad bucket and --by host with --bucket")
    func statsUsage() async {
        let harPath = (try? fixtureURL("chrome.har").path) ?? "chrome.har"
        for arguments in [
            ["--by", "day"], ["--bucket", "0"], ["--bucket", "x"], ["--bucket", "1e18"], ["--bucket", "1e99"],
            ["--by", "host", "--bucket", "2"],
            ["--by", "minute", "--bucket", "5"],
        ] {
            let run = await runCLI(["stats", harPath] + arguments)
            #expect(run.exitCode == .usage, "\(arguments)")
            #expect(run.standardError.hasPrefix("nettap: stats: "), "\(arguments)")
        }
        let conflict = await runCLI(["stats", harPath, "--by", "minute", "--bucket", "5"])
        #expect(conflict.standardError.contains("--by minute --bucket"))
        #expect(conflict.standardError.contains("conflict"))
    }

    @Test("stats of a HAR from Chrome and of a missing file")
    func statsHAR() async throws {
        let run = await runCLI(["stats", try fixtureURL("chrome.har").path])
        #expect(run.exitCode == .success)
        #expect(run.standardOutput.contains("3 transactions"))
        #expect(run.standardOutput.contains("over 117 d 12 h"))
        #expect(run.standardOutput.contains("mitmproxy.org"))

        // 117 days in 1-second buckets: the bucket stays 1 s; only the buckets with traffic are listed.
        let seconds = await runCLI(["stats", try fixtureURL("chrome.har").path, "--bucket", "1"])
        #expect(seconds.exitCode == .success)
        #expect(seconds.standardOutput.contains("Buckets of 1 s, starting"))
        #expect(seconds.standardOutput.contains("only the "))
        #expect(seconds.standardOutput.contains("with traffic are listed"))
        let rows = seconds.standardOutput.split(separator: "\n").filter {
            $0.range(of: #"^\d{4}-"#, options: .regularExpression) != nil
        }
        #expect(!rows.isEmpty && rows.count <= 6)
        // --by minute buckets start on whole UTC minutes (the first request is at 00:00:54.250Z).
        let minutes = await runCLI(["stats", try fixtureURL("chrome.har").path, "--by", "minute"])
        #expect(minutes.standardOutput.contains("\n2023-03-30T00:00:00.000Z "))
        let missing = await runCLI(["stats", "nope.har"])
        #expect(missing.exitCode == .failure)
        #expect(missing.standardError.contains("nope.har"))
    }

    @Test("report --html writes one redacted self-contained file and prints its path after the summary")
    func reportHTML() async throws {
        let directory = try makeTemporaryDirectory()
        let store = try await Self.makeStore(in: directory)
        let run = await runCLI(["report", store.path, "--html", "out.html"], workingDirectory: directory)
        #expect(run.exitCode == .success)
        #expect(run.standardError.isEmpty)
        let output = directory.appendingPathComponent("out.html")
        #expect(run.standardOutput.contains("3 transactions"))
        #expect(run.standardOutput.hasSuffix("HTML report: \(output.standardizedFileURL.path)\n"))
        let html = try String(contentsOf: output, encoding: .utf8)
        #expect(html.contains("Content-Security-Policy"))
        #expect(html.contains("data-redacted=\"true\""))
        #expect(html.contains("\"total\":3"))
        #expect(!html.contains("abc123def"))
    }

    @Test("report --json --html keeps standard output JSON and names the file on standard error")
    func reportJSONAndHTML() async throws {
        let directory = try makeTemporaryDirectory()
        let run = await runCLI(
            ["report", try fixtureURL("charles.har").path, "--json", "--html", "r.html"],
            workingDirectory: directory
        )
        #expect(run.exitCode == .success)
        #expect((try? JSONSerialization.jsonObject(with: run.standardOutputData)) != nil)
        #expect(run.standardError.hasPrefix("HTML report: "))
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("r.html").path))
    }

    @Test("report --html into a missing folder fails naming the option")
    func reportHTMLUnwritable() async throws {
        let run = await runCLI(["report", try fixtureURL("chrome.har").path, "--html", "/nonexistent-dir/x.html"])
        #expect(run.exitCode == .failure)
        #expect(run.standardError.contains("--html /nonexistent-dir/x.html"))
        #expect(run.standardError.contains("no such folder"))
    }

    @Test("the progress bar draws in place only when enabled, and erases itself")
    func progressBar() {
        #expect(ProgressBar.line("importing a.har", fraction: 0.5) == "importing a.har [############------------]  50%")
        #expect(ProgressBar.line("x", fraction: 2) == "x [########################] 100%")
        let buffer = CommandOutput.Buffer()
        let enabled = ProgressBar("x", output: CommandOutput(buffer), isEnabled: true, tickInterval: nil)
        enabled.update(0.25)
        enabled.update(0.5, step: "redacting")
        enabled.finish()
        #expect(
            buffer.text
                == "\r\u{1B}[2Kx [######------------------]  25%\r\u{1B}[2Kx [############------------]  50% redacting"
                + "\r\u{1B}[2K"
        )
        #expect(
            ProgressBar.line("x", fraction: 0.5, step: "encoding", elapsed: 3.21)
                == "x [############------------]  50% encoding · 3.2 s"
        )
        let quiet = CommandOutput.Buffer()
        let disabled = ProgressBar("x", output: CommandOutput(quiet))
        disabled.update(0.5)
        disabled.finish()
        #expect(quiet.text.isEmpty)
    }
}
