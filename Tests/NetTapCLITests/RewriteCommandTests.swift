import Foundation
import NetTapCLI
import NetTapCore
import NetTapHAR
import NetTapMocking
import NetTapTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("nettap and rewrite rules: fetch --map-remote, report, mock list and config check")
struct RewriteCommandTests {
    @Test("fetch --map-remote sends a production URL to httpbin; the HAR and report keep both URLs")
    func fetchMapRemote() async throws {
        let server = try await HTTPBin.shared()
        let directory = try makeTemporaryDirectory()
        let target = server.url("/").absoluteString
        let fetch = await runCLI(
            [
                "fetch", "https://api.example.com/v1/get?x=1", "--map-remote", "https://api.example.com/v1=\(target)",
                "--map-remote", "https://unused.example.com=\(target)", "--har", "mapped.har",
            ],
            workingDirectory: directory
        )
        #expect(fetch.exitCode == .success, "\(fetch.standardError)")
        let echo = try #require(try JSONSerialization.jsonObject(with: fetch.standardOutputData) as? [String: Any])
        #expect(echo["url"] as? String == "http://127.0.0.1:\(server.port)/get?x=1")
        #expect(fetch.standardError.contains("answered by network, sent to http://127.0.0.1:\(server.port)/get?x=1"))

        let har = try HARDocument.load(contentsOf: directory.appendingPathComponent("mapped.har"))
        let entry = try #require(har.log.entries.first)
        #expect(entry.request.url == "http://127.0.0.1:\(server.port)/get?x=1")
        #expect(entry.netTap?.annotations?["rewrite.original-url"] == "https://api.example.com/v1/get?x=1")
        #expect(entry.netTap?.responseURL == "https://api.example.com/v1/get?x=1")
        #expect(entry.comment?.contains("rewrite.original-url=https://api.example.com/v1/get?x=1") == true)

        let report = await runCLI(["report", "mapped.har", "--html", "page.html"], workingDirectory: directory)
        #expect(report.exitCode == .success)
        #expect(report.standardOutput.contains("Rewritten by rewrite rules (1;"))
        #expect(report.standardOutput.contains("  entry 0: GET https://api.example.com/v1/get?x=1\n"))
        #expect(report.standardOutput.contains("      sent to http://127.0.0.1:\(server.port)/get?x=1\n"))
        let page = try String(contentsOf: directory.appendingPathComponent("page.html"), encoding: .utf8)
        #expect(page.contains(#"["Sent to","http://127.0.0.1:\#(server.port)/get?x=1"]"#))
        #expect(page.contains("detail-rewrite"))

        // A stub saved from the entry matches what the app asked for: stubs sit above the rewrite rules.
        let save = await runCLI(["mock", "save", "mapped.har", "--to", "mocks.json"], workingDirectory: directory)
        #expect(save.exitCode == .success, "\(save.standardError)")
        #expect(save.standardOutput.contains("request:  GET https://api.example.com/v1/get?x=1"))
        let mocks = try MockConfiguration.load(contentsOf: directory.appendingPathComponent("mocks.json"))
        let stub = try #require(mocks.stubs.first)
        #expect(stub.matcher.matches(URLRequest(url: URL(string: "https://api.example.com/v1/get?x=1")!)))
        #expect(!stub.matcher.matches(URLRequest(url: URL(string: "http://127.0.0.1:\(server.port)/get?x=1")!)))
    }

    @Test("fetch --map-remote comes before a --config file's map remote rules and keeps its other rewrite rules")
    func mapRemoteWithConfiguration() async throws {
        let server = try await HTTPBin.shared()
        let directory = try makeTemporaryDirectory()
        let configuration = """
            {"rewrite": {
              "mapRemote": [{"from": "https://api.example.com", "to": "http://127.0.0.1:1"}],
              "requestHeaders": [{"set": {"X-From-Config": "yes"}}]
            }}
            """
        try Data(configuration.utf8).write(to: directory.appendingPathComponent("nettap.json"))
        let interceptor = NetTapInterceptor()
        let fetch = await runCLI(
            [
                "fetch", "--config", "nettap.json", "https://api.example.com/headers",
                "--map-remote", "https://api.example.com=\(server.url("/").absoluteString)",
            ],
            interceptor: interceptor,
            workingDirectory: directory
        )
        #expect(fetch.exitCode == .success, "\(fetch.standardError)")
        let echo = try #require(try JSONSerialization.jsonObject(with: fetch.standardOutputData) as? [String: Any])
        #expect((echo["headers"] as? [String: String])?["X-From-Config"] == "yes")
        #expect(interceptor.handlers.count == 1, "the configured rewrite handler is back after the command")
    }

