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

    /// One entry as the test reads it from the JSON, with the definitions of docs/statistics.md.
    struct Reading {
        /// `response.status`, 0 for an entry without a response (a status of 0 or −1).
        var status: Int
        /// The response body's size as received (docs/statistics.md).
        ///
        /// `_netTap.bodies.responseSize`, else `content.size` or the decoded text's length (the larger), and
        /// without `Content-Encoding` the larger of that and `bodySize`; else `bodySize`; else 0. 0 without a
        /// response.
        var bytesIn: Int64
        /// The request body's size as sent: `_netTap.bodies.requestSize`, else the larger of `bodySize` and the
        /// post data's text length, 0 when neither is known.
        var bytesOut: Int64
    }

    /// The entries of the file, read with JSONSerialization.
    private func readings(of item: Item, in directory: URL) throws -> [Reading] {
        var data = try Data(contentsOf: directory.appendingPathComponent(item.file))
        if data.starts(with: [0xEF, 0xBB, 0xBF]) { data = data.dropFirst(3) }
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let entries = try #require((root["log"] as? [String: Any])?["entries"] as? [Any])
        return entries.map { entry in
            let entry = entry as? [String: Any] ?? [:]
            let response = entry["response"] as? [String: Any]
            let status = max(0, Self.number(response?["status"]) ?? 0)
            let bodies = (entry["_netTap"] as? [String: Any])?["bodies"] as? [String: Any]
            let request = entry["request"] as? [String: Any] ?? [:]
            let bytesOut =
                Self.number(bodies?["requestSize"]).map(Int64.init) ?? Self.bytesOut(of: request)
            guard status > 0, let response else { return Reading(status: 0, bytesIn: 0, bytesOut: bytesOut) }
            let bytesIn = Self.number(bodies?["responseSize"]).map(Int64.init) ?? Self.bytesIn(of: response)
            return Reading(status: status, bytesIn: bytesIn, bytesOut: bytesOut)
        }
    }

    /// A number, or a string holding one (as some exporters write them).
    private static func number(_ value: Any?) -> Int? {
        if let number = value as? NSNumber { return number.intValue }
        if let text = value as? String, let number = Double(text.trimmingCharacters(in: .whitespaces)) {
            return Int(number)
        }
        return nil
    }

    private static func bytesOut(of request: [String: Any]) -> Int64 {
        let bodySize = Int64(number(request["bodySize"]) ?? -1)
        guard let postData = request["postData"] as? [String: Any] else { return max(0, bodySize) }
        let length = decodedLength(text: postData["text"] as? String, encoding: postData["encoding"] as? String)
        let params = postData["params"] as? [[String: Any]] ?? []
        if (length ?? 0) > 0 || params.isEmpty || bodySize < 0 {
            if length == nil, !params.isEmpty {
                // Only fields, no size: the fields as a URL-encoded form.
                var form = URLComponents()
                form.queryItems = params.map {
                    URLQueryItem(name: $0["name"] as? String ?? "", value: $0["value"] as? String)
                }
                return Int64(form.percentEncodedQuery?.utf8.count ?? 0)
            }
            return max(0, bodySize, length ?? 0)
        }
        return bodySize
    }

    /// The length of a HAR text once decoded (base64 when `encoding` says so); `nil` without a text.
    private static func decodedLength(text: String?, encoding: String?) -> Int64? {
        guard let text else { return nil }
        if encoding?.lowercased() == "base64" {
            return Data(base64Encoded: text, options: .ignoreUnknownCharacters).map { Int64($0.count) }
        }
        return Int64(text.utf8.count)
    }

    private static func bytesIn(of response: [String: Any]) -> Int64 {
        let content = response["content"] as? [String: Any] ?? [:]
        var decoded = Int64(number(content["size"]) ?? -1)
        if let length = decodedLength(text: content["text"] as? String, encoding: content["encoding"] as? String) {
            decoded = max(decoded, length)
        }
        let bodySize = Int64(number(response["bodySize"]) ?? -1)
        guard decoded >= 0 else { return max(0, bodySize) }
        let headers = response["headers"] as? [[String: Any]] ?? []
        let compressed = headers.contains { header in
            let value = (header["value"] as? String ?? "").trimmingCharacters(in: .whitespaces).lowercased()
            return (header["name"] as? String)?.lowercased() == "content-encoding" && !value.isEmpty
                && value != "identity"
        }
        return compressed ? decoded : max(decoded, bodySize)
    }

    /// The `total` and `hosts` objects of a JSON output, for comparing outputs.
    private func figures(_ data: Data) throws -> NSDictionary {
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return ["total": object["total"] ?? NSNull(), "hosts": object["hosts"] ?? NSNull()] as NSDictionary
    }

    /// The statistics block of an HTML report.
    private func figures(ofPage page: String) throws -> NSDictionary {
        let opening = #"<script type="application/json" id="nettap-statistics">"#
        let start = try #require(page.range(of: opening))
        let end = try #require(page.range(of: "</script>", range: start.upperBound..<page.endIndex))
        return try figures(Data(page[start.upperBound..<end.lowerBound].utf8))
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
        let readings = try readings(of: item, in: directory)
        let statuses = readings.map(\.status)
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
        let total = summary["total"] as? [String: Any]
        #expect((total?["bytesIn"] as? NSNumber)?.int64Value == readings.reduce(0) { $0 + $1.bytesIn }, "bytes in")
        #expect((total?["bytesOut"] as? NSNumber)?.int64Value == readings.reduce(0) { $0 + $1.bytesOut }, "bytes out")
        #expect((total?["failed"] as? Int) == statuses.filter { $0 == 0 }.count)
        #expect((total?["httpErrors"] as? Int) == statuses.filter { $0 >= 400 }.count)

        for arguments in [["report", item.file], ["stats", item.file], ["report", item.file, "--html", "out.html"]] {
            let run = await runCLI(arguments, workingDirectory: directory)
            #expect(run.exitCode == .success, "\(arguments): \(run.standardError)")
        }
        let page = try String(contentsOf: directory.appendingPathComponent("out.html"), encoding: .utf8)
        #expect(page.hasPrefix("<!DOCTYPE html>"))
        // One engine: stats --json and the HTML report give report --json's figures, every one of them.
        let stats = await runCLI(["stats", item.file, "--json"], workingDirectory: directory)
        #expect(stats.exitCode == .success, "\(stats.standardError)")
        let reported = try figures(json.standardOutputData)
        #expect(try figures(stats.standardOutputData) == reported, "stats --json")
        #expect(try figures(ofPage: page) == reported, "HTML report")

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
