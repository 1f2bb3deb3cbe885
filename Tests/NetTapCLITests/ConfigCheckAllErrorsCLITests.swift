import Foundation
import NetTapCLI
import NetTapCore
import NetTapStore
import NetTapTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("nettap config check prints every error; reading commands change no file")
struct ConfigCheckAllErrorsCLITests {
    @Test("config check prints one line per mistake, in document order, and creates nothing")
    func everyError() async throws {
        let directory = try makeTemporaryDirectory()
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("conf"),
            withIntermediateDirectories: true
        )
        try Data(brokenConfiguration.utf8).write(to: directory.appendingPathComponent("conf/nettap.json"))
        let run = await runCLI(["config", "check", "conf/nettap.json"], workingDirectory: directory)
        #expect(run.exitCode == .failure)
        let lines = run.standardOutput.split(separator: "\n").map(String.init)
        let paths = lines.map { line in
            String(line.dropFirst("conf/nettap.json: ".count).prefix { $0 != ":" })
        }
        #expect(paths == brokenConfigurationPaths, "\(lines)")
        #expect(lines.allSatisfy { $0.hasPrefix("conf/nettap.json: $.") })
        #expect(lines.contains(#"conf/nettap.json: $.scpoe: unknown key "scpoe"; did you mean "scope"?"#))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("conf").path) == [
                "nettap.json"
            ]
        )
    }

    @Test("config check names every bad template of a stub, each at its JSON path")
    func everyTemplateError() async throws {
        let directory = try makeTemporaryDirectory()
        let text = #"""
            {"mocks": {"stubs": [{"name": "a", "templated": true, "match": {"path": "/a"}, "response": {
              "json": {"id": "{{request.paht.2}}", "n": "{{nope}}"}, "headers": {"X": "{{nonsense}}"}}}]}}
            """#
        try Data(text.utf8).write(to: directory.appendingPathComponent("t.json"))
        let run = await runCLI(["config", "check", "t.json"], workingDirectory: directory)
        #expect(run.exitCode == .failure)
        let paths = run.standardOutput.split(separator: "\n").map { $0.split(separator: ":").dropFirst().first ?? "" }
        #expect(
            paths == [
                " $.mocks.stubs[0].response.json.id", " $.mocks.stubs[0].response.json.n",
                " $.mocks.stubs[0].response.headers.X",
            ],
            "\(run.standardOutput)"
        )
        #expect(run.standardOutput.contains(#"did you mean "request.path.2"?"#))
    }

    @Test("config check reads a stand-alone mocks file as its mocks section, every error at its own path")
    func mocksFile() async throws {
        let directory = try makeTemporaryDirectory()
        let bad = #"""
            {"stubs": [{"name": "a", "match": {"paht": "/a"}, "response": {"status": 99}},
              {"name": "b", "match": {"path": "/b"}, "response": {"fault": {"type": "reset"}}}]}
            """#
        try Data(bad.utf8).write(to: directory.appendingPathComponent("m.json"))
        let run = await runCLI(["config", "check", "m.json"], workingDirectory: directory)
        #expect(run.exitCode == .failure)
        let paths = run.standardOutput.split(separator: "\n").map { $0.split(separator: ":").dropFirst().first ?? "" }
        #expect(
            paths == [" $.stubs[0].match.paht", " $.stubs[0].response.status", " $.stubs[1].response.fault.type"],
            "\(run.standardOutput)"
        )
        try Data(#"{"stubs": [{"name": "a", "match": {"path": "/a"}, "response": {}}]}"#.utf8)
            .write(to: directory.appendingPathComponent("ok.json"))
        let good = await runCLI(["config", "check", "ok.json"], workingDirectory: directory)
        #expect(good.exitCode == .success)
        #expect(good.standardOutput == "ok.json: ok (sections: mocks)\n")
    }

    @Test("config check rejects a trailing comma and names a missing file in words")
    func syntaxAndMissing() async throws {
        let directory = try makeTemporaryDirectory()
        try Data(#"{"scope":{"denyHosts":["a"],}}"#.utf8).write(to: directory.appendingPathComponent("c.json"))
        let comma = await runCLI(["config", "check", "c.json"], workingDirectory: directory)
        #expect(comma.exitCode == .failure)
        #expect(comma.standardOutput.hasPrefix("c.json:1:28: invalid JSON: a comma before a closing bracket"))
        let missing = await runCLI(["config", "check", "nope.json"], workingDirectory: directory)
        #expect(missing.standardOutput == "nope.json: no such file\n")
        let option = await runCLI(["stats", "x.har", "--config", "nope.json"], workingDirectory: directory)
        #expect(option.exitCode == .failure)
        #expect(option.standardError == "nettap: stats: nope.json: no such file\n")
    }

    @Test("query with --config reads the redaction but creates no store or cache folder")
    func readingCommandsCreateNothing() async throws {
        let directory = try makeTemporaryDirectory()
        let store = try TransactionStore(url: directory.appendingPathComponent("s.sqlite"))
        try await store.flush()
        try Data(
            #"{"cache": {"directory": "cache"}, "store": {"path": "nettap.sqlite"}, "cassette": {"path": "t.har", "mode": "all"}}"#
                .utf8
        ).write(to: directory.appendingPathComponent("c.json"))
        let run = await runCLI(["query", "s.sqlite", "--config", "c.json"], workingDirectory: directory)
        #expect(run.exitCode == .success, "\(run.standardError)")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(!names.contains("cache"))
        #expect(!names.contains { $0.hasPrefix("nettap.sqlite") })
        #expect(!names.contains("t.har"))
    }

    @Test("a mistyped command or option gets a did-you-mean")
    func didYouMean() async throws {
        let command = await runCLI(["qurey", "s.sqlite"])
        #expect(command.exitCode == .usage)
        #expect(
            command.standardError
                == "nettap: qurey: unknown command; did you mean \"query\"? commands are demo, fetch, report, stats, "
                + "query, inspect, mock, config, help (see 'nettap --help')\n"
        )
        let group = await runCLI(["mock", "lsit"])
        #expect(
            group.standardError.hasPrefix("nettap: mock: lsit: unknown command; did you mean \"list\"? mock commands")
        )
        let option = await runCLI(["fetch", "http://127.0.0.1:9/", "--confg", "x.json"])
        #expect(option.exitCode == .usage)
        #expect(
            option.standardError.contains("--confg: unknown option; did you mean --config?"),
            "\(option.standardError)"
        )
    }
}
