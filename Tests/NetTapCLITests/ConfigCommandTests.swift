import Foundation
import NetTapCLI
import NetTapCore
import NetTapHAR
import NetTapStore
import NetTapTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Writes `text` to `name` in `directory` and returns the file's URL.
@discardableResult
private func write(_ text: String, _ name: String, in directory: URL) throws -> URL {
    let url = directory.appendingPathComponent(name)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(text.utf8).write(to: url)
    return url
}

/// A configuration whose mocks answer `https://api.nettap.invalid/hello` and whose store is `captures.sqlite`.
private let mockingConfiguration = """
    {
      "mocks": {"stubs": [{"name": "hello", "match": {"host": "api.nettap.invalid", "path": "/hello"},
                           "response": {"body": "hello from the stub", "headers": {"Content-Type": "text/plain"}}}]},
      "store": {"path": "captures.sqlite"}
    }
    """

@Suite("nettap config check and --config on every command")
struct ConfigCommandTests {
    @Test("config check prints ok with the sections of a valid file")
    func checkValid() async throws {
        let directory = try makeTemporaryDirectory()
        try write(
            #"{"scope": {"denyHosts": ["*.ads.example"]}, "shaping": {"profile": "3g"}}"#,
            "c.json",
            in: directory
        )
        let run = await runCLI(["config", "check", "c.json"], workingDirectory: directory)
        #expect(run.exitCode == .success)
        #expect(run.standardOutput == "c.json: ok (sections: scope, shaping)\n")
        #expect(run.standardError.isEmpty)
        let viaOption = await runCLI(["config", "check", "--config", "c.json"], workingDirectory: directory)
        #expect(viaOption.standardOutput == "c.json: ok (sections: scope, shaping)\n")
    }

