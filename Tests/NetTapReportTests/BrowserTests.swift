import Foundation
import NetTapCore
import NetTapHAR
import NetTapReport
import NetTapTestSupport
import Testing

/// Reports opened in headless Chromium: the DOM after the scripts ran, the fragment's filter, the detail pane,
/// no script errors, no blocked loads; a screenshot under `.build/nettap-report-tests/`.
@Suite("HTML report in a real browser", .serialized, .enabled(if: !Chromium.isSkipped, "NETTAP_SKIP_BROWSER=1"))
struct BrowserTests {
    static let png =
        Data(
            base64Encoded:
                "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
        ) ?? Data()

    /// A mixed capture: 5xx, 4xx, a failure, JSON, an image, a binary body, and the hostile transaction.
    static let transactions: [CapturedTransaction] = {
        var all = Samples.many(40)
        all.append(Hostile.transaction)
        all.append(
            Samples.transaction(
                "GET",
                "https://img.example.com/pixel.png",
                offset: 0.05,
                end: 12,
                responseHeaders: ["Content-Type": "image/png"],
                responseBody: png
            )
        )
        all.append(
            Samples.transaction(
                "GET",
                "https://img.example.com/blob.bin",
                offset: 0.06,
                end: 12,
                responseHeaders: ["Content-Type": "application/octet-stream"],
                responseBody: Data([0, 1, 2, 0xFF, 0x41, 0x42])
            )
        )
        all.append(Samples.transaction("GET", "https://down.example.com/", status: nil, offset: 0.07, end: 3))
        return all
    }()

    /// Writes a report under `.build/nettap-report-tests/`.
    static func write(_ transactions: [CapturedTransaction], name: String) throws -> URL {
        try FileManager.default.createDirectory(at: HARFixtures.buildFolder, withIntermediateDirectories: true)
        let url = HARFixtures.buildFolder.appendingPathComponent(name)
        try HTMLReport(transactions: transactions, title: name).write(to: url)
        return url
    }

    /// Opens the file and checks what every report must show: the script ran, without errors or blocked loads.
    static func open(_ file: URL, fragment: String = "", windowWidth: Int? = nil) async throws -> DumpedDOM {
        guard Chromium.executable != nil else {
            Issue.record(Comment(rawValue: Chromium.missingMessage))
            throw Chromium.ChromiumMissing()
        }
        let run = try await Chromium.load(file, fragment: fragment, windowWidth: windowWidth)
        #expect(run.status == 0, "chromium exited with \(run.status): \(run.standardError.suffix(2000))")
        let dom = DumpedDOM(html: run.standardOutput)
        let root = try #require(dom.rootTag, "no DOM dumped; stderr: \(run.standardError.suffix(2000))")
        #expect(DumpedDOM.attribute("data-ready", in: root) == "true", "scripts did not finish: \(root)")
        #expect(DumpedDOM.attribute("data-errors", in: root) == "0", "\(dom.text(id: "errors", closing: "div") ?? "")")
        let console = run.standardError.split(separator: "\n").filter {
            $0.contains("Uncaught") || $0.contains("Refused to") || $0.contains("CONSOLE") && $0.contains("rror")
        }
        #expect(console.isEmpty, "console: \(console.joined(separator: "\n"))")
        return dom
    }

    static func shownCount(_ dom: DumpedDOM) -> (shown: Int?, total: Int?) {
        let tag = dom.tag(id: "tx-count") ?? ""
        return (
            DumpedDOM.attribute("data-shown", in: tag).flatMap(Int.init),
            DumpedDOM.attribute("data-total", in: tag).flatMap(Int.init)
        )
    }

    @Test("the fragment #status=5xx filters the table to the 5xx transactions")
    func statusFilterFromFragment() async throws {
        let file = try Self.write(Self.transactions, name: "report.html")
        let dom = try await Self.open(file, fragment: "status=5xx")
        let expected = Set(
            Self.transactions.filter { ($0.response?.statusCode ?? 0) >= 500 }.map { $0.id.uuidString.lowercased() }
        )
        #expect(expected.count == 11)
        #expect(Self.shownCount(dom).shown == expected.count)
        #expect(Self.shownCount(dom).total == Self.transactions.count)
        #expect(Set(dom.rowIDs) == expected)
        #expect(dom.count("class=\"tx-row") == expected.count)
    }

    @Test("several filters and a sort combine; the text filter searches URLs")
    func combinedFilters() async throws {
        let file = try Self.write(Self.transactions, name: "report.html")
        let dom = try await Self.open(file, fragment: "q=items&host=api1.example.com&method=GET&sort=duration&dir=desc")
        let expected = Self.transactions.filter {
            $0.request.url.host == "api1.example.com" && $0.request.method == "GET"
                && $0.request.url.absoluteString.contains("items")
        }
        #expect(Self.shownCount(dom).shown == expected.count)
        let durations = dom.rowIDs.compactMap { id in
            Self.transactions.first { $0.id.uuidString.lowercased() == id }?.timings.end
        }
        #expect(durations == durations.sorted(by: >))
        #expect(durations.count == expected.count)
    }

