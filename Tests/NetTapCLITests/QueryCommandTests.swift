import Foundation
import NetTapCLI
import NetTapCore
import NetTapHAR
import NetTapStore
import NetTapTestSupport
import Testing

/// A store file in a fresh directory with three transactions: a 200 and a 503 on api.example.com (the 503 with a
/// finding, answered by a mock), and a failed request to cdn.example.com.
private func makeStore() async throws -> (directory: URL, transactions: [CapturedTransaction]) {
    let directory = try makeTemporaryDirectory()
    let now = Date()
    func transaction(_ url: String, status: Int?, seconds: Double, by: String = "network") -> CapturedTransaction {
        let address = URL(string: url) ?? URL(fileURLWithPath: "/")
        return CapturedTransaction(
            request: CapturedRequest(method: "GET", url: address, headers: ["Accept": "*/*"]),
            response: status.map {
                CapturedResponse(
                    statusCode: $0,
                    headers: ["Content-Type": "text/plain"],
                    url: address,
                    body: CapturedBody(data: Data("body of \(url)".utf8))
                )
            },
            timings: Timings(startDate: now.addingTimeInterval(seconds), requestSent: 1, firstByte: 5, end: 12.5),
            error: status == nil ? TransactionError(domain: NSURLErrorDomain, code: -1004, message: "no") : nil,
            answeredBy: by,
            state: status == nil ? .failed : .completed
        )
    }
    var failing = transaction("https://api.example.com/v1/orders", status: 503, seconds: -20, by: "mock")
    failing.findings = [Finding(rule: "audit.secret", severity: .high, message: "a token in the query")]
    let transactions = [
        transaction("https://api.example.com/v1/users", status: 200, seconds: -30),
        failing,
        transaction("https://cdn.example.com/app.js", status: nil, seconds: -10),
    ]
    let store = try TransactionStore(url: directory.appendingPathComponent("captures.sqlite"))
    for item in transactions { store.record(item) }
    try await store.flush()
    return (directory, transactions)
}