    @Test("config check prints every error, one line each with its JSON path, and exits 1")
    func checkErrors() async throws {
        let directory = try makeTemporaryDirectory()
        try write(
            #"""
            {
              "mokcs": {},
              "capture": {"capacity": -1},
              "mocks": {"stubs": [{"name": "a", "match": {"pathRgex": "^/a"}, "response": {}}]},
              "cassette": {"path": "t.har", "mode": "sometimes"},
              "integrity": {"rules": [{"match": {}, "expect": {"manifest": "m.json"}}]}
            }
            """#,
            "configs/bad.json",
            in: directory
        )
        try write(#"{"/app.js": "sha256-not base64!"}"#, "configs/m.json", in: directory)
        let run = await runCLI(["config", "check", "configs/bad.json"], workingDirectory: directory)
        #expect(run.exitCode == .failure)
        let lines = run.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.count == 5, "\(lines)")
        #expect(lines[0] == #"configs/bad.json: $.mokcs: unknown key "mokcs"; did you mean "mocks"?"#)
        #expect(lines[1] == "configs/bad.json: $.capture.capacity: expected a capacity of at least 1, found -1")
        #expect(
            lines[2]
                == #"configs/bad.json: $.mocks.stubs[0].match.pathRgex: unknown key "pathRgex"; did you mean "pathRegex"?"#
        )
        #expect(lines[3].hasPrefix(#"configs/bad.json: $.cassette.mode: unknown record mode "sometimes""#))
        // An error in the manifest names where it was referenced, then the manifest and the place in it.
        #expect(lines[4].hasPrefix("configs/bad.json: $.integrity.rules[0].expect.manifest: cannot use the manifest "))
        #expect(lines[4].contains(#"m.json: $["/app.js"]: "#), "an error in the manifest names the manifest")
    }

    @Test("config check names a syntax error's line and column, and a missing file")
    func checkUnreadable() async throws {
        let directory = try makeTemporaryDirectory()
        try write("{\n  \"scope\": {,}\n}\n", "syntax.json", in: directory)
        let syntax = await runCLI(["config", "check", "syntax.json"], workingDirectory: directory)
        #expect(syntax.exitCode == .failure)
        #expect(syntax.standardOutput.hasPrefix("syntax.json:2:"))
        #expect(syntax.standardOutput.contains("invalid JSON"))
        let missing = await runCLI(["config", "check", "nowhere.json"], workingDirectory: directory)
        #expect(missing.exitCode == .failure)
        #expect(missing.standardOutput == "nowhere.json: no such file\n")
    }

    @Test("config check without a file, or with two, is a usage error")
    func checkUsage() async throws {
        let bare = await runCLI(["config", "check"])
        #expect(bare.exitCode == .usage)
        #expect(bare.standardError.contains("FILE: missing argument"))
        let two = await runCLI(["config", "check", "a.json", "--config", "b.json"])
        #expect(two.exitCode == .usage)
        let group = await runCLI(["config"])
        #expect(group.exitCode == .usage)
        #expect(group.standardError.contains("nettap config check [FILE]"))
    }

    @Test("every command's help lists --config FILE")
    func everyCommandAcceptsConfig() async throws {
        for command in NetTapCLI.commands {
            #expect(command.spec.helpText.contains("--config FILE"), "\(command.spec.name)")
            #expect(command.spec.usage.hasSuffix("[--config FILE]"), "\(command.spec.name)")
        }
        let top = await runCLI(["--help"])
        #expect(top.standardOutput.contains("Every command accepts --config FILE"))
    }

    @Test("fetch --config answers from the file's mocks without the network and stores the transaction")
    func fetchWithMocks() async throws {
        let directory = try makeTemporaryDirectory()
        try write(mockingConfiguration, "nettap.json", in: directory)
        let interceptor = NetTapInterceptor()
        let transport = FakeTransport(statusCode: 599)
        interceptor.transport = transport
        let run = await runCLI(
            ["fetch", "https://api.nettap.invalid/hello", "--config", "nettap.json"],
            interceptor: interceptor,
            workingDirectory: directory
        )
        #expect(run.exitCode == .success, "\(run.standardError)")
        #expect(run.standardOutput == "hello from the stub")
        #expect(run.standardError.contains("answered by mock"))
        #expect(transport.requests.isEmpty)
        let store = try TransactionStore(url: directory.appendingPathComponent("captures.sqlite"), mode: .readOnly)
        let stored = try await store.transactions()
        #expect(stored.map(\.request.url.absoluteString) == ["https://api.nettap.invalid/hello"])
        #expect(stored.first?.answeredBy == "mock")
    }

    @Test("a command with an invalid --config fails with the configuration error and does not run")
    func invalidConfig() async throws {
        let directory = try makeTemporaryDirectory()
        try write(#"{"shaping": {"profile": "5g"}}"#, "bad.json", in: directory)
        let transport = FakeTransport(statusCode: 200)
        let interceptor = NetTapInterceptor()
        interceptor.transport = transport
        let run = await runCLI(
            ["fetch", "https://api.nettap.invalid/", "--config", "bad.json"],
            interceptor: interceptor,
            workingDirectory: directory
        )
        #expect(run.exitCode == .failure)
        #expect(
            run.standardError.hasPrefix(
                #"nettap: fetch: bad.json: $.shaping.profile: unknown network profile preset "5g""#
            )
        )
        #expect(run.standardOutput.isEmpty)
        #expect(transport.requests.isEmpty)
        let missing = await runCLI(["mock", "list", "x.json", "--config", "none.json"], workingDirectory: directory)
        #expect(missing.exitCode == .failure)
        #expect(missing.standardError == "nettap: mock list: none.json: no such file\n")
    }

    @Test("query and report with --config redact URLs and the exported HAR; without it they do not")
    func queryAndReportRedact() async throws {
        let directory = try makeTemporaryDirectory()
        let store = try TransactionStore(url: directory.appendingPathComponent("s.sqlite"))
        let url = try #require(URL(string: "https://api.example.com/v1/items?sig=s1g-value&page=2"))
        store.record(
            CapturedTransaction(
                request: CapturedRequest(method: "GET", url: url, headers: ["X-Session": "sess-789"]),
                response: CapturedResponse(statusCode: 200, headers: [:], url: url, body: CapturedBody(data: Data())),
                timings: Timings(startDate: Date(), requestSent: 1, firstByte: 2, end: 3),
                state: .completed
            )
        )
        try await store.flush()
        try write(
            #"{"redaction": {"add": [{"query": "sig"}, {"header": "X-Session"}]}}"#,
            "redact.json",
            in: directory
        )

        let plain = await runCLI(["query", "s.sqlite"], workingDirectory: directory)
        #expect(plain.standardOutput.contains("sig=s1g-value"))
        let query = await runCLI(["query", "s.sqlite", "--config", "redact.json"], workingDirectory: directory)
        #expect(query.exitCode == .success, "\(query.standardError)")
        #expect(query.standardOutput.contains("sig=%5Bredacted%5D&page=2"))
        #expect(!query.standardOutput.contains("s1g-value"))

        let export = await runCLI(
            ["query", "s.sqlite", "--har", "out.har", "--config", "redact.json"],
            workingDirectory: directory
        )
        #expect(export.exitCode == .success, "\(export.standardError)")
        let har = try String(contentsOf: directory.appendingPathComponent("out.har"), encoding: .utf8)
        #expect(!har.contains("s1g-value") && !har.contains("sess-789"))
        #expect(har.contains("[redacted]"))

        let report = await runCLI(["report", "s.sqlite", "--config", "redact.json"], workingDirectory: directory)
        #expect(report.exitCode == .success, "\(report.standardError)")
        #expect(report.standardOutput.contains("sig=%5Bredacted%5D"))
        #expect(!report.standardOutput.contains("s1g-value"))
    }

    @Test("mock save --config redacts with the file's redaction rules")
    func mockSaveRedacts() async throws {
        let directory = try makeTemporaryDirectory()
        let har = #"""
            {"log": {"version": "1.2", "creator": {"name": "test", "version": "1"}, "entries": [{
              "startedDateTime": "2024-06-04T09:30:00.000Z", "time": 1, "cache": {}, "timings": {"send": 0, "wait": 1, "receive": 0},
              "request": {"method": "GET", "url": "https://api.example.com/me", "httpVersion": "HTTP/1.1",
                          "cookies": [], "headers": [], "queryString": [], "headersSize": -1, "bodySize": 0},
              "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1", "cookies": [],
                           "headers": [{"name": "X-Session", "value": "sess-789"}],
                           "content": {"size": 13, "mimeType": "application/json", "text": "{\"pin\":\"4321\"}"},
                           "redirectURL": "", "headersSize": -1, "bodySize": 13}
            }]}}
            """#
        try write(har, "me.har", in: directory)
        try write(#"{"redaction": {"add": [{"header": "X-Session"}, {"field": "pin"}]}}"#, "n.json", in: directory)
        let plain = await runCLI(["mock", "save", "me.har", "--to", "plain.json"], workingDirectory: directory)
        #expect(plain.exitCode == .success, "\(plain.standardError)")
        let plainText = try String(contentsOf: directory.appendingPathComponent("plain.json"), encoding: .utf8)
        #expect(plainText.contains("sess-789") && plainText.contains("4321"))
        let configured = await runCLI(
            ["mock", "save", "me.har", "--to", "redacted.json", "--config", "n.json"],
            workingDirectory: directory
        )
        #expect(configured.exitCode == .success, "\(configured.standardError)")
        let text = try String(contentsOf: directory.appendingPathComponent("redacted.json"), encoding: .utf8)
        #expect(!text.contains("sess-789") && !text.contains("4321"))
    }

    @Test("demo --config stores the demo's transactions in the file's store")
    func demoWithStore() async throws {
        let directory = try makeTemporaryDirectory()
        try write(#"{"store": {"path": "demo.sqlite"}, "capture": {"capacity": 500}}"#, "n.json", in: directory)
        let interceptor = NetTapInterceptor()
        let run = await runCLI(["demo", "--config", "n.json"], interceptor: interceptor, workingDirectory: directory)
        #expect(run.exitCode == .success, "\(run.standardError)")
        #expect(interceptor.captureLog.capacity == 500)
        let store = try TransactionStore(url: directory.appendingPathComponent("demo.sqlite"), mode: .readOnly)
        let count = try await store.count()
        #expect(count == interceptor.captureLog.transactions.count)
        #expect(count > 10)
    }
}
