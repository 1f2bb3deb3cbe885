import Foundation
import NetTapCLI
import NetTapCore
import NetTapHAR
import NetTapMocking
import NetTapTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("nettap mock save and mock list")
struct MockCommandTests {
    /// Sends the HAR entry's request through a `MockHandler` over the mocks file, with unmatched requests failing.
    private func answer(
        _ entry: HAREntry,
        from mocksFile: URL,
        scenario: String?
    ) async throws
        -> PipelineHarness.Result
    {
        let mocks = try MockSet(configuration: MockConfiguration.load(contentsOf: mocksFile))
        try mocks.activate(scenario: scenario)
        let harness = PipelineHarness(handlers: [MockHandler(mocks: mocks, unmatched: .fail)])
        var request = URLRequest(url: try #require(URL(string: entry.request.url)))
        request.httpMethod = entry.request.method
        return try await harness.send(request)
    }

    @Test("save from Chrome's HAR by --match into a new scenario, then list shows it and it answers the request")
    func chrome() async throws {
        let directory = try makeTemporaryDirectory()
        let har = try fixtureURL("chrome.har")
        let save = await runCLI(
            ["mock", "save", har.path, "--match", "googlelogo", "--scenario", "logo", "--to", "mocks.json"],
            workingDirectory: directory
        )
        #expect(save.exitCode == .success, "\(save.standardError)")
        #expect(save.standardError.isEmpty)
        let path = "/images/branding/googlelogo/2x/googlelogo_light_color_272x92dp.png"
        #expect(
            save.standardOutput.hasPrefix(
                "Saved \(har.path) $.log.entries[2] as stub \"GET \(path)\" in scenario \"logo\" of mocks.json "
                    + "(new file)\n"
            )
        )
        #expect(save.standardOutput.contains("  response: 200, image/png, 7108 bytes\n"))

        let list = await runCLI(["mock", "list", "mocks.json"], workingDirectory: directory)
        #expect(list.exitCode == .success)
        let lines = list.standardOutput.components(separatedBy: "\n")
        #expect(lines.first == "mocks.json: 0 base stubs, 1 scenario; active scenario: none")
        #expect(lines.contains("Scenario \"logo\":"))
        let row = try #require(lines.first { $0.hasPrefix("  GET \(path)") })
        #expect(row.contains("host == www.google.com"))
        #expect(row.contains("path == \(path)"))
        #expect(row.hasSuffix("200, 7108 bytes image/png"))

        let document = try HARDocument.load(contentsOf: har)
        let entry = document.log.entries[2]
        let result = try await answer(entry, from: directory.appendingPathComponent("mocks.json"), scenario: "logo")
        #expect(result.statusCode == 200)
        #expect(result.body == entry.response.content.decodedData())
        #expect(result.body.count == 7108)
        #expect(result.answeredBy == "mock")
        #expect(result.annotations["stub"] == "GET \(path)")
        #expect(result.annotations["scenario"] == "logo")
        #expect(result.response.headers.values(for: "Content-Type") == ["image/png"])
    }

