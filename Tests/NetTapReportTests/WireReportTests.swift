import Foundation
import NetTapCore
import NetTapReport
import NetTapTestSupport
import Testing

/// Transactions with and without `CapturedTransaction.wire`, for the waterfall's phases and the detail pane's facts.
enum WireSamples {
    static var wire: WireDetails {
        var wire = WireDetails(transport: WireDetails.libcurl)
        wire.httpVersion = "HTTP/2"
        wire.remoteAddress = "127.0.0.1"
        wire.remotePort = 8443
        wire.localPort = 51_234
        wire.isNewConnection = true
        wire.phases = WirePhases(dns: 2, connect: 8, ssl: 5, send: 1, wait: 20, receive: 6)
        wire.tls = TLSDetails(
            protocolVersion: "TLSv1.3",
            cipher: "TLS_AES_256_GCM_SHA384",
            subject: "CN=localhost,O=NetTap Test",
            issuer: "CN=NetTap Test CA",
            validFrom: Date(timeIntervalSince1970: 1_714_000_000),
            validTo: Date(timeIntervalSince1970: 1_745_536_000)
        )
        return wire
    }

    /// A request sent after 1 ms that took 40 ms: its phases fill 37 ms after sending.
    static let phased: CapturedTransaction = {
        var transaction = Samples.transaction("GET", "https://wired.example/a", offset: 0, firstByte: 32, end: 40)
        transaction.wire = wire
        return transaction
    }()

    static let plain: CapturedTransaction = {
        Samples.transaction("GET", "https://plain.example/b", offset: 0.01, firstByte: 20, end: 30)
    }()
}

@Suite("HTML report: wire facts")
struct WireReportTests {
    static func waterfall(_ html: String) throws -> String {
        let start = try #require(html.range(of: "id=\"waterfall-chart\""))
        let end = try #require(html.range(of: "</svg>", range: start.upperBound..<html.endIndex))
        return String(html[start.lowerBound..<end.upperBound])
    }

    @Test("a bar with phases is split into DNS, connect, TLS, send, wait and receive, each with its milliseconds")
    func phasedBar() throws {
        let html = HTMLReport(transactions: [WireSamples.phased, WireSamples.plain]).render()
        let chart = try Self.waterfall(html)
        #expect(chart.components(separatedBy: "class=\"bar phased\"").count == 2)
        for (phase, milliseconds) in [
            ("dns", "2.0"), ("connect", "3.0"), ("ssl", "5.0"), ("send", "1.0"), ("wait", "20.0"), ("receive", "6.0"),
        ] {
            #expect(chart.contains("class=\"ph-\(phase)\""), "\(phase)")
            #expect(chart.contains("<title>\(phase) \(milliseconds) ms</title>"), "\(phase)")
        }
        #expect(chart.contains("dns 2.0 ms, connect 3.0 ms, ssl 5.0 ms, send 1.0 ms, wait 20.0 ms, receive 6.0 ms"))
        #expect(html.contains("id=\"waterfall-phases\""))
        // The transaction without phases keeps its three parts.
        let plainID = WireSamples.plain.id.uuidString.lowercased()
        let plainBar = try #require(
            chart.components(separatedBy: "data-id=\"\(plainID)\"").last?.components(separatedBy: "</g>").first
        )
        #expect(plainBar.contains("class=\"wait\"") && plainBar.contains("class=\"receive\""))
        #expect(!plainBar.contains("ph-"))
    }

    @Test("without any phases the waterfall has no phase legend and no phase parts, as before")
    func noPhases() throws {
        let html = HTMLReport(transactions: Samples.many(10)).render()
        #expect(!html.contains("id=\"waterfall-phases\""))
        #expect(!(try Self.waterfall(html)).contains("ph-"))
    }
}

@Suite(
    "HTML report: wire facts in a real browser",
    .serialized,
    .enabled(if: !Chromium.isSkipped, "NETTAP_SKIP_BROWSER=1")
)
struct WireBrowserTests {
    @Test("the waterfall's phase segments exist in the DOM and the detail pane lists the wire facts")
    func phasesAndFacts() async throws {
        let transactions = [WireSamples.phased, WireSamples.plain] + Samples.many(5)
        let file = try BrowserTests.write(transactions, name: "report-wire.html")
        let id = WireSamples.phased.id.uuidString.lowercased()
        let dom = try await BrowserTests.open(file, fragment: "id=\(id)")
        #expect(dom.tag(id: "detail-wire") != nil, "no wire facts in the detail pane")
        for phase in ["dns", "connect", "ssl", "send", "wait", "receive"] {
            #expect(dom.count("<rect class=\"ph-\(phase)\"") == 1, "\(phase)")
        }
        #expect(dom.count("class=\"bar phased\"") == 1)
        let facts = dom.text(id: "detail-wire", closing: "dl") ?? ""
        for expected in [
            "libcurl", "HTTP/2", "127.0.0.1:8443", "local port 51234", "new", "TLSv1.3", "TLS_AES_256_GCM_SHA384",
            "CN=localhost,O=NetTap Test", "CN=NetTap Test CA", "2024-04-24T23:06:40.000Z to 2025-04-24T23:06:40.000Z",
            "dns 2.0 ms, connect 3.0 ms, ssl 5.0 ms",
        ] {
            #expect(facts.contains(expected), "\(expected) in \(facts)")
        }
        let plain = try await BrowserTests.open(file, fragment: "id=\(WireSamples.plain.id.uuidString.lowercased())")
        #expect(plain.tag(id: "detail-wire") == nil)
    }
}
