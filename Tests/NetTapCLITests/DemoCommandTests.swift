import Foundation
import NetTapCLI
import NetTapCore
import NetTapHAR
import NetTapMocking
import NetTapStore
import NetTapTestSupport
import Testing

@Suite("nettap demo")
struct DemoCommandTests {
    /// caller, method, path, status, bytes: the rows the demo must print, in order.
    static let expectedRows: [(String, String, String, String, String)] = [
        ("async", "GET", "/v1/profile", "200", "78"),
        ("async", "GET", "/v1/items?page=1", "200", "154"),
        ("completion", "POST", "/v1/login", "200", "44"),
        ("completion", "PUT", "/v1/items/42", "200", "38"),
        ("completion", "DELETE", "/v1/items/42", "204", "0"),
        ("delegate", "GET", "/v1/items/999", "404", "57"),
        ("delegate", "GET", "/v1/reports/daily", "500", "57"),
        ("delegate", "GET", "/v1/avatar.png", "200", "70"),
        ("async", "GET", "/v1/me", "200", "78"),
        ("async", "GET", "/v1/items?page=2", "200", "75"),
    ]

    @Test("answers every caller style from the bundled HAR, prints the table and writes a decodable HAR")
    func offlineDemo() async throws {
        let directory = try makeTemporaryDirectory()
        let interceptor = NetTapInterceptor()
        let run = await runCLI(["demo", "--har", "capture.har"], interceptor: interceptor, workingDirectory: directory)
        #expect(run.exitCode == .success)
        #expect(run.standardError.isEmpty)

        let lines = run.standardOutput.components(separatedBy: "\n")
        let header = try #require(lines.firstIndex { $0.hasPrefix(" #  CALLER") })
        let rows = lines[(header + 1)...].prefix { !$0.isEmpty }.map { $0.split(separator: " ").map(String.init) }
        #expect(rows.count == Self.expectedRows.count)
        for (index, (row, expected)) in zip(rows, Self.expectedRows).enumerated() {
            #expect(row.count == 8)
            #expect(row[0] == "\(index + 1)")
            #expect(row[1] == expected.0)
            #expect(row[2] == expected.1)
            #expect(row[3] == DemoCommand.baseURL + expected.2)
            #expect(row[4] == expected.3)
            #expect(row[5] == expected.4)
            #expect(Double(row[6]) != nil)
            #expect(row[7] == DemoCommand.responderName)
        }
        #expect(
            lines.contains(
                "10 requests (async 4, completion 3, delegate 3); answered 10 by demo.har; "
                    + "8×2xx, 1×4xx, 1×5xx; 0 failed"
            )
        )
        #expect(
            lines.contains(
                "Redirect: https://api.nettap.example/v1/me answered 301; NetTap followed it to "
                    + "https://api.nettap.example/v1/profile and the caller received the final 200."
            )
        )
        // The redirected request is two entries: its 301 hop, then the final 200.
        #expect(lines.contains("HAR: wrote 11 entries to capture.har"))

        let har = try HARDocument.load(contentsOf: directory.appendingPathComponent("capture.har"))
        #expect(har.log.entries.count == 11)
        let hop = try #require(har.log.entries.firstIndex { $0.request.url.hasSuffix("/v1/me") })
        #expect(har.log.entries[hop].isRedirectHop)
        #expect(har.log.entries[hop].response.status == 301)
        #expect(har.log.entries[hop + 1].request.url == DemoCommand.baseURL + "/v1/profile")
        let transactions = har.transactions()
        #expect(transactions.map(\.request.url.absoluteString) == Self.expectedRows.map { DemoCommand.baseURL + $0.2 })
        #expect(transactions.map { "\($0.response?.statusCode ?? 0)" } == Self.expectedRows.map(\.3))
        #expect(transactions.first { $0.request.url.path == "/v1/me" }?.redirects.map(\.statusCode) == [301])
        #expect(interceptor.handlers.isEmpty, "the demo restores the interceptor's handlers")
        // 10 for the first table, 3 scenarios, 4 recorded, 4 replayed, 1 not in the cassette, 2 shaping,
        // 6 local files (the /docs redirect is one transaction), 5 findings.
        #expect(interceptor.captureLog.transactions.count == 35)
    }

    @Test("the scenario switch answers the same request from three scenarios switched at runtime")
    func scenarioSwitch() async throws {
        let directory = try makeTemporaryDirectory()
        let run = await runCLI(["demo"], workingDirectory: directory)
        #expect(run.exitCode == .success)
        let lines = run.standardOutput.components(separatedBy: "\n")
        let header = try #require(lines.firstIndex { $0.hasPrefix("SCENARIO ") })
        #expect(
            lines[header].split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
                == "SCENARIO STATUS BYTES MS ANSWERED BY STUB BODY OR ERROR"
        )
        let rows = lines[(header + 1)...].prefix { !$0.isEmpty }
        #expect(rows.count == 3)
        let cells = rows.map { row in row.components(separatedBy: "  ").filter { !$0.isEmpty }.map(trimmed) }
        // scenario, status, bytes, ms, answered by, stub, body or error
        #expect(cells.map { $0.first ?? "" } == ["happy path", "empty cart", "server down"])
        #expect(cells.map { $0.count } == [7, 7, 7])
        #expect(cells.map { $0[1] } == ["200", "200", "ERR -1004"])
        #expect(cells.map { $0[2] } == ["65", "12", "0"])
        #expect(cells.allSatisfy { Double($0[3]) != nil })
        #expect(cells.map { $0[4] } == ["mock", "mock", "mock"])
        #expect(cells.map { $0[5] } == ["cart", "cart", "offline"])
        #expect(
            cells.map { $0[6] } == [
                #"{"items":[{"id":42,"title":"Pencil"},{"id":43,"title":"Eraser"}]}"#, #"{"items":[]}"#,
                "URLError -1004 (cannotConnectToHost)",
            ]
        )
        // The "server down" stub waits 150 ms before failing.
        #expect((Double(cells[2][3]) ?? 0) >= 150)

        // The copy of the mocks file is the bundled one and loads as a MockConfiguration.
        let copy = directory.appendingPathComponent("nettap-demo-mocks.json")
        let configuration = try MockConfiguration.load(contentsOf: copy)
        #expect(configuration.scenarios.map(\.name) == ["happy path", "empty cart", "server down"])
        #expect(lines.contains { $0.hasPrefix("Mocks: wrote the 3 scenarios above to nettap-demo-mocks.json") })
    }

    @Test("record / replay: replies from the cassette alone are byte-identical; an unrecorded request fails")
    func recordReplay() async throws {
        let directory = try makeTemporaryDirectory()
        let run = await runCLI(
            ["demo", "--har", "out/capture.har", "--cassette", "tape.har"],
            workingDirectory: try {
                try FileManager.default.createDirectory(
                    at: directory.appendingPathComponent("out"),
                    withIntermediateDirectories: true
                )
                return directory
            }()
        )
        #expect(run.exitCode == .success, "\(run.standardError)")
        let lines = run.standardOutput.components(separatedBy: "\n")
        let header = try #require(lines.firstIndex { $0.hasPrefix("#  REQUEST") })
        let rows = lines[(header + 1)...].prefix { !$0.isEmpty }.map {
            $0.split(separator: " ").map(String.init)
        }
        // #, method, path, recorded from, replayed by, status, bytes, same as recorded
        let expected: [(String, String, String)] = [
            ("/v1/profile", "200", "78"), ("/v1/items?page=1", "200", "154"), ("/v1/avatar.png", "200", "70"),
            ("/v1/reports/daily", "500", "57"),
        ]
        #expect(rows.count == expected.count)
        for (index, (row, expected)) in zip(rows, expected).enumerated() {
            #expect(row == ["\(index + 1)", "GET", expected.0, "demo.har", "cassette", expected.1, expected.2, "yes"])
        }
        let notInCassette = try #require(lines.firstIndex { $0.hasPrefix("Not in the cassette:") })
        #expect(
            lines[notInCassette]
                == "Not in the cassette: GET https://api.nettap.example/v1/items?page=2 failed with URLError -1008 "
                + "(resourceUnavailable):"
        )
        #expect(
            lines[notInCassette + 1]
                == "  cassette tape.har: no recorded entry matches GET https://api.nettap.example/v1/items?page=2 "
                + "(record mode none); closest is entry 1, GET https://api.nettap.example/v1/items?page=1: "
                + "query page=2, recorded page=1"
        )
        #expect(lines.contains("HAR: wrote 11 entries to out/capture.har"))
        #expect(lines.contains("Cassette: wrote 4 entries to tape.har"))
        #expect(
            lines.contains(
                "Mocks: wrote the 3 scenarios above to out/nettap-demo-mocks.json "
                    + "(see them with: nettap mock list out/nettap-demo-mocks.json)"
            )
        )

        // The cassette is a HAR file holding the four recorded exchanges, bodies included.
        let cassette = try HARDocument.load(contentsOf: directory.appendingPathComponent("tape.har"))
        #expect(cassette.log.entries.map(\.request.url) == expected.map { DemoCommand.baseURL + $0.0 })
        let avatar = try #require(cassette.log.entries.first { $0.request.url.hasSuffix("/avatar.png") })
        #expect(avatar.response.content.decodedData()?.count == 70)
        #expect(
            FileManager.default.fileExists(atPath: directory.appendingPathComponent("out/nettap-demo-mocks.json").path)
        )
    }

    @Test("the shaping pass sends the same 64 KiB download unshaped and with the 3G preset; the shaped one is paced")
    func shaping() async throws {
        let run = await runCLI(["demo"], workingDirectory: try makeTemporaryDirectory())
        #expect(run.exitCode == .success, "\(run.standardError)")
        let lines = run.standardOutput.components(separatedBy: "\n")
        let header = try #require(lines.firstIndex { $0.hasPrefix("PROFILE ") })
        #expect(lines[header].split(separator: " ").joined(separator: " ") == "PROFILE BYTES MS ACHIEVED RATE")
        let rows = lines[(header + 1)...].prefix { !$0.isEmpty && !$0.hasPrefix("same bytes") }.map {
            $0.split(separator: " ").map(String.init)
        }
        // profile, bytes, ms, rate, "kbit/s"
        #expect(rows.map { $0.first ?? "" } == ["none", "3G"])
        #expect(rows.map(\.count) == [5, 5])
        #expect(rows.map { $0[1] } == ["65536", "65536"])
        #expect(rows.map { $0[4] } == ["kbit/s", "kbit/s"])
        let unshaped = try #require(Double(rows[0][2]))
        let shaped = try #require(Double(rows[1][2]))
        let shapedRate = try #require(Double(rows[1][3]))
        // 3G: 200 ms round trip + 65,536 bytes at 97,500 bytes/s = 872.2 ms; pacing steps may finish a step early.
        let minimum = 200 + 65_536.0 / 97_500 * 1000
        #expect(DemoCommand.shapingMinimumMilliseconds == minimum)
        #expect(shaped >= minimum - 25, "shaped download took \(shaped) ms")
        // No bound on the unshaped time, nor "unshaped < shaped": at the full suite's peak this 2-core machine
        // starves a process for seconds (one run took 2.4 s for the unshaped 64 KiB); how fast a loaded machine
        // runs is for nettap-bench. The unshaped row is a real, complete download:
        #expect(unshaped > 0)
        // Latency included, the achieved rate stays below the preset's 780 kbit/s.
        #expect(shapedRate < 780)
        #expect(lines[header + 3] == "same bytes: yes")
        #expect(
            lines[header + 4]
                == "3G preset = Network Link Conditioner \"3G\" (NetworkProfile.threeG): 780 kbit/s (97500 B/s) "
                + "down, 330 kbit/s up, 200 ms added round trip; floor for 65536 bytes: 872.2 ms"
        )
        #expect(DemoCommand.shapingBody.count == 65_536)
    }

    @Test("the local files pass serves the bundled pages byte for byte and replaces the tampered widget")
    func localFilesAndIntegrity() async throws {
        let interceptor = NetTapInterceptor()
        let result = try await DemoCommand.runLocalFiles(through: interceptor)
        #expect(result.isCorrect)
        #expect(result.rows.map(\.statusCode) == [200, 200, 200, 200, 404, 200])
        #expect(result.rows.map(\.answeredBy) == ["files", "files", "files", "files", "files", "integrity"])
        let widget = try #require(result.rows.last)
        #expect(widget.data != result.tampered, "the app never sees the tampered widget")
        #expect(widget.data == result.expected.last ?? nil)
        let finding = try #require(widget.transaction?.findings.first)
        #expect(finding.rule == "integrity.mismatch")
        #expect(finding.details["action"] == "fallback")
        #expect(result.rows[3].transaction?.redirects.first?.statusCode == 301)
        #expect(result.rows[0].transaction?.response?.headers["Content-Type"] == "text/html; charset=utf-8")

        let run = await runCLI(["demo"], workingDirectory: try makeTemporaryDirectory())
        #expect(run.exitCode == .success, "\(run.standardError)")
        #expect(run.standardOutput.contains("so NetTap served the bundled good copy (531 bytes, same as bundled: yes)"))
    }

    @Test("the findings pass trips each rule once on its request, the app gets every byte, the capture is redacted")
    func findings() async throws {
        let interceptor = NetTapInterceptor()
        let result = await DemoCommand.runFindings(through: interceptor)
        #expect(result.firstMissingRule == nil)
        #expect(result.rows.map(\.statusCode) == [200, 200, 200, 200, 200])
        #expect(result.rows.map(\.answeredBy) == ["mock", "mock", "mock", "mock", "mock"])
        let rules = result.rows.map { Set(($0.transaction?.findings ?? []).map(\.rule)) }
        #expect(rules[0] == ["plaintext.credentials", "cookie.insecure"])
        #expect(rules[1] == ["query.password"])
        #expect(rules[2] == ["pii.email"])
        #expect(rules[3] == ["token.pattern"])
        #expect(rules[4] == ["image.oversized"])
        // The audit only looks: the banner arrives whole and byte for byte.
        #expect(result.rows[4].data == DemoCommand.bannerImage)
        #expect(result.rows[4].data.count == 614_400)
        #expect(result.rows[4].transaction?.findings.first?.details["width"] == "2400")
        // The capture keeps no password; findings name places, never values.
        let login = try #require(result.rows[0].transaction)
        #expect(
            login.request.body.map { String(decoding: $0.data, as: UTF8.self) }
                == #"{"password":"[redacted]","user":"ada"}"#
        )
        #expect(result.rows[1].transaction?.request.url.query == "q=pencils&password=%5Bredacted%5D")
        let encoded = String(decoding: try JSONEncoder().encode(result.rows.compactMap(\.transaction)), as: UTF8.self)
        #expect(result.rows[3].transaction?.request.url.query == "key=%5Bredacted%5D")
        for secret in ["correct horse", "hunter22", "4f2c9e1ab77d0c3e", "AKIAIOSFODNN7EXAMPLE"] {
            #expect(!encoded.contains(secret), "\(secret) is in the capture")
        }

        let run = await runCLI(["demo"], workingDirectory: try makeTemporaryDirectory())
        #expect(run.exitCode == .success, "\(run.standardError)")
        let lines = run.standardOutput.components(separatedBy: "\n")
        // Everything the demo prints is redacted too.
        for secret in ["hunter22", "AKIAIOSFODNN7EXAMPLE", "correct horse\"", "4f2c9e1ab77d0c3e"] {
            #expect(!run.standardOutput.contains(secret), "the demo printed \(secret)")
        }
        let header = try #require(lines.firstIndex { $0.hasPrefix("URL ") && $0.hasSuffix("FINDINGS") })
        #expect(lines[(header + 1)...].prefix { !$0.isEmpty }.count == 5)
        #expect(
            lines.contains {
                $0.hasPrefix("  [medium] image.oversized at response body of GET api.nettap.example: ")
                    && $0.contains("614400 bytes (2400×1600 px)")
            }
        )
        #expect(
            lines.contains { $0.hasPrefix("  [high] token.pattern at query key of GET api.nettap.example: an AWS") }
        )
    }

    @Test("every demo request lands in nettap-demo.sqlite, and nettap-demo.html is the report of that store")
    func storeAndReport() async throws {
        let directory = try makeTemporaryDirectory()
        let interceptor = NetTapInterceptor()
        let run = await runCLI(["demo"], interceptor: interceptor, workingDirectory: directory)
        #expect(run.exitCode == .success, "\(run.standardError)")
        let storeURL = directory.appendingPathComponent("nettap-demo.sqlite")
        let reportURL = directory.appendingPathComponent("nettap-demo.html")
        let lines = run.standardOutput.components(separatedBy: "\n")
        let storeLine = try #require(lines.firstIndex { $0.hasPrefix("Store: ") })
        #expect(lines[storeLine] == "Store: wrote 35 transactions (6 with findings) to nettap-demo.sqlite")
        #expect(lines[storeLine + 1] == "  " + storeURL.standardizedFileURL.path)
        #expect(lines[storeLine + 3].hasPrefix("HTML report of the store: nettap-demo.html "))
        #expect(lines[storeLine + 4] == "  " + reportURL.standardizedFileURL.path)

        let store = try TransactionStore(url: storeURL, mode: .readOnly)
        let stored = try await store.transactions(includingBodies: true)
        #expect(Set(stored.map(\.id)) == Set(interceptor.captureLog.transactions.map(\.id)))
        #expect(try await store.count(matching: StoreQuery(hasFinding: true)) == 6)
        #expect(Set(stored.map(\.answeredBy)) == ["demo.har", "mock", "cassette", "files", "integrity"])
        #expect(try await store.integrityCheck() == ["ok"])
        // The demo flushed with a checkpoint: the .sqlite file alone, copied without its -wal, is complete.
        let copy = try makeTemporaryDirectory().appendingPathComponent("copy.sqlite")
        try FileManager.default.copyItem(at: storeURL, to: copy)
        #expect(try await TransactionStore(url: copy, mode: .readOnly).count() == 35)

        let html = try String(contentsOf: reportURL, encoding: .utf8)
        #expect(html.contains(#"data-redacted="true""#))
        for secret in ["correct horse", "hunter22", "4f2c9e1ab77d0c3e", "AKIAIOSFODNN7EXAMPLE"] {
            #expect(!html.contains(secret), "\(secret) is in the report")
        }
        if !Chromium.isSkipped {
            let browser = try await Chromium.load(reportURL)
            let dom = DumpedDOM(html: browser.standardOutput)
            let root = try #require(dom.rootTag, "no DOM: \(browser.standardError.suffix(2000))")
            #expect(DumpedDOM.attribute("data-ready", in: root) == "true")
            #expect(DumpedDOM.attribute("data-errors", in: root) == "0")
            let count = try #require(dom.tag(id: "tx-count"))
            #expect(DumpedDOM.attribute("data-total", in: count) == "35")
        }

        // A second run replaces the store instead of adding to it.
        let again = await runCLI(["demo"], workingDirectory: directory)
        #expect(again.exitCode == .success)
        let replaced = try TransactionStore(url: storeURL, mode: .readOnly)
        #expect(try await replaced.count() == 35)
    }

    @Test("--store and --html choose the files; a file at --store that is not a NetTap store is left alone")
    func storePaths() async throws {
        let directory = try makeTemporaryDirectory()
        let missing = await runCLI(["demo", "--store", "out/tour.sqlite"], workingDirectory: directory)
        #expect(missing.exitCode == .failure)
        #expect(
            missing.standardError.hasPrefix(#"nettap: demo: --store "out/tour.sqlite": cannot write: no such folder"#),
            "\(missing.standardError)"
        )
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("out"),
            withIntermediateDirectories: true
        )
        let run = await runCLI(
            ["demo", "--store", "out/tour.sqlite", "--html", "out/tour.html"],
            workingDirectory: directory
        )
        #expect(run.exitCode == .success, "\(run.standardError)")
        #expect(run.standardOutput.contains("Store: wrote 35 transactions (6 with findings) to out/tour.sqlite\n"))
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("out/tour.html").path))

        let notes = directory.appendingPathComponent("notes.sqlite")
        try Data("my notes, not a database".utf8).write(to: notes)
        let refused = await runCLI(["demo", "--store", "notes.sqlite"], workingDirectory: directory)
        #expect(refused.exitCode == .failure)
        #expect(refused.standardError.hasPrefix(#"nettap: demo: --store "notes.sqlite": "#), "\(refused.standardError)")
        #expect(refused.standardError.contains("choose another path with --store"))
        #expect(try Data(contentsOf: notes) == Data("my notes, not a database".utf8))
    }

    @Test("the README's demo output sample is what the demo prints, timings aside")
    func readmeSample() async throws {
        let readmeURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("README.md")
        let readme = try String(contentsOf: readmeURL, encoding: .utf8)
        let start = try #require(readme.range(of: "```text\nNetTap demo:"))
        let end = try #require(readme.range(of: "\n```", range: start.upperBound..<readme.endIndex))
        let sample = String(readme[readme.index(start.lowerBound, offsetBy: 8)..<end.lowerBound]) + "\n"

        let run = await runCLI(["demo"], workingDirectory: try makeTemporaryDirectory())
        #expect(run.exitCode == .success)
        #expect(
            Self.withoutTimings(run.standardOutput) == Self.withoutTimings(sample),
            "README.md's demo sample is stale: paste the output of 'swift run nettap demo'"
        )
    }

    /// The text with every milliseconds figure (`12.3`) and every absolute path on a line of its own replaced,
    /// and runs of spaces made one.
    private static func withoutTimings(_ text: String) -> String {
        text.replacingOccurrences(of: #"\b[0-9]+\.[0-9]\b"#, with: "MS", options: .regularExpression)
            .replacingOccurrences(of: #"(?m)^  /.*$"#, with: "  PATH", options: .regularExpression)
            .replacingOccurrences(of: " +", with: " ", options: .regularExpression)
    }

    @Test("a second run replaces the cassette instead of adding to it")
    func rerun() async throws {
        let directory = try makeTemporaryDirectory()
        for _ in 0..<2 {
            let run = await runCLI(["demo"], workingDirectory: directory)
            #expect(run.exitCode == .success)
            #expect(run.standardOutput.contains("Cassette: wrote 4 entries to nettap-demo-cassette.har\n"))
        }
        let cassette = try HARDocument.load(
            contentsOf: directory.appendingPathComponent("nettap-demo-cassette.har")
        )
        #expect(cassette.log.entries.count == 4)
    }

    @Test("an unwritable cassette path exits 1 naming --cassette")
    func unwritableCassette() async throws {
        let directory = try makeTemporaryDirectory()
        // A missing folder is created; a regular file where the folder should be cannot be.
        try Data("not a folder".utf8).write(to: directory.appendingPathComponent("file.txt"))
        let run = await runCLI(["demo", "--cassette", "file.txt/tape.har"], workingDirectory: directory)
        #expect(run.exitCode == .failure)
        #expect(
            run.standardError.hasPrefix(#"nettap: demo: --cassette "file.txt/tape.har": cannot write: "#),
            "\(run.standardError)"
        )
        #expect(run.standardError.contains("is not a folder"))
        #expect(run.standardError.filter { $0 == "\n" }.count == 1)
    }

    @Test("with --upstream it also sends a live GET and POST through the forwarding transport")
    func upstream() async throws {
        let base = try await HTTPBin.shared().baseURL.absoluteString
        let directory = try makeTemporaryDirectory()
        let run = await runCLI(["demo", "--upstream", base + "/anything"], workingDirectory: directory)
        #expect(run.exitCode == .success)
        let rows = run.standardOutput.components(separatedBy: "\n").filter { $0.contains(base) }
        #expect(rows.count == 2)
        #expect(rows.allSatisfy { $0.hasSuffix("  network") && $0.contains(" 200 ") })
        #expect(rows.first?.contains("GET") == true)
        #expect(rows.last?.contains("POST") == true)
        let har = try HARDocument.load(contentsOf: directory.appendingPathComponent("nettap-demo.har"))
        #expect(har.log.entries.count == 13)
        #expect(har.transactions().count == 12)
    }

    @Test("a failing upstream still prints the table and writes the HAR, then exits 1 naming the URL and code")
    func failingUpstream() async throws {
        let directory = try makeTemporaryDirectory()
        let run = await runCLI(["demo", "--upstream", "http://127.0.0.1:1/"], workingDirectory: directory)
        #expect(run.exitCode == .failure)
        #expect(
            run.standardError
                == "nettap: demo: http://127.0.0.1:1/: request failed: URLError -1004 (cannotConnectToHost)\n"
        )
        #expect(run.standardOutput.contains("ERR -1004"))
        let har = try HARDocument.load(contentsOf: directory.appendingPathComponent("nettap-demo.har"))
        #expect(har.log.entries.count == 13)
        #expect(har.transactions().count == 12)
    }
}

private func trimmed(_ text: String) -> String {
    text.trimmingCharacters(in: .whitespaces)
}
