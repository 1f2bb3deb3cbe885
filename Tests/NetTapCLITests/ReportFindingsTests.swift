import Foundation
import NetTapCLI
import NetTapCore
import NetTapHAR
import Testing

/// `nettap report` lists findings: those recorded in the capture, and with `--audit` those the audit finds now.
@Suite("Report: findings")
struct ReportFindingsTests {
    static let secret = "hunter2-\(UUID().uuidString)"

    /// A NetTap HAR with an integrity finding on one entry, and a plaintext Basic-auth login with a password in
    /// its query (a capture made without an audit, or another tool's export).
    static func writeHAR(to folder: URL) throws -> String {
        let timings = Timings(startDate: Date(timeIntervalSince1970: 1_700_000_000), requestSent: 1, end: 3)
        let script = URL(string: "https://cdn.nettap.example/app.js") ?? URL(fileURLWithPath: "/")
        let checked = CapturedTransaction(
            request: CapturedRequest(method: "GET", url: script, headers: [:]),
            response: CapturedResponse(statusCode: 200, headers: [:], url: script, body: CapturedBody(data: Data())),
            timings: timings,
            answeredBy: "integrity",
            state: .completed,
            findings: [
                Finding(
                    rule: "integrity.mismatch",
                    severity: .high,
                    location: "body",
                    message: "The body's SHA-256 is not the one in the manifest.",
                    details: ["action": "fallback"]
                )
            ]
        )
        let login = URL(string: "http://api.nettap.example/login?password=\(secret)") ?? URL(fileURLWithPath: "/")
        let credentials = Data("ada:\(secret)".utf8).base64EncodedString()
        let plaintext = CapturedTransaction(
            request: CapturedRequest(
                method: "POST",
                url: login,
                headers: HeaderFields([.init(name: "Authorization", value: "Basic \(credentials)")])
            ),
            response: CapturedResponse(statusCode: 204, headers: [:], url: login),
            timings: timings,
            state: .completed
        )
        let data = try HARDocument(transactions: [checked, plaintext]).encoded()
        try data.write(to: folder.appendingPathComponent("capture.har"))
        return "capture.har"
    }

    @Test("recorded findings are listed with their messages, most severe first")
    func recorded() async throws {
        let folder = try makeTemporaryDirectory()
        let file = try Self.writeHAR(to: folder)
        let run = await runCLI(["report", file], workingDirectory: folder)
        #expect(run.exitCode == .success, "\(run.standardError)")
        #expect(run.standardOutput.contains("Findings (1; # numbers the messages below, HAR ENTRY is"))
        // The # column is the number of the message below; HAR ENTRY the entry's index in log.entries (from 0,
        // as `mock save --entry` takes it).
        let row = run.standardOutput.components(separatedBy: "\n").first { $0.contains("integrity.mismatch") }
        #expect(
            row?.split(separator: " ").prefix(5).map(String.init) == ["1", "high", "integrity.mismatch", "body", "0"]
        )
        #expect(run.standardOutput.contains("1. The body's SHA-256 is not the one in the manifest."))
        let json = await runCLI(["report", file, "--json"], workingDirectory: folder)
        #expect(json.standardOutput.contains(#""rule" : "integrity.mismatch""#))
    }

    @Test("--audit finds plaintext Basic auth and the password in the query, never printing the secret")
    func audit() async throws {
        let folder = try makeTemporaryDirectory()
        let file = try Self.writeHAR(to: folder)
        let run = await runCLI(["report", file, "--audit"], workingDirectory: folder)
        #expect(run.exitCode == .success, "\(run.standardError)")
        #expect(run.standardOutput.contains("plaintext.basic-auth"))
        #expect(run.standardOutput.contains("query.password"))
        #expect(run.standardOutput.contains("http://api.nettap.example/login"))
        let findings = try #require(run.standardOutput.components(separatedBy: "Findings (").last)
        #expect(!findings.contains(Self.secret), "no finding shows the secret")
        let plain = await runCLI(["report", file], workingDirectory: folder)
        #expect(!plain.standardOutput.contains("plaintext.basic-auth"), "without --audit only recorded findings")
    }
}