    @Test(
        "fetch --map-remote says what is wrong with a bad FROM=TO, with exit 2",
        arguments: [
            ("nope", "must look like FROM=TO"),
            ("=http://127.0.0.1:1", "must look like FROM=TO"),
            ("https://api.example.com=", "TO is missing"),
            (
                "api.example.com=http://127.0.0.1:1",
                "FROM is an invalid map remote URL \"api.example.com\": missing scheme"
            ),
            ("https://api.example.com=ftp://127.0.0.1", "TO is an invalid map remote URL \"ftp://127.0.0.1\""),
            ("https://api.example.com/?q=1=http://127.0.0.1", "no query"),
        ]
    )
    func badMapRemote(value: String, message: String) async {
        let run = await runCLI(["fetch", "https://api.example.com/", "--map-remote", value])
        #expect(run.exitCode == .usage)
        #expect(run.standardError.contains("--map-remote"))
        #expect(run.standardError.contains(message), "\(run.standardError)")
    }

    private static let configuration = """
        {
          "mocks": {"stubs": [{"name": "me", "match": {"path": "/me"}, "response": {"status": 200}}]},
          "rewrite": {
            "mapRemote": [{"from": "https://api.example.com/v1", "to": "http://127.0.0.1:8080/staging/v1"}],
            "requestHeaders": [{"set": {"X-Debug": "1"}}],
            "responseBody": [{"jsonPath": "$.user.name", "value": "Test", "match": {"host": "api.example.com"}}]
          }
        }
        """

    private static let ruleLines = [
        "  map remote https://api.example.com/v1 → http://127.0.0.1:8080/staging/v1",
        "  request header set X-Debug: 1",
        #"  response body set $.user.name to "Test" if host == api.example.com"#,
    ]

    @Test("mock list and config check print the rewrite rules in a block of their own")
    func listsRules() async throws {
        let directory = try makeTemporaryDirectory()
        try Data(Self.configuration.utf8).write(to: directory.appendingPathComponent("nettap.json"))
        let list = await runCLI(["mock", "list", "nettap.json"], workingDirectory: directory)
        #expect(list.exitCode == .success)
        let listed = list.standardOutput.components(separatedBy: "\n")
        #expect(listed.first == "nettap.json: 1 base stub, 0 scenarios; active scenario: none")
        let heading = try #require(listed.firstIndex { $0.hasPrefix("Rewrite rules (map remote: the first") })
        #expect(Array(listed[(heading + 1)...].prefix(3)) == Self.ruleLines)

        let check = await runCLI(["config", "check", "nettap.json"], workingDirectory: directory)
        #expect(check.exitCode == .success)
        let checked = check.standardOutput.components(separatedBy: "\n")
        #expect(checked.first == "nettap.json: ok (sections: mocks, rewrite)")
        #expect(Array(checked.suffix(4).prefix(3)) == Self.ruleLines)
    }

    @Test("config check names the file and the JSON path of every bad rewrite rule")
    func checkErrors() async throws {
        let directory = try makeTemporaryDirectory()
        let json = """
            {"rewrite": {
              "mapRemote": [{"from": "api.example.com", "to": "http://127.0.0.1:1"}],
              "responseBody": [{"jsonPath": "$.a.", "value": 1}, {"replace": "a", "with": "b", "match": {"hots": "x"}}],
              "requestHeader": []
            }}
            """
        try Data(json.utf8).write(to: directory.appendingPathComponent("nettap.json"))
        let check = await runCLI(["config", "check", "nettap.json"], workingDirectory: directory)
        #expect(check.exitCode == .failure)
        let lines = check.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.count == 4, "\(lines)")
        #expect(lines.contains { $0.hasPrefix(#"nettap.json: $.rewrite.requestHeader: unknown key "requestHeader""#) })
        #expect(lines.contains { $0.hasPrefix(#"nettap.json: $.rewrite.mapRemote[0].from: invalid map remote URL"#) })
        #expect(lines.contains { $0.hasPrefix(#"nettap.json: $.rewrite.responseBody[0].jsonPath: invalid JSON path"#) })
        #expect(lines.contains { $0.hasPrefix(#"nettap.json: $.rewrite.responseBody[1].match.hots: unknown key"#) })
    }
}
