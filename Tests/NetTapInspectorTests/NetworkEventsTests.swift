import Foundation
import NetTapCore
import NetTapInspector
import Testing

@Suite("Inspector: CDP Network events of transactions, checked against the protocol's published definitions")
struct NetworkEventsTests {
    static let start = Date(timeIntervalSince1970: 1_780_000_000)

    static func completed() throws -> CapturedTransaction {
        let url = try #require(URL(string: "https://api.example.com/v1/items?q=1"))
        var transaction = CapturedTransaction(
            request: CapturedRequest(
                method: "POST",
                url: url,
                headers: ["Content-Type": "application/json", "Accept": "*/*", "X-Twice": "a"],
                body: CapturedBody(data: Data(#"{"name":"x"}"#.utf8))
            ),
            response: CapturedResponse(
                statusCode: 201,
                httpVersion: "HTTP/2",
                headers: ["Content-Type": "application/json; charset=utf-8", "Set-Cookie": "a=1"],
                url: url,
                body: CapturedBody(data: Data(#"{"id":7}"#.utf8))
            ),
            timings: Timings(startDate: start, requestSent: 2, firstByte: 30, end: 41),
            answeredBy: "network",
            state: .completed
        )
        transaction.request.headers.add(name: "X-Twice", value: "b")
        var wire = WireDetails(transport: WireDetails.libcurl)
        wire.httpVersion = "HTTP/2"
        wire.remoteAddress = "93.184.216.34"
        wire.remotePort = 443
        wire.localPort = 50_123
        wire.isNewConnection = true
        wire.phases = WirePhases(dns: 3, connect: 12, ssl: 8, send: 1, wait: 14, receive: 11)
        transaction.wire = wire
        return transaction
    }

    static func redirectedAndFailed() throws -> [CapturedTransaction] {
        let first = try #require(URL(string: "http://127.0.0.1:8080/old"))
        let final = try #require(URL(string: "http://127.0.0.1:8080/new"))
        let redirected = CapturedTransaction(
            request: CapturedRequest(method: "GET", url: first, headers: [:]),
            response: CapturedResponse(statusCode: 200, headers: ["Content-Type": "image/png"], url: final),
            redirects: [
                RedirectHop(
                    method: "GET",
                    url: first,
                    statusCode: 302,
                    headers: ["Location": "/new"],
                    elapsedMilliseconds: 4
                )
            ],
            timings: Timings(startDate: start, requestSent: 1, firstByte: 9, end: 10),
            answeredBy: "mock",
            state: .completed
        )
        let failed = CapturedTransaction(
            request: CapturedRequest(method: "GET", url: first, headers: [:]),
            timings: Timings(startDate: start, end: 5),
            error: TransactionError(
                domain: NSURLErrorDomain,
                code: URLError.Code.cannotConnectToHost.rawValue,
                message: "refused"
            ),
            state: .failed
        )
        let cancelled = CapturedTransaction(
            request: CapturedRequest(method: "GET", url: first, headers: [:]),
            timings: Timings(startDate: start, end: 5),
            error: TransactionError(
                domain: NSURLErrorDomain,
                code: URLError.Code.cancelled.rawValue,
                message: "cancelled"
            ),
            state: .cancelled
        )
        return [redirected, failed, cancelled]
    }

    private func params(_ event: NetworkEvents.Event) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(event.json.utf8)) as? [String: Any])["params"]
            as? [String: Any] ?? [:]
    }

    @Test("every event of completed, redirected, failed and cancelled transactions conforms to the definitions")
    func conformance() throws {
        let checker = try CDPConformance()
        var methods: Set<String> = []
        for transaction in try [Self.completed()] + Self.redirectedAndFailed() {
            for event in NetworkEvents.replay(transaction) {
                methods.insert(event.method)
                #expect(checker.violations(ofEvent: event.json) == [], "\(event.method)")
            }
        }
        #expect(
            methods == [
                "Network.requestWillBeSent", "Network.responseReceived", "Network.dataReceived",
                "Network.loadingFinished",
                "Network.loadingFailed",
            ]
        )
        // The checker catches what it should: a missing required field, an undeclared one, a wrong enum value.
        #expect(
            checker.violations(ofEvent: #"{"method":"Network.loadingFinished","params":{"requestId":"1"}}"#).count == 2
        )
        #expect(
            checker.violations(
                ofEvent:
                    #"{"method":"Network.loadingFinished","params":{"requestId":"1","timestamp":1,"encodedDataLength":0,"x":1}}"#
            ) == ["Network.loadingFinished.x: not declared"]
        )
        var wrong = try params(NetworkEvents.replay(try Self.completed())[0])
        wrong["type"] = "Banana"
        let text = String(
            decoding: try JSONSerialization.data(withJSONObject: [
                "method": "Network.requestWillBeSent", "params": wrong,
            ]),
            as: UTF8.self
        )
        #expect(checker.violations(ofEvent: text).contains { $0.contains("Banana is not one of") })
    }

    @Test("the fields the Network panel shows: method, URL, status, protocol, remote address, MIME type, sizes, timing")
    func fields() throws {
        let events = NetworkEvents.replay(try Self.completed())
        #expect(
            events.map(\.method) == [
                "Network.requestWillBeSent", "Network.responseReceived", "Network.dataReceived",
                "Network.loadingFinished",
            ]
        )
        let request = try params(events[0])["request"] as? [String: Any]
        #expect(request?["method"] as? String == "POST")
        #expect(request?["postData"] as? String == #"{"name":"x"}"#)
        #expect((request?["headers"] as? [String: String])?["X-Twice"] == "a\nb")
        #expect((try params(events[0])["initiator"] as? [String: Any])?["url"] as? String == "nettap:network")
        let received = try params(events[1])
        #expect(received["type"] as? String == "Fetch")
        let response = try #require(received["response"] as? [String: Any])
        #expect(response["status"] as? Int == 201)
        #expect(response["protocol"] as? String == "h2")
        #expect(response["mimeType"] as? String == "application/json")
        #expect(response["charset"] as? String == "utf-8")
        #expect(response["remoteIPAddress"] as? String == "93.184.216.34")
        #expect(response["securityState"] as? String == "secure")
        let timing = try #require(response["timing"] as? [String: Any])
        #expect(timing["requestTime"] as? Double == Self.start.timeIntervalSince1970)
        #expect(timing["dnsStart"] as? Double == 0)
        #expect(timing["dnsEnd"] as? Double == 3)
        #expect(timing["connectEnd"] as? Double == 15)
        #expect(timing["sslStart"] as? Double == 7)
        #expect(timing["sendStart"] as? Double == 15)
        #expect(timing["receiveHeadersEnd"] as? Double == 30)
        #expect(try params(events[3])["encodedDataLength"] as? Int == 8)
        #expect(try params(events[3])["timestamp"] as? Double == Self.start.timeIntervalSince1970 + 0.041)
    }

    @Test("a redirect is a requestWillBeSent with redirectResponse; failures use Chrome's words; cancelled is canceled")
    func redirectsAndFailures() throws {
        let transactions = try Self.redirectedAndFailed()
        let redirected = NetworkEvents.replay(transactions[0])
        #expect(redirected.map(\.method).prefix(2) == ["Network.requestWillBeSent", "Network.requestWillBeSent"])
        let hop = try params(redirected[1])
        #expect((hop["redirectResponse"] as? [String: Any])?["status"] as? Int == 302)
        #expect((hop["request"] as? [String: Any])?["url"] as? String == "http://127.0.0.1:8080/new")
        #expect(try params(redirected[2])["type"] as? String == "Image")
        #expect((try params(redirected[0])["initiator"] as? [String: Any])?["url"] as? String == "nettap:mock")
        let failed = try params(try #require(NetworkEvents.replay(transactions[1]).last))
        #expect(failed["errorText"] as? String == "net::ERR_CONNECTION_REFUSED")
        #expect(failed["canceled"] as? Bool == false)
        let cancelled = try params(try #require(NetworkEvents.replay(transactions[2]).last))
        #expect(cancelled["errorText"] as? String == "net::ERR_ABORTED")
        #expect(cancelled["canceled"] as? Bool == true)
    }
}
