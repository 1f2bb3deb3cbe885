import Foundation
import NetTapCLI
import NetTapCore
import NetTapHAR
import NetTapStore
import Testing

/// A store file in a fresh directory with three transactions: a 200 and a 503 on api.example.com (the 503 with a
/// finding, answered by a mock), and a failed request to cdn.example.com.
private func makeStore() async throws -> (directory: URL, transactions: [Transaction]) {
    let directory = try makeTemporaryDirectory()
    let now = Date()
    func transaction(_ url: String, status: Int?, seconds: Double, by: String = "network") -> Transaction {
        let address = URL(string: url) ?? URL(fileURLWithPath: "/")
        return Transaction(
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
        #expect(document.transactions().map(\.id) == [transactions[1].id, transactions[0].id])
        #expect(document.log.entries.last?.response.content.text == "body of https://api.example.com/v1/users")
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
        #expect(run.standardOutput.hasPrefix("captures.sqlite: 3 entries, 2 hosts\n"))
        #expect(run.standardOutput.contains("api.example.com"))
        #expect(run.standardOutput.contains("mock"))
        let json = await runCLI(["report", "captures.sqlite", "--json"], workingDirectory: directory)
        let object = try #require(try JSONSerialization.jsonObject(with: json.standardOutputData) as? [String: Any])
        #expect(object["entryCount"] as? Int == 3)
    }
}