    @Test("--entry and the positions listed count entries left out while reading, as the file numbers them")
    func positionsCountLeftOutEntries() async throws {
        let directory = try makeTemporaryDirectory()
        let entry = { (path: String) in
            #"{"startedDateTime": "2024-01-01T00:00:00Z", "time": 1, "timings": {},"#
                + #" "request": {"method": "GET", "url": "http://a.test\#(path)"}, "response": {"status": 200}}"#
        }
        let har = #"{"log": {"entries": [null, \#(entry("/a")), {"response": {}}, \#(entry("/second"))]}}"#
        try Data(har.utf8).write(to: directory.appendingPathComponent("gaps.har"))
        let saved = await runCLI(
            ["mock", "save", "gaps.har", "--entry", "3", "--to", "m.json"],
            workingDirectory: directory
        )
        #expect(saved.exitCode == .success, "\(saved.standardError)")
        #expect(saved.standardOutput.hasPrefix(#"Saved gaps.har $.log.entries[3] as stub "GET /second""#))
        let leftOut = await runCLI(
            ["mock", "save", "gaps.har", "--entry", "2", "--to", "m.json"],
            workingDirectory: directory
        )
        #expect(leftOut.exitCode == .failure)
        #expect(leftOut.standardError.contains("gaps.har: $.log.entries[2]: not a HAR entry NetTap could read"))
        let past = await runCLI(
            ["mock", "save", "gaps.har", "--entry", "4", "--to", "m.json"],
            workingDirectory: directory
        )
        #expect(
            past.standardError.contains("out of range: gaps.har has 4 entries (valid: 0 to 3)"),
            "\(past.standardError)"
        )
        let both = await runCLI(["mock", "save", "gaps.har", "--to", "m.json"], workingDirectory: directory)
        #expect(
            both.standardError.contains("(1 GET http://a.test/a, 3 GET http://a.test/second)"),
            "\(both.standardError)"
        )
        let report = await runCLI(["report", "--json", "gaps.har"], workingDirectory: directory)
        let json = try #require(try JSONSerialization.jsonObject(with: report.standardOutputData) as? [String: Any])
        let slowest = try #require(json["slowest"] as? [[String: Any]])
        #expect(Set(slowest.compactMap { $0["index"] as? Int }) == [1, 3])
    }

    @Test("save from Charles's one-entry HAR with --name into the base stubs, then list and answer")
    func charles() async throws {
        let directory = try makeTemporaryDirectory()
        let har = try fixtureURL("charles.har")
        let save = await runCLI(
            ["mock", "save", har.path, "--name", "home page", "--to", "mocks.json"],
            workingDirectory: directory
        )
        #expect(save.exitCode == .success, "\(save.standardError)")
        #expect(save.standardOutput.contains("as stub \"home page\" in the base stubs of mocks.json (new file)"))

        let list = await runCLI(["mock", "list", "mocks.json"], workingDirectory: directory)
        #expect(list.exitCode == .success)
        let lines = list.standardOutput.components(separatedBy: "\n")
        #expect(lines.first == "mocks.json: 1 base stub, 0 scenarios; active scenario: none")
        let row = try #require(lines.first { $0.hasPrefix("  home page") })
        #expect(row.contains("host == mitmproxy.org"))
        #expect(row.hasSuffix("200, 23866 bytes text/html"))

        let entry = try #require(try HARDocument.load(contentsOf: har).log.entries.first)
        let result = try await answer(entry, from: directory.appendingPathComponent("mocks.json"), scenario: nil)
        #expect(result.statusCode == 200)
        #expect(result.body == Data((entry.response.content.text ?? "").utf8))
        #expect(result.annotations["stub"] == "home page")
    }

    @Test("a second save adds to the existing file, and the same name in the same place replaces the stub")
    func appendAndReplace() async throws {
        let directory = try makeTemporaryDirectory()
        let chrome = try fixtureURL("chrome.har").path
        for (arguments, note) in [
            (["--entry", "0", "--scenario", "a", "--name", "home"], "of m.json (new file)"),
            (["--entry", "2", "--scenario", "a", "--name", "logo"], "of m.json (2 stubs there now)"),
            (
                ["--entry", "2", "--scenario", "a", "--name", "home"],
                "(replacing the stub of that name; 2 stubs there)"
            ),
        ] {
            let run = await runCLI(
                ["mock", "save", chrome] + arguments + ["--to", "m.json"],
                workingDirectory: directory
            )
            #expect(run.exitCode == .success, "\(run.standardError)")
            #expect(run.standardOutput.split(separator: "\n").first?.hasSuffix(note) == true, "\(run.standardOutput)")
        }
        let configuration = try MockConfiguration.load(contentsOf: directory.appendingPathComponent("m.json"))
        #expect(configuration.scenarios.map(\.name) == ["a"])
        #expect(configuration.scenarios.first?.stubs.map(\.name) == ["logo", "home"])
        let list = await runCLI(["mock", "list", "m.json"], workingDirectory: directory)
        #expect(list.standardOutput.contains("  home "))
        #expect(!list.standardOutput.contains("304"), "the 304 of entry 0 was replaced by entry 2's 200")
    }

    @Test("secrets are redacted by default and kept with --no-redact")
    func redaction() async throws {
        let directory = try makeTemporaryDirectory()
        let har = #"""
            {"log": {"version": "1.2", "creator": {"name": "test", "version": "1"}, "entries": [{
              "startedDateTime": "2024-06-04T09:30:00.000Z", "time": 1, "cache": {}, "timings": {"send": 0, "wait": 1, "receive": 0},
              "request": {"method": "POST", "url": "https://api.example.com/login?api_key=k-123", "httpVersion": "HTTP/1.1",
                          "cookies": [], "headers": [], "queryString": [], "headersSize": -1, "bodySize": 0},
              "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1", "cookies": [],
                           "headers": [{"name": "Set-Cookie", "value": "session=s3cret; Path=/"},
                                       {"name": "Content-Type", "value": "application/json"}],
                           "content": {"size": 17, "mimeType": "application/json", "text": "{\"token\":\"t-456\"}"},
                           "redirectURL": "", "headersSize": -1, "bodySize": 17}
            }]}}
            """#
        try Data(har.utf8).write(to: directory.appendingPathComponent("login.har"))

        let redacted = await runCLI(["mock", "save", "login.har", "--to", "r.json"], workingDirectory: directory)
        #expect(redacted.exitCode == .success, "\(redacted.standardError)")
        #expect(redacted.standardOutput.contains("secrets:  redacted"))
        let redactedText = try String(contentsOf: directory.appendingPathComponent("r.json"), encoding: .utf8)
        for secret in ["s3cret", "t-456", "k-123"] { #expect(!redactedText.contains(secret)) }

        let kept = await runCLI(
            ["mock", "save", "login.har", "--no-redact", "--to", "k.json"],
            workingDirectory: directory
        )
        #expect(kept.exitCode == .success)
        #expect(kept.standardOutput.contains("secrets:  kept (--no-redact)"))
        let keptText = try String(contentsOf: directory.appendingPathComponent("k.json"), encoding: .utf8)
        for secret in ["s3cret", "t-456", "k-123"] { #expect(keptText.contains(secret)) }
    }

    @Test("the demo's mocks file lists its three scenarios, the active one and the failing stub")
    func listDemoMocks() async throws {
        let directory = try makeTemporaryDirectory()
        _ = await runCLI(["demo"], workingDirectory: directory)
        let list = await runCLI(["mock", "list", "nettap-demo-mocks.json"], workingDirectory: directory)
        #expect(list.exitCode == .success)
        let lines = list.standardOutput.components(separatedBy: "\n")
        #expect(lines.first == "nettap-demo-mocks.json: 0 base stubs, 3 scenarios; active scenario: \"happy path\"")
        #expect(lines.contains("Scenario \"happy path\" (active):"))
        #expect(lines.contains("Scenario \"empty cart\":"))
        #expect(lines.contains("Scenario \"server down\":"))
        #expect(
            lines.contains {
                $0.hasPrefix("  offline") && $0.hasSuffix("error cannotConnectToHost (URLError -1004), latency 150 ms")
            }
        )
    }

    @Test("alternatives and sequences list one row each, with the active alternative marked")
    func listAlternativesAndSequences() {
        let configuration = MockConfiguration(
            stubs: [
                Stub(
                    "login",
                    matching: .method("POST") && .path("/login"),
                    alternatives: ["ok": .json(["token": "t"]), "locked": .status(423)],
                    active: "locked"
                ),
                Stub("poll", matching: .path("/job"), sequence: [.status(202), .text("done")], afterEnd: .cycle),
                Stub("old", matching: .path("/old"), response: .redirect(to: "/new", statusCode: 301)),
            ]
        )
        let text = MockListCommand.text(configuration, file: "x.json")
        let lines = text.components(separatedBy: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines.contains { $0.hasPrefix("login") && $0.hasSuffix(#"alternative "ok": 200, 13 bytes JSON"#) })
        #expect(lines.contains(#"alternative "locked" (active): 423"#))
        #expect(lines.contains { $0.hasPrefix("poll") && $0.hasSuffix("step 0: 202") })
        #expect(lines.contains("step 1: 200, 4 bytes text/plain; charset=utf-8"))
        #expect(lines.contains("(then from the first again)"))
        #expect(lines.contains { $0.hasPrefix("old") && $0.hasSuffix("301 → /new") })
    }

    @Test("a stub's body fault is listed after its body and pacing, and a file's fault key reads the same")
    func listBodyFaults() async throws {
        let configuration = MockConfiguration(
            stubs: [
                Stub("cut", matching: .path("/cut"), response: .text("hello").withFault(.truncate(afterBytes: 2))),
                Stub(
                    "drop",
                    matching: .path("/drop"),
                    response: .text("hello").withBandwidth(bytesPerSecond: 10).withFault(.dropConnection(afterBytes: 1))
                ),
                Stub("hang", matching: .path("/hang"), response: .status(200).withFault(.stall(afterBytes: 0))),
            ]
        )
        let lines = MockListCommand.text(configuration, file: "x.json").components(separatedBy: "\n")
            .map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(
            lines.contains {
                $0.hasPrefix("cut") && $0.hasSuffix("5 bytes text/plain; charset=utf-8, truncated after 2 bytes")
            }
        )
        #expect(lines.contains { $0.hasPrefix("drop") && $0.hasSuffix("10 bytes/s, connection dropped after 1 byte") })
        #expect(lines.contains { $0.hasPrefix("hang") && $0.hasSuffix("200, stalls after the head") })
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(
            #"{"stubs": [{"name": "cut", "match": {"path": "/cut"}, "response": {"body": "hello", "fault": {"type": "truncate", "afterBytes": 2}}}]}"#
                .utf8
        ).write(to: directory.appendingPathComponent("m.json"))
        let list = await runCLI(["mock", "list", "m.json"], workingDirectory: directory)
        #expect(list.exitCode == .success)
        #expect(list.standardOutput.contains("truncated after 2 bytes"), "\(list.standardOutput)")
    }

    @Test(
        "errors name the input and the place in it",
        arguments: [
            (
                ["mock", "save", "missing.har", "--to", "m.json"], ExitCode.failure,
                "nettap: mock save: missing.har: no such file"
            ),
            (
                ["mock", "save", "FIXTURE:chrome.har", "--entry", "3", "--to", "m.json"], ExitCode.usage,
                "nettap: mock save: --entry 3: out of range: FIXTURE:chrome.har has 3 entries (valid: 0 to 2)"
            ),
            (
                ["mock", "save", "FIXTURE:chrome.har", "--to", "m.json"], ExitCode.usage,
                "nettap: mock save: FIXTURE:chrome.har: has 3 entries (0 GET https://mitmproxy.org/, "
                    + "1 GET https://www.google.com/, 2 GET https://www.google.com/images/branding/googlelogo/2x/"
                    + "googlelogo_light_color_272x92dp.png); choose one with --entry N or --match URL_SUBSTRING"
            ),
            (
                ["mock", "save", "FIXTURE:chrome.har", "--match", "google.com", "--to", "m.json"], ExitCode.usage,
                #"nettap: mock save: --match "google.com": 2 entries of FIXTURE:chrome.har match"#
            ),
            (
                ["mock", "save", "FIXTURE:chrome.har", "--match", "nowhere", "--to", "m.json"], ExitCode.usage,
                #"nettap: mock save: --match "nowhere": no request URL among the 3 entries of FIXTURE:chrome.har"#
            ),
            (
                ["mock", "save", "FIXTURE:broken.har", "--to", "m.json"], ExitCode.failure,
                "nettap: mock save: FIXTURE:broken.har: 5:1: invalid JSON"
            ),
            (
                ["mock", "save", "FIXTURE:charles.har", "--to", "bad-syntax.json"], ExitCode.failure,
                "nettap: mock save: bad-syntax.json: 1:"
            ),
            (
                ["mock", "save", "FIXTURE:charles.har", "--to", "bad-shape.json"], ExitCode.failure,
                "nettap: mock save: bad-shape.json: $.stubs[0].name: expected a string, found a number"
            ),
            (
                ["mock", "save", "FIXTURE:charles.har", "--to", "no-folder/m.json"], ExitCode.failure,
                #"nettap: mock save: no-folder/m.json: cannot write: no such folder"#
            ),
            (["mock", "list", "missing.json"], ExitCode.failure, "nettap: mock list: missing.json: no such file"),
            (["mock", "list", "bad-syntax.json"], ExitCode.failure, "nettap: mock list: bad-syntax.json: 1:"),
            (
                ["mock", "list", "bad-shape.json"], ExitCode.failure,
                "nettap: mock list: bad-shape.json: $.stubs[0].name: expected a string, found a number"
            ),
        ]
    )
    func errors(arguments: [String], exitCode: ExitCode, expectedPrefix: String) async throws {
        let directory = try makeTemporaryDirectory()
        try Data(#"{"stubs": ["#.utf8).write(to: directory.appendingPathComponent("bad-syntax.json"))
        try Data(#"{"stubs": [{"name": 3, "match": {}, "response": {}}]}"#.utf8)
            .write(to: directory.appendingPathComponent("bad-shape.json"))
        // Fixtures are copied in under a short name, so the expected lines do not depend on the bundle path.
        for name in ["chrome.har", "charles.har", "broken.har"] {
            try FileManager.default.copyItem(
                at: try fixtureURL(name),
                to: directory.appendingPathComponent("FIXTURE:" + name)
            )
        }
        let run = await runCLI(arguments, workingDirectory: directory)
        #expect(run.exitCode == exitCode)
        #expect(run.standardError.hasPrefix(expectedPrefix), "\(run.standardError)")
        #expect(run.standardError.filter { $0 == "\n" }.count == 1)
        #expect(run.standardOutput.isEmpty)
        let untouched = directory.appendingPathComponent("m.json")
        #expect(!FileManager.default.fileExists(atPath: untouched.path), "a failed save writes nothing")
    }

    @Test("'nettap mock' alone lists the mock commands on stderr and exits 2; help mock prints them")
    func groupHelp() async {
        let bare = await runCLI(["mock"])
        #expect(bare.exitCode == .usage)
        #expect(bare.standardError.contains("  nettap mock save HAR_FILE"))
        #expect(bare.standardError.contains("  nettap mock list MOCKS.json"))
        for arguments in [["help", "mock"], ["mock", "--help"]] {
            let run = await runCLI(arguments)
            #expect(run.exitCode == .success)
            #expect(run.standardOutput.hasPrefix("nettap mock: "))
            #expect(run.standardOutput.contains("mock list  Lists the scenarios"))
        }
        let save = await runCLI(["help", "mock", "save"])
        #expect(save.exitCode == .success)
        #expect(save.standardOutput.contains("Usage: nettap mock save HAR_FILE [--entry N]"))
        #expect(
            save.standardOutput.contains("[--no-redact] --to MOCKS.json [--config FILE]\n"),
            "a required option has no brackets"
        )
        let top = await runCLI(["--help"])
        #expect(top.standardOutput.contains("  mock save     Saves one HAR entry as a stub"))
    }
}