@Suite("nettap query and nettap report on a NetTap store")
struct QueryCommandTests {
    @Test("query prints the matching transactions newest first in a table")
    func table() async throws {
        let (directory, _) = try await makeStore()
        let run = await runCLI(["query", "captures.sqlite"], workingDirectory: directory)
        #expect(run.exitCode == .success)
        #expect(run.standardError.isEmpty)
        let lines = run.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first == "captures.sqlite: 3 matching transactions")
        #expect(lines.dropFirst().first?.hasPrefix("START") == true)
        #expect(lines.count == 5)
        #expect(lines[2].contains("failed -1004") && lines[2].hasSuffix("https://cdn.example.com/app.js"))
        #expect(lines[3].contains(" 503 ") && lines[3].contains(" mock ") && lines[3].contains(" 1 "))
        #expect(lines[4].hasSuffix("https://api.example.com/v1/users"))
    }

    @Test("query on a HAR file points to report and stats; report says how many entries it left out")
    func harGivenToQuery() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let unreadable = #"{"startedDateTime": "2026-01-01T00:00:00Z", "request": {"postData": {}}, "response": {}}"#
        try Data(#"{"log": {"entries": [\#(unreadable)]}}"#.utf8).write(to: directory.appendingPathComponent("a.har"))
        let query = await runCLI(["query", "a.har"], workingDirectory: directory)
        #expect(query.exitCode != .success)
        #expect(
            query.standardError.hasSuffix(
                "not a NetTap store: file is not a database; a HAR file is read by nettap report and nettap stats\n"
            ),
            "\(query.standardError)"
        )
        let report = await runCLI(["report", "a.har"], workingDirectory: directory)
        #expect(
            report.standardOutput.hasPrefix("a.har: 0 transactions (1 entry left out: not readable as HAR), 0 hosts")
        )
        let json = await runCLI(["report", "a.har", "--json"], workingDirectory: directory)
        #expect(json.standardOutput.contains(#""entriesLeftOut" : 1"#))
    }

    @Test("--warnings lists every value read leniently; a file without start dates says so instead of 1970")
    func warningsListed() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let entry = { (extra: String) in
            #"{"request": {"method": "GET", "url": "https://a.example/"}, "response": {"status": 200}, "timings": "#
                + #"{"send": 0, "wait": 1, "receive": 0}\#(extra)}"#
        }
        let json = #"{"log": {"entries": [\#(entry(#", "time": "2""#)), \#(entry(#", "startedDateTime": null"#))]}}"#
        try Data(json.utf8).write(to: directory.appendingPathComponent("odd.har"))
        let listed = await runCLI(["stats", "odd.har", "--warnings"], workingDirectory: directory)
        #expect(listed.exitCode == .success)
        let lines = listed.standardError.split(separator: "\n")
        #expect(lines.first?.hasSuffix("values read leniently, not as HAR 1.2 writes them:") == true, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("  $.log.entries[0].time: expected a number, found a string") })
        #expect(lines.contains { $0.hasPrefix("  $.log.entries[1].startedDateTime: found null") })
        #expect(lines.contains { $0.hasPrefix("  $.log.entries[1]: missing \"time\"") })
        #expect(listed.standardOutput.hasPrefix("odd.har: 2 transactions, 1 host, over 2.0 ms (start times unknown)"))
        let counted = await runCLI(["stats", "odd.har"], workingDirectory: directory)
        #expect(counted.standardError.contains("(--warnings lists them all; --strict refuses such files)"))
    }

    @Test("the HTTP column shows the version negotiated on the wire, else the response's, else -")
    func httpColumn() async throws {
        let directory = try makeTemporaryDirectory()
        let start = Date()
        func transaction(_ path: String, version: String?, wire: String?, seconds: Double) -> CapturedTransaction {
            let url = URL(string: "https://api.example.com\(path)") ?? URL(fileURLWithPath: "/")
            var record = CapturedTransaction(
                request: CapturedRequest(method: "GET", url: url, headers: [:]),
                response: version.map { CapturedResponse(statusCode: 200, httpVersion: $0, headers: [:], url: url) },
                timings: Timings(startDate: start.addingTimeInterval(seconds), end: 3),
                error: version == nil ? TransactionError(domain: NSURLErrorDomain, code: -1001, message: "") : nil,
                state: version == nil ? .failed : .completed
            )
            if let wire {
                var details = WireDetails(transport: WireDetails.libcurl)
                details.httpVersion = wire
                record.wire = details
            }
            return record
        }
        let store = try TransactionStore(url: directory.appendingPathComponent("wire.sqlite"))
        store.record(transaction("/h2", version: "HTTP/1.1", wire: "HTTP/2", seconds: -3))
        store.record(transaction("/h1", version: "http/1.0", wire: nil, seconds: -2))
        store.record(transaction("/none", version: nil, wire: nil, seconds: -1))
        try await store.flush()
        let run = await runCLI(["query", "wire.sqlite"], workingDirectory: directory)
        #expect(run.exitCode == .success, "\(run.standardError)")
        let lines = run.standardOutput.split(separator: "\n").map(String.init)
        let heading = try #require(lines.dropFirst().first)
        let column = try #require(heading.range(of: "HTTP "))
        let offset = heading.distance(from: heading.startIndex, to: column.lowerBound)
        func cell(_ line: String) -> String {
            String(line[line.index(line.startIndex, offsetBy: offset)...].prefix { $0 != " " })
        }
        #expect(lines.count == 5)
        #expect(lines[2].hasSuffix("/none") && cell(lines[2]) == "-")
        #expect(lines[3].hasSuffix("/h1") && cell(lines[3]) == "HTTP/1.0")
        #expect(lines[4].hasSuffix("/h2") && cell(lines[4]) == "HTTP/2")
    }

    @Test("filters combine: host, status class, path, finding, answered-by, since, limit")
    func filters() async throws {
        let (directory, _) = try await makeStore()
        func urls(_ arguments: [String]) async -> [String] {
            let run = await runCLI(["query", "captures.sqlite"] + arguments, workingDirectory: directory)
            #expect(run.exitCode == .success, "\(run.standardError)")
            return run.standardOutput.split(separator: "\n").dropFirst(2).compactMap { $0.split(separator: " ").last }
                .map(String.init)
        }
        #expect(await urls(["--host", "*.example.com", "--status", "2xx"]) == ["https://api.example.com/v1/users"])
        #expect(await urls(["--status", "failed"]) == ["https://cdn.example.com/app.js"])
        #expect(await urls(["--path", "/v1/", "--finding"]) == ["https://api.example.com/v1/orders"])
        #expect(await urls(["--answered-by", "mock", "--method", "get"]) == ["https://api.example.com/v1/orders"])
        #expect(await urls(["--limit", "1"]) == ["https://cdn.example.com/app.js"])
        let future = ISO8601DateFormatter().string(from: Date().addingTimeInterval(60))
        let run = await runCLI(["query", "captures.sqlite", "--since", future], workingDirectory: directory)
        #expect(run.standardOutput == "captures.sqlite: 0 matching transactions\n")
    }

    @Test("query --har writes the matching transactions with their bodies as HAR 1.2")
    func har() async throws {
        let (directory, transactions) = try await makeStore()
        let run = await runCLI(
            ["query", "captures.sqlite", "--host", "api.example.com", "--har", "out.har"],
            workingDirectory: directory
        )
        #expect(run.exitCode == .success)
        #expect(run.standardOutput == "wrote 2 entries to out.har\n")
        let document = try HARDocument.load(contentsOf: directory.appendingPathComponent("out.har"))
        // Oldest first, as HAR 1.2 prefers (the table lists newest first).
        #expect(document.transactions().map(\.id) == [transactions[0].id, transactions[1].id])
        #expect(document.log.entries.first?.response.content.text == "body of https://api.example.com/v1/users")
    }

    @Test("a malformed filter is a usage error naming the option")
    func badArguments() async throws {
        let (directory, _) = try await makeStore()
        let cases: [([String], String)] = [
            (["--status", "7xx"], "nettap: query: --status \"7xx\": must be one of 1xx, 2xx, 3xx, 4xx, 5xx, failed\n"),
            (["--since", "yesterday"], "nettap: query: --since \"yesterday\": must be an ISO 8601 date"),
            (["--host", "a.*.com"], "nettap: query: --host \"a.*.com\": "),
            (["--limit", "-3"], "nettap: query: --limit \"-3\": must be a whole number >= 0\n"),
        ]
        for (arguments, expected) in cases {
            let run = await runCLI(["query", "captures.sqlite"] + arguments, workingDirectory: directory)
            #expect(run.exitCode == .usage)
            #expect(run.standardError.hasPrefix(expected), "\(run.standardError)")
            #expect(run.standardOutput.isEmpty)
        }
    }

    @Test("a missing, non-SQLite or foreign store file is a failure naming it")
    func badStores() async throws {
        let directory = try makeTemporaryDirectory()
        let missing = await runCLI(["query", "nope.sqlite"], workingDirectory: directory)
        #expect(missing.exitCode == .failure)
        #expect(missing.standardError == "nettap: query: nope.sqlite: no such file\n")
        try Data("hello, not SQLite".utf8).write(to: directory.appendingPathComponent("text.sqlite"))
        let text = await runCLI(["query", "text.sqlite"], workingDirectory: directory)
        #expect(text.exitCode == .failure)
        #expect(text.standardError.hasPrefix("nettap: query: text.sqlite: not a NetTap store"))
    }

    @Test("report summarizes a NetTap store as it would its HAR export")
    func report() async throws {
        let (directory, _) = try await makeStore()
        let run = await runCLI(["report", "captures.sqlite"], workingDirectory: directory)
        #expect(run.exitCode == .success, "\(run.standardError)")
        #expect(run.standardOutput.hasPrefix("captures.sqlite: 3 transactions, 2 hosts\n"))
        #expect(run.standardOutput.contains("api.example.com"))
        #expect(run.standardOutput.contains("mock"))
        let json = await runCLI(["report", "captures.sqlite", "--json"], workingDirectory: directory)
        let object = try #require(try JSONSerialization.jsonObject(with: json.standardOutputData) as? [String: Any])
        #expect(object["transactionCount"] as? Int == 3)
    }

    @Test("--answered-by accepts stub and file for mock and files, and names the store's names when none match")
    func answeredByAliases() async throws {
        let (directory, _) = try await makeStore()
        let stub = await runCLI(["query", "captures.sqlite", "--answered-by", "stub"], workingDirectory: directory)
        #expect(stub.exitCode == .success)
        #expect(stub.standardOutput.hasPrefix("captures.sqlite: 1 matching transaction\n"))
        #expect(stub.standardOutput.contains("https://api.example.com/v1/orders"))
        #expect(stub.standardError.isEmpty)

        let file = await runCLI(["query", "captures.sqlite", "--answered-by", "file"], workingDirectory: directory)
        #expect(file.exitCode == .success)
        #expect(file.standardOutput == "captures.sqlite: 0 matching transactions\n")
        #expect(
            file.standardError
                == "nettap: query: --answered-by \"file\" matches no transaction; names in this store: mock, network\n"
        )

        // A name the store has, filtered away by another option, gives no hint.
        let filtered = await runCLI(
            ["query", "captures.sqlite", "--answered-by", "mock", "--status", "2xx"],
            workingDirectory: directory
        )
        #expect(filtered.standardOutput == "captures.sqlite: 0 matching transactions\n")
        #expect(filtered.standardError.isEmpty)
    }

    @Test("--host HOST:PORT matches that port only; a plain host matches every port")
    func hostWithPort() async throws {
        let directory = try makeTemporaryDirectory()
        let store = try TransactionStore(url: directory.appendingPathComponent("ports.sqlite"))
        let urls = ["http://localhost:1000/a", "http://localhost:2000/b", "http://localhost/c", "https://localhost/d"]
        for (index, url) in urls.enumerated() {
            let address = try #require(URL(string: url))
            store.record(
                CapturedTransaction(
                    request: CapturedRequest(method: "GET", url: address, headers: [:]),
                    response: CapturedResponse(statusCode: 200, headers: [:], url: address),
                    timings: Timings(startDate: Date(timeIntervalSinceNow: Double(index)), end: 1),
                    state: .completed
                )
            )
        }
        try await store.flush()
        func paths(_ host: String) async -> [String] {
            let run = await runCLI(["query", "ports.sqlite", "--host", host], workingDirectory: directory)
            #expect(run.exitCode == .success, "\(run.standardError)")
            return run.standardOutput.split(separator: "\n").dropFirst(2)
                .compactMap { $0.split(separator: " ").last?.split(separator: "/").last }.map(String.init).sorted()
        }
        #expect(await paths("localhost:1000") == ["a"])
        #expect(await paths("LOCALHOST:2000") == ["b"])
        #expect(await paths("localhost:80") == ["c"])
        #expect(await paths("localhost:443") == ["d"])
        #expect(await paths("localhost") == ["a", "b", "c", "d"])
        let bad = await runCLI(["query", "ports.sqlite", "--host", "localhost:http"], workingDirectory: directory)
        #expect(bad.exitCode == .usage)
        #expect(bad.standardError.hasPrefix("nettap: query: --host \"localhost:http\": the port after ':'"))
    }

    @Test("a date-only --until includes that whole day, and until before since echoes what was typed")
    func dateOnlyUntil() async throws {
        let directory = try makeTemporaryDirectory()
        let store = try TransactionStore(
            url: directory.appendingPathComponent("days.sqlite"),
            limits: StoreLimits(maximumAge: nil)
        )
        let noon = try #require(ISO8601DateFormatter().date(from: "2026-11-30T12:00:00Z"))
        for (offset, path) in [(0.0, "noon"), (86_400.0, "next-day")] {
            let address = try #require(URL(string: "https://api.example.com/\(path)"))
            store.record(
                CapturedTransaction(
                    request: CapturedRequest(method: "GET", url: address, headers: [:]),
                    response: CapturedResponse(statusCode: 200, headers: [:], url: address),
                    timings: Timings(startDate: noon.addingTimeInterval(offset), end: 1),
                    state: .completed
                )
            )
        }
        try await store.flush()
        let day = await runCLI(
            ["query", "days.sqlite", "--since", "2026-11-30", "--until", "2026-11-30"],
            workingDirectory: directory
        )
        #expect(day.exitCode == .success, "\(day.standardError)")
        #expect(day.standardOutput.hasPrefix("days.sqlite: 1 matching transaction\n"))
        #expect(day.standardOutput.contains("https://api.example.com/noon"))

        let reversed = await runCLI(
            ["query", "days.sqlite", "--since", "2026-11-30", "--until", "2026-11-01"],
            workingDirectory: directory
        )
        #expect(reversed.exitCode == .usage)
        #expect(
            reversed.standardError
                == "nettap: query: --until \"2026-11-01\": is not after --since \"2026-11-30\", so nothing can match\n"
        )
    }

    @Test("--help describes the status column as the table prints it, and the HAR order")
    func helpMatchesOutput() async throws {
        let (directory, _) = try await makeStore()
        let help = await runCLI(["query", "--help"], workingDirectory: directory)
        let text = help.standardOutput.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(text.contains("the state and error code, as in \"failed -1004\""))
        #expect(text.contains("--har writes them oldest first"))
        #expect(text.contains("alias stub"))
        let table = await runCLI(["query", "captures.sqlite", "--status", "failed"], workingDirectory: directory)
        #expect(table.standardOutput.contains(" failed -1004 "))
    }

    @Test("an empty SQLite file says it is not a store and that the data may be in a -wal file left behind")
    func emptyDatabase() async throws {
        let directory = try makeTemporaryDirectory()
        // SQLite reads a 0-byte file as an empty database (no tables, user_version 0).
        try Data().write(to: directory.appendingPathComponent("blank.sqlite"))
        let run = await runCLI(["query", "blank.sqlite"], workingDirectory: directory)
        #expect(run.exitCode == .failure)
        #expect(
            run.standardError
                == "nettap: query: blank.sqlite: not a NetTap store: an empty SQLite database (a store copied "
                + "without its blank.sqlite-wal file may have left its transactions there: copy both files, or "
                + "flush the store first)\n"
        )
        #expect(try Data(contentsOf: directory.appendingPathComponent("blank.sqlite")).isEmpty)
    }

    @Test("query --har of failed transactions passes har-check --strict with only the documented no-response rules")
    func failedTransactionsHAR() async throws {
        guard HARCheck.isAvailable else { return }
        let (directory, _) = try await makeStore()
        let run = await runCLI(["query", "captures.sqlite", "--har", "all.har"], workingDirectory: directory)
        #expect(run.exitCode == .success)
        let file = directory.appendingPathComponent("all.har")
        let strict = try await HARCheck.run(
            ["--strict", "--allow", "status-zero", "--allow", "http-version-empty", file.path]
        )
        #expect(strict.status == 0, "\(strict.output)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        let entries = try #require((json["log"] as? [String: Any])?["entries"] as? [[String: Any]])
        let failed = try #require(entries.last)
        #expect((failed["response"] as? [String: Any])?["status"] as? Int == 0)
        let record = try #require(failed["_netTap"] as? [String: Any])
        #expect(record["state"] as? String == "failed")
        #expect((record["error"] as? [String: Any])?["code"] as? Int == -1004)
    }

    @Test("query --har of a body the store truncated keeps its full size and says so, and passes --strict")
    func truncatedBodyHAR() async throws {
        let directory = try makeTemporaryDirectory()
        let store = try TransactionStore(
            url: directory.appendingPathComponent("cap.sqlite"),
            limits: StoreLimits(bodyByteLimit: 1024)
        )
        let address = try #require(URL(string: "https://api.example.com/big.txt"))
        store.record(
            CapturedTransaction(
                request: CapturedRequest(method: "GET", url: address, headers: [:]),
                response: CapturedResponse(
                    statusCode: 200,
                    headers: ["Content-Type": "text/plain"],
                    url: address,
                    body: CapturedBody(data: Data(repeating: UInt8(ascii: "x"), count: 3000))
                ),
                timings: Timings(startDate: Date(), end: 1),
                state: .completed
            )
        )
        try await store.flush()
        let run = await runCLI(["query", "cap.sqlite", "--har", "cap.har"], workingDirectory: directory)
        #expect(run.exitCode == .success, "\(run.standardError)")
        let file = directory.appendingPathComponent("cap.har")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        let entries = try #require((json["log"] as? [String: Any])?["entries"] as? [[String: Any]])
        let response = try #require(entries.first?["response"] as? [String: Any])
        let content = try #require(response["content"] as? [String: Any])
        // As every NetTap HAR export writes a truncated body: the full size in bodySize and the comment,
        // content.size the size of the text kept (har-check's content-size-mismatch rule).
        #expect(response["bodySize"] as? Int == 3000)
        #expect((content["text"] as? String)?.utf8.count == 1024)
        #expect(content["size"] as? Int == 1024)
        #expect(content["comment"] as? String == "body truncated: kept the first 1024 of 3000 bytes")
        #expect(HARDocument.transactionsIfLoadable(file)?.first?.response?.body?.totalByteCount == 3000)
        if HARCheck.isAvailable {
            let strict = try await HARCheck.run(["--strict", file.path])
            #expect(strict.status == 0, "\(strict.output)")
        }
    }
}

extension HARDocument {
    /// The transactions of the HAR file at `url`, or `nil` when it cannot be loaded.
    fileprivate static func transactionsIfLoadable(_ url: URL) -> [CapturedTransaction]? {
        (try? HARDocument.load(contentsOf: url))?.transactions()
    }
}
