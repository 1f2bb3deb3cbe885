import Foundation
import NetTapCore
import NetTapHAR
import NetTapTestSupport
import Testing

/// `CapturedTransaction.wire` through HAR: NetTap's own export restores it exactly; other tools' standard fields
/// (`serverIPAddress`, `connection`, the phases, `_securityDetails`) fill what they can; odd values are skipped.
@Suite("Wire facts in HAR")
struct WireRoundTripTests {
    static let wire: WireDetails = {
        var wire = WireDetails(transport: WireDetails.libcurl)
        wire.httpVersion = "HTTP/2"
        wire.remoteAddress = "127.0.0.1"
        wire.remotePort = 8443
        wire.localPort = 51_234
        wire.isNewConnection = true
        wire.phases = WirePhases(dns: 0.25, connect: 3.5, ssl: 2.75, send: 0, wait: 12.125, receive: 1.5)
        wire.tls = TLSDetails(
            protocolVersion: "TLSv1.3",
            cipher: "TLS_AES_256_GCM_SHA384",
            subject: "CN=localhost,O=NetTap Test",
            issuer: "CN=NetTap Test CA",
            validFrom: Date(timeIntervalSince1970: 1_714_000_000),
            validTo: Date(timeIntervalSince1970: 1_745_536_000)
        )
        return wire
    }()

    static var transaction: CapturedTransaction {
        var transaction = SampleTransactions.get
        transaction.wire = wire
        return transaction
    }

    static func entry(_ json: String) throws -> HAREntry {
        let document = """
            {"log": {"version": "1.2", "creator": {"name": "t", "version": "1"}, "entries": [\(json)]}}
            """
        let entries = try HARDocument.decode(Data(document.utf8), source: "inline.har").log.entries
        return try #require(entries.first)
    }

    static let request =
        #""request": {"method": "GET", "url": "https://example.com/", "httpVersion": "h2","#
        + #" "headers": [], "queryString": [], "cookies": [], "headersSize": -1, "bodySize": 0}"#
    static let response =
        #""response": {"status": 200, "statusText": "OK", "httpVersion": "http/2.0","#
        + #" "headers": [], "cookies": [], "content": {"size": 0, "mimeType": "text/plain"}, "redirectURL": "","#
        + #" "headersSize": -1, "bodySize": 0}"#

    @Test("a NetTap export restores every wire fact, and passes the independent checker strictly")
    func roundTrip() async throws {
        let data = try HARDocument(transactions: [Self.transaction], redactor: .disabled).encoded()
        let document = try HARDocument.decode(data, source: "export.har")
        let entry = try #require(document.log.entries.first)
        #expect(entry.serverIPAddress == "127.0.0.1")
        #expect(entry.connection == "51234")
        #expect(entry.netTap?.wire?.transport == "libcurl")
        #expect(entry.netTap?.wire?.tls?.subject == "CN=localhost,O=NetTap Test")
        #expect(entry.customFields["_securityDetails"]?["subjectName"] == .string("localhost"))
        #expect(document.transactions().first?.wire == Self.wire)

        guard HARCheck.isAvailable else { return }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("nettap-wire-\(UUID()).har")
        defer { try? FileManager.default.removeItem(at: file) }
        try data.write(to: file)
        let strict = try await HARCheck.run(["--strict", file.path])
        #expect(strict.status == 0, "\(strict.output)")
    }

    @Test("a transaction without wire facts comes back without them")
    func noWire() throws {
        let data = try HARDocument(transactions: [SampleTransactions.get], redactor: .disabled).encoded()
        let entry = try #require(try HARDocument.decode(data, source: "export.har").log.entries.first)
        #expect(entry.netTap?.wire == nil)
        #expect(entry.transaction().wire == nil)
    }

    @Test("Charles: serverIPAddress and the phases of a new connection")
    func charles() throws {
        let wire = try #require(try Fixture.load("charles.har").transactions().first?.wire)
        #expect(wire.transport == HAREntry.importedTransport)
        #expect(wire.remoteAddress == "13.35.121.50")
        #expect(wire.localPort == nil)
        #expect(wire.httpVersion == "HTTP/1.1")
        #expect(wire.phases == WirePhases(dns: 43, connect: 37, ssl: 26, send: 1, wait: 24, receive: 2))
        #expect(wire.isNewConnection == true)
        #expect(wire.tls == nil)
    }