    @Test("#id= opens the detail pane: headers and bodies as text, redacted, pretty JSON, image, hex, cURL")
    func detailPane() async throws {
        let file = try Self.write(Self.transactions, name: "report.html")
        let hostile = try #require(Self.transactions.first { $0.request.url.host == "evil.example" })
        let id = hostile.id.uuidString.lowercased()
        let dom = try await Self.open(file, fragment: "id=\(id)")
        #expect(DumpedDOM.attribute("data-id", in: dom.tag(id: "detail") ?? "") == id)
        #expect(!dom.html.contains("data-pwned"))
        let headers = try #require(dom.text(id: "detail-request-headers", closing: "table"))
        #expect(headers.contains("&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror="))
        #expect(headers.contains("Bearer [redacted]"))
        #expect(!dom.html.contains("s3cr3t-t0ken-value"))
        let body = try #require(dom.text(id: "detail-request-body", closing: "div"))
        #expect(body.contains("\"password\": \"[redacted]\""))  // pretty-printed by the page
        let curl = try #require(dom.text(id: "detail-curl", closing: "pre"))
        #expect(curl.contains("curl 'https://evil.example/search?q="))
        #expect(curl.contains("token=%5Bredacted%5D"))
        #expect(dom.count(#"class="tx-row selected""#) == 1)

        let image = try #require(Self.transactions.first { $0.request.url.lastPathComponent == "pixel.png" })
        let imageDOM = try await Self.open(file, fragment: "id=\(image.id.uuidString.lowercased())")
        #expect(imageDOM.html.contains(#"<img alt="image body" src="data:image/png;base64,iVBORw0KGgo"#))

        let blob = try #require(Self.transactions.first { $0.request.url.lastPathComponent == "blob.bin" })
        let blobDOM = try await Self.open(file, fragment: "id=\(blob.id.uuidString.lowercased())")
        let hex = try #require(blobDOM.text(id: "detail-response-body", closing: "div"))
        #expect(hex.contains("00000000  00 01 02 ff 41 42"))
        #expect(hex.contains("|....AB|"))
    }

    @Test("10,000 transactions: the count says 10000 and only the visible rows exist")
    func virtualized() async throws {
        let file = try Self.write(Samples.many(10_000), name: "report-10000.html")
        let dom = try await Self.open(file)
        #expect(Self.shownCount(dom).shown == 10_000)
        #expect(Self.shownCount(dom).total == 10_000)
        #expect(dom.text(id: "tx-count", closing: "span")?.contains("10000 of 10000 transactions") == true)
        let rows = dom.count("class=\"tx-row")
        #expect(rows > 10)
        #expect(rows < 100)
    }

    @Test("reports of the HAR exports of Chrome, Charles, Insomnia, Firefox- and Safari-shaped and others open cleanly")
    func fixtures() async throws {
        let names = HARFixtures.available
        #expect(names.contains("chrome.har") && names.contains("charles.har") && names.contains("insomnia.har"))
        let files = names.map { HARFixtures.folder.appendingPathComponent($0) } + HARFixtures.browserShaped
        for file in files {
            let name = file.lastPathComponent
            let transactions = try HARDocument.load(contentsOf: file).transactions()
            let file = try Self.write(transactions, name: "fixture-\(name).html")
            let first = try #require(transactions.first)
            let dom = try await Self.open(file, fragment: "id=\(first.id.uuidString.lowercased())")
            #expect(Self.shownCount(dom).total == transactions.count, "\(name)")
            #expect(dom.rowIDs.count == transactions.count, "\(name)")
            #expect(DumpedDOM.attribute("data-id", in: dom.tag(id: "detail") ?? "") == first.id.uuidString.lowercased())
        }
    }

    @Test("at 1280 px nothing is wider than its box: the transactions table, its rows, the hosts table, the page")
    func noHorizontalOverflow() async throws {
        let chrome = try HARDocument.load(contentsOf: HARFixtures.folder.appendingPathComponent("chrome.har"))
            .transactions()
        for (name, transactions) in [("report-1280.html", Self.transactions), ("chrome-1280.html", chrome)] {
            let file = try Self.write(transactions, name: name)
            let dom = try await Self.open(
                file,
                fragment: "id=\(Self.transactions[0].id.uuidString.lowercased())",
                windowWidth: 1280
            )
            let root = try #require(dom.rootTag)
            #expect(DumpedDOM.attribute("data-overflow", in: root) == "", "\(name): \(root)")
        }
    }

    @Test("at 1280 px the Host column shows hosts of up to 24 characters whole; a longer one is cut, not overflowing")
    func hostColumnWidth() async throws {
        let hosts = ["a.io", "api.payments.example.com", "cdn.example.com", "telemetry.eu-west-1.internal.example.net"]
        let transactions = hosts.enumerated().map { index, host in
            Samples.transaction(
                "GET",
                "https://\(host)/v1/items/\(index)",
                status: 200,
                offset: Double(index) / 10,
                end: 1
            )
        }
        let file = try Self.write(transactions, name: "hosts-1280.html")
        let dom = try await Self.open(file, fragment: "", windowWidth: 1280)
        let root = try #require(dom.rootTag)
        #expect(DumpedDOM.attribute("data-overflow", in: root) == "", "\(root)")
        #expect(DumpedDOM.attribute("data-cut-hosts", in: root) == "telemetry.eu-west-1.internal.example.net")
    }

    @Test("a screenshot of the report is saved under .build")
    func screenshot() async throws {
        try #require(Chromium.executable != nil, Comment(rawValue: Chromium.missingMessage))
        let file = try Self.write(Self.transactions, name: "report.html")
        let hostile = try #require(Self.transactions.first { $0.request.url.host == "evil.example" })
        let png = HARFixtures.buildFolder.appendingPathComponent("report.png")
        try? FileManager.default.removeItem(at: png)
        let run = try await Chromium.load(file, fragment: "id=\(hostile.id.uuidString.lowercased())", screenshot: png)
        #expect(run.status == 0)
        let data = try Data(contentsOf: png)
        #expect(data.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        #expect(data.count > 20_000)
        print("HTML report screenshot: \(png.path)")
    }
}
