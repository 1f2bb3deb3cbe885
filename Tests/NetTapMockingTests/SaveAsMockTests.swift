import Foundation
import NetTapCore
import NetTapHAR
import NetTapMocking
import NetTapTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Save as mock: captured transactions and HAR entries become stubs")
struct SaveAsMockTests {
    /// The shared HAR fixtures written by real tools (see `/work/shared/fixtures/har/README.md`).
    static let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("NetTapHARTests/Fixtures")

    private func entries(_ name: String) throws -> [HAREntry] {
        try HARDocument.load(contentsOf: Self.fixtures.appendingPathComponent(name)).log.entries
    }

    @Test("a Chrome entry with a base64 image answers its URL with the decoded bytes")
    func chromeImage() async throws {
        let entry = try entries("chrome.har")[2]
        let stub = try Stub(recording: entry)
        #expect(stub.name == "GET /images/branding/googlelogo/2x/googlelogo_light_color_272x92dp.png")
        let mocks = MockSet(stubs: [stub])
        let result = try await harness(mocks).send(URLRequest(url: try #require(URL(string: entry.request.url))))
        #expect(result.statusCode == 200)
        #expect(result.body == entry.response.content.decodedData())
        #expect(result.body.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect(result.response.headers["Content-Type"] == "image/png")
        #expect(result.response.headers["Content-Length"] == String(result.body.count))
    }

    @Test("a Chrome entry without a response (net::ERR_INTERNET_DISCONNECTED) becomes a stub failing offline")
    func offlineEntry() async throws {
        let entry = try entries("chrome.har")[1]
        let stub = try Stub(recording: entry)
        let harness = PipelineHarness(handlers: [MockHandler(mocks: MockSet(stubs: [stub]), unmatched: .fail)])
        let error = await #expect(throws: URLError.self) {
            _ = try await harness.send(URLRequest(url: URL(string: "https://www.google.com/")!))
        }
        #expect(error?.code == .notConnectedToInternet)
    }

    @Test("a captured transaction that timed out becomes a stub that times out; a cancelled one is not savable")
    func failedTransaction() async throws {
        let url = URL(string: "https://api.example.com/slow")!
        var transaction = CapturedTransaction(
            request: CapturedRequest(method: "GET", url: url, headers: [:]),
            timings: Timings(startDate: Date()),
            error: TransactionError(URLError(.timedOut)),
            state: .failed
        )
        let stub = try Stub(recording: transaction)
        let harness = PipelineHarness(handlers: [MockHandler(mocks: MockSet(stubs: [stub]), unmatched: .fail)])
        let error = await #expect(throws: URLError.self) { _ = try await harness.send(URLRequest(url: url)) }
        #expect(error?.code == .timedOut)
        transaction.error = TransactionError(URLError(.cancelled))
        #expect(throws: MockingError.self) { _ = try Stub(recording: transaction) }
    }

    @Test("a status-0 entry without a reproducible network error cannot be saved")
    func blockedEntry() throws {
        var entry = try entries("chrome.har")[1]
        entry.response.customFields["_error"] = .string("net::ERR_BLOCKED_BY_CLIENT")
        #expect(
            throws: MockingError.notSavable(
                "GET https://www.google.com/",
                reason: "it has no response (status 0) (net::ERR_BLOCKED_BY_CLIENT) and no network error a stub can "
                    + "reproduce"
            )
        ) {
            _ = try Stub(recording: entry)
        }
    }

