import Foundation
import NetTapCLI
import Testing

/// Every HAR-reading command on every file of the interop corpus (Fixtures/interop: real exports of 19
/// producers, README.md names their sources and licences), the figures checked against the test's own reading
/// of the JSON.
@Suite("Interop corpus: every command reads every real export; files that are not HAR are refused in one line")
struct InteropCorpusTests {
    struct Item: Decodable, Sendable, CustomTestStringConvertible {
        var file: String
        var producer: String
        var isHAR: Bool
        var entries: Int?
        var testDescription: String { file }
    }

    static let items: [Item] = {
        guard
            let url = Bundle.module.url(
                forResource: "manifest",
                withExtension: "json",
                subdirectory: "Fixtures/interop"
            ),
            let data = try? Data(contentsOf: url),
            let items = try? JSONDecoder().decode([Item].self, from: data)
        else { return [] }
        return items
    }()

    /// The file in a fresh directory, so outputs land beside it.
    private func copy(_ item: Item) throws -> URL {
        let source = try #require(
            Bundle.module.url(forResource: item.file, withExtension: nil, subdirectory: "Fixtures/interop")
        )
        let directory = try makeTemporaryDirectory()
        try FileManager.default.copyItem(at: source, to: directory.appendingPathComponent(item.file))
        return directory
    }

    /// The entries' statuses as the test reads them: `response.status` as a number (or a string holding one),
    /// 0 for an entry without a response.
    private func statuses(of item: Item, in directory: URL) throws -> [Int] {
        var data = try Data(contentsOf: directory.appendingPathComponent(item.file))
        if data.starts(with: [0xEF, 0xBB, 0xBF]) { data = data.dropFirst(3) }
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let entries = try #require((root["log"] as? [String: Any])?["entries"] as? [Any])
        return entries.map { entry in
            let status = ((entry as? [String: Any])?["response"] as? [String: Any])?["status"]
            if let number = status as? NSNumber { return number.intValue }
            if let text = status as? String, let number = Double(text) { return Int(number) }
            return 0
        }
    }

    @Test("the corpus is there: at least 40 real exports from at least 10 producers")
    func corpusSize() {
        let har = Self.items.filter(\.isHAR)
        #expect(har.count >= 40)
        #expect(Set(har.map(\.producer)).count >= 10)
        #expect(Self.items.contains { !$0.isHAR })
    }

    @Test(
        "report (text, JSON, HTML), stats and mock save read the file; report's counts match the JSON",
        arguments: items.filter(\.isHAR)
    )
    func readsEveryExport(item: Item) async throws {
        let directory = try copy(item)
        defer { try? FileManager.default.removeItem(at: directory) }
        let statuses = try statuses(of: item, in: directory)
        #expect(statuses.count == item.entries)

        let json = await runCLI(["report", item.file, "--json"], workingDirectory: directory)
        #expect(json.exitCode == .success, "\(json.standardError)")
        let summary = try #require(try JSONSerialization.jsonObject(with: json.standardOutputData) as? [String: Any])
        #expect(summary["entryCount"] as? Int == statuses.count)
        #expect((summary["total"] as? [String: Any])?["requests"] as? Int == statuses.count)
        var expected: [Int: Int] = [:]
        for status in statuses { expected[status, default: 0] += 1 }
        let counted = (summary["statusCounts"] as? [[String: Int]] ?? []).reduce(into: [Int: Int]()) {
            $0[$1["status"] ?? -99] = $1["count"]
        }
        #expect(counted == expected)

        for arguments in [["report", item.file], ["stats", item.file], ["report", item.file, "--html", "out.html"]] {
            let run = await runCLI(arguments, workingDirectory: directory)
            #expect(run.exitCode == .success, "\(arguments): \(run.standardError)")
        }
        let page = try String(contentsOf: directory.appendingPathComponent("out.html"), encoding: .utf8)
        #expect(page.hasPrefix("<!DOCTYPE html>"))

        guard !statuses.isEmpty else { return }
        let save = await runCLI(
            ["mock", "save", item.file, "--entry", "0", "--to", "mocks.json"],
            workingDirectory: directory
        )
        // An entry without a response and without a recorded error cannot become a stub: a clear error naming it.
        if save.exitCode != .success {
            #expect(save.exitCode == .failure)
            #expect(save.standardError.contains("\(item.file): $.log.entries[0]"), "\(save.standardError)")
        }
    }

    @Test(
        "a file that is not HAR is refused by every command in one line naming the file and the place",
        arguments: items.filter { !$0.isHAR }
    )
    func refusesWhatIsNotHAR(item: Item) async throws {
        let directory = try copy(item)
        defer { try? FileManager.default.removeItem(at: directory) }
        for arguments in [
            ["report", item.file], ["stats", item.file], ["mock", "save", item.file, "--to", "m.json"],
        ] {
            let run = await runCLI(arguments, workingDirectory: directory)
            #expect(run.exitCode == .failure, "\(arguments)")
            let lines = run.standardError.split(separator: "\n")
            #expect(lines.count == 1, "\(arguments): \(run.standardError)")
            #expect(lines.first?.contains("\(item.file): ") == true, "\(arguments): \(run.standardError)")
        }
    }
}