    @Test("Chrome: serverIPAddress, the HTTP version; no phases on a reused connection; an empty address is none")
    func chrome() throws {
        let transactions = try Fixture.load("chrome.har").transactions()
        #expect(transactions.count == 3)
        #expect(transactions[0].wire?.remoteAddress == "108.138.246.80")
        #expect(transactions[0].wire?.httpVersion == "HTTP/2")
        #expect(transactions[0].wire?.phases == nil)
        #expect(transactions[0].wire?.isNewConnection == nil)
        #expect(transactions[1].wire == nil)
        #expect(transactions[2].wire?.remoteAddress == "142.250.185.164")
        #expect(transactions[2].wire?.httpVersion == "HTTP/3")
    }

    @Test("Chrome's POST export: phases with DNS, connect and TLS; its connection id 159834 is no port")
    func postData() throws {
        for name in ["postdata.har", "with-bom.har"] {
            let wire = try #require(try Fixture.load(name).transactions().first?.wire, "\(name)")
            #expect(wire.remoteAddress == "99.83.181.31")
            #expect(wire.localPort == nil)
            #expect(wire.phases?.dns == 18.781000000000002)
            #expect(wire.phases?.connect == 96.754)
            #expect(wire.phases?.ssl == 55.379)
            #expect(wire.isNewConnection == true)
        }
        #expect(try Fixture.load("insomnia.har").transactions().first?.wire == nil)
    }

    @Test("Chrome's _securityDetails, a numeric connection, an IPv6 address and _serverPort")
    func securityDetails() throws {
        let entry = try Self.entry(
            #"{"startedDateTime": "2024-05-01T10:00:00.000Z", "time": 10, \#(Self.request), \#(Self.response),"#
                + #" "timings": {"send": 0, "wait": 5, "receive": 1}, "serverIPAddress": "[2a00:1450::4]","#
                + #" "connection": "52100", "_serverPort": 443, "_securityDetails": {"protocol": "TLS 1.3","#
                + #" "keyExchange": "", "cipher": "AES_128_GCM", "subjectName": "www.example.com","#
                + #" "issuer": "Example CA", "validFrom": 1700000000, "validTo": "1731536000"}}"#
        )
        let wire = try #require(entry.transaction().wire)
        #expect(wire.remoteAddress == "2a00:1450::4")
        #expect(wire.localPort == 52_100)
        #expect(wire.remotePort == 443)
        #expect(wire.httpVersion == "HTTP/2")
        #expect(wire.phases == nil)
        #expect(wire.tls?.protocolVersion == "TLS 1.3")
        #expect(wire.tls?.cipher == "AES_128_GCM")
        #expect(wire.tls?.subjectName == "www.example.com")
        #expect(wire.tls?.issuer == "Example CA")
        #expect(wire.tls?.validFrom == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(wire.tls?.validTo == Date(timeIntervalSince1970: 1_731_536_000))
    }

    @Test("odd wire values never reject the file: they are skipped, the rest of the record stays")
    func oddValues() throws {
        let id = "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"
        let odd = [
            #""wire": "libcurl""#,
            #""wire": {"transport": 7, "remotePort": "x", "isNewConnection": "maybe", "phases": [1], "tls": 3}"#,
            #""wire": {"transport": "libcurl", "phases": {"dns": "x"}, "tls": {"protocol": ["TLSv1.3"]}}"#,
        ]
        for wire in odd {
            let entry = try Self.entry(
                #"{"startedDateTime": "2024-05-01T10:00:00.000Z", "time": 10, \#(Self.request), \#(Self.response),"#
                    + #" "timings": {"send": 0, "wait": 5, "receive": 1}, "connection": "abc","#
                    + #" "_securityDetails": ["TLS"], "_serverPort": "none", "_netTap": {"id": "\#(id)", \#(wire)}}"#
            )
            let transaction = entry.transaction()
            #expect(transaction.id.uuidString == id, "\(wire)")
            #expect(transaction.wire?.phases == nil, "\(wire)")
            #expect(transaction.wire?.tls == nil, "\(wire)")
        }
    }
}