    @Test("an entry whose base64 body does not decode is refused, not saved without its body")
    func brokenBase64() throws {
        var entry = try entries("charles.har")[0]
        entry.response.content.text = "@@@notbase64"
        entry.response.content.encoding = "base64"
        #expect {
            _ = try Stub(recording: entry)
        } throws: { error in
            "\(error)".contains("is not valid base64") && "\(error)".contains("the body would be lost")
        }
        entry.response.content.text = Data("fine".utf8).base64EncodedString()
        _ = try Stub(recording: entry)  // valid base64 saves
    }

    @Test("a 204, a 205, a 304 and the answer to HEAD are saved without the body a HAR writer left in them")
    func noBodyWhereHTTPForbidsOne() async throws {
        for (method, status) in [("GET", 304), ("DELETE", 204), ("POST", 205), ("HEAD", 200), ("GET", 200)] {
            var entry = try entries("charles.har")[0]
            entry.request.method = method
            entry.response.status = status
            entry.response.content.text = "stray text"
            entry.response.content.encoding = nil
            let stub = try Stub(recording: entry)
            var request = URLRequest(url: try #require(URL(string: entry.request.url)))
            request.httpMethod = method
            let result = try await harness(MockSet(stubs: [stub])).send(request)
            #expect(result.statusCode == status)
            #expect(
                result.body == (status == 200 && method == "GET" ? Data("stray text".utf8) : Data()),
                "\(method) \(status)"
            )
        }
    }

    @Test("an entry that cannot be saved says why, with its URL redacted and its real status")
    func unsavableEntriesSayWhy() throws {
        var entry = try entries("charles.har")[0]
        func reason(_ change: (inout HAREntry) -> Void) -> String {
            var changed = entry
            change(&changed)
            do {
                _ = try Stub(recording: changed)
                return "saved"
            } catch {
                return "\(error)"
            }
        }
        #expect(reason { $0.request.url = "/rel?password=hunter2-secret" }.contains("its URL is relative"))
        #expect(!reason { $0.request.url = "/rel?password=hunter2-secret" }.contains("hunter2-secret"))
        #expect(reason { $0.request.url = "http://[bad/?token=abcdef123" }.contains("its URL is not a URL"))
        #expect(!reason { $0.request.url = "http://[bad/?token=abcdef123" }.contains("abcdef123"))
        #expect(reason { $0.request.url = "" }.contains("GET (empty URL) as a stub: its URL is empty"))
        entry.response.status = -1
        #expect(reason { _ in }.contains("it has no response (status -1)"))
    }

    @Test("a Charles entry keeps its headers minus transfer headers and matches its query")
    func charlesEntry() async throws {
        let entry = try entries("charles.har")[0]
        let stub = try Stub(recording: entry, name: "home")
        let mocks = MockSet(stubs: [stub])
        let url = try #require(URL(string: entry.request.url))
        let result = try await harness(mocks).send(URLRequest(url: url))
        #expect(result.annotations["stub"] == "home")
        #expect(result.text == entry.response.content.text)
        #expect(result.response.headers["ETag"] == entry.response.headers.first { $0.name == "ETag" }?.value)
        #expect(result.response.headers.values(for: "Content-Length") == [String(result.body.count)])
        await #expect(throws: URLError.self) {
            _ = try await harness(mocks).send(URLRequest(url: URL(string: "https://mitmproxy.org/about")!))
        }
    }

    @Test("a captured transaction answers the same URL with the captured response, query items a subset")
    func transaction() async throws {
        var headers: HeaderFields = ["Content-Type": "application/json", "Content-Encoding": "br"]
        headers.add(name: "Set-Cookie", value: "s=1")
        let url = URL(string: "https://api.example.com/search?q=swift&page=2")!
        let transaction = CapturedTransaction(
            request: CapturedRequest(method: "GET", url: url, headers: [:]),
            response: CapturedResponse(
                statusCode: 200,
                headers: headers,
                url: url,
                body: CapturedBody(data: Data(#"{"hits":3}"#.utf8))
            ),
            timings: Timings(startDate: Date()),
            state: .completed
        )
        let mocks = MockSet(stubs: [try Stub(recording: transaction)])
        let pipeline = harness(mocks)
        let result = try await pipeline.send(request("/search?page=2&q=swift&lang=en"))
        #expect(result.text == #"{"hits":3}"#)
        #expect(result.response.headers.values(for: "Set-Cookie") == ["s=[redacted]"])
        #expect(!result.response.headers.contains(name: "Content-Encoding"))
        let miss = await #expect(throws: URLError.self) { _ = try await pipeline.send(request("/search?q=swift")) }
        #expect(miss?.localizedDescription.contains("query") == true)

        let kept = MockSet(stubs: [try Stub(recording: transaction, redactor: .disabled)])
        let unredacted = try await harness(kept).send(request("/search?page=2&q=swift"))
        #expect(unredacted.response.headers.values(for: "Set-Cookie") == ["s=1"])

        var truncated = transaction
        truncated.response?.body = CapturedBody(data: Data("ab".utf8), totalByteCount: 10)
        #expect(throws: MockingError.self) { _ = try Stub(recording: truncated) }
    }

    @Test("secrets are redacted: token query items match any value, secret body fields and cookies are replaced")
    func redaction() async throws {
        let url = URL(string: "https://api.example.com/session?token=abc123&user=7")!
        let transaction = CapturedTransaction(
            request: CapturedRequest(method: "POST", url: url, headers: [:]),
            response: CapturedResponse(
                statusCode: 200,
                headers: ["Content-Type": "application/json", "Set-Cookie": "session=s3cr3t; Path=/"],
                url: url,
                body: CapturedBody(data: Data(#"{"access_token":"xyz","name":"Ada"}"#.utf8))
            ),
            timings: Timings(startDate: Date()),
            state: .completed
        )
        let stub = try Stub(recording: transaction)
        #expect(stub.matcher.configuration?["query"] == ["token": nil, "user": "7"])
        let mocks = MockSet(stubs: [stub])
        let result = try await harness(mocks).send(request("/session?user=7&token=other", method: "POST"))
        #expect(result.text == #"{"access_token":"[redacted]","name":"Ada"}"#)
        #expect(result.response.headers["Set-Cookie"] == "session=[redacted]; Path=/")
        #expect(!result.text.contains("xyz"))
    }
}
