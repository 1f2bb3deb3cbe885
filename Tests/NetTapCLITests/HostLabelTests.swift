import Foundation
import NetTapCLI
import Testing

/// A relative URL (some exporters write them) and text that is not a URL get one label in every command.
@Suite("Hosts of relative or invalid URLs: one label in report, report --json and stats")
struct HostLabelTests {
    static let document = """
        {"log": {"entries": [
          {"startedDateTime": "2026-01-01T00:00:00Z", "time": 5,
           "request": {"method": "GET", "url": "/api/relative"}, "response": {"status": 200}},
          {"startedDateTime": "2026-01-01T00:00:01Z", "time": 5,
           "request": {"method": "GET", "url": "not a url at all"}, "response": {"status": 200}}
        ]}}
        """

    @Test("both entries count under (no host) everywhere")
    func oneLabel() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(Self.document.utf8).write(to: directory.appendingPathComponent("relative.har"))
        let report = await runCLI(["report", "relative.har"], workingDirectory: directory)
        let stats = await runCLI(["stats", "relative.har"], workingDirectory: directory)
        let json = await runCLI(["report", "relative.har", "--json"], workingDirectory: directory)
        for run in [report, stats, json] {
            #expect(run.exitCode == .success, "\(run.standardError)")
            #expect(run.standardOutput.contains("(no host)"))
            #expect(!run.standardOutput.contains("(invalid URL)"))
        }
        let summary = try #require(try JSONSerialization.jsonObject(with: json.standardOutputData) as? [String: Any])
        let hosts = (summary["hosts"] as? [[String: Any]] ?? []).compactMap { $0["host"] as? String }
        #expect(hosts == ["(no host)"])
    }
}
