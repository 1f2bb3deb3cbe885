import Foundation
import NetTapCore
import NetTapTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

private final class EventCollector: TransactionObserver {
    let (stream, continuation) = AsyncStream.makeStream(of: TransactionEvent.self)
    func observe(_ event: TransactionEvent) { continuation.yield(event) }
}

@Suite("Capture redaction")
struct CaptureRedactionTests {
    /// An interceptor whose transport echoes the request's Authorization value and answers with a secret
    /// cookie and token, so both request and response hold secrets.
    private func interceptor() -> NetTapInterceptor {
        let interceptor = NetTapInterceptor()
        interceptor.transport = FakeTransport { request in
            let echoed = request.value(forHTTPHeaderField: "Authorization") ?? ""
            let body = #"{"access_token": "resp-s3cr3t-token", "echo": "\#(echoed)", "n": 1}"#
            return HandlerResponse(
                statusCode: 200,
                headers: ["Content-Type": "application/json", "Set-Cookie": "sid=resp-s3cr3t-cookie; Path=/"],
                url: request.url,
                body: .string(body)
            )
        }
        return interceptor
    }

    /// A session without a cookie jar: the cookie the transport sets must not reach other tests.
    private func jarlessSession(_ interceptor: NetTapInterceptor) -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        return interceptor.makeSession(configuration: configuration)
    }

    private func request() throws -> URLRequest {
        var request = URLRequest(
            url: try #require(URL(string: "http://redaction.invalid/login?token=req-s3cr3t-query&q=1"))
        )
        request.httpMethod = "POST"
        request.setValue("Bearer req-s3cr3t-bearer", forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(#"{"user": "ann", "password": "req-s3cr3t-password"}"#.utf8)
        return request
    }

    @Test("a cookie value one response set is redacted where a later request of the capture carries it again")
    func laterTransactionsSwept() async throws {
        let interceptor = NetTapInterceptor()
        let sessionID = "sess-\(UUID().uuidString.prefix(8))"
        interceptor.transport = FakeTransport { request in
            let isLogin = request.url?.path == "/login"
            return HandlerResponse(
                statusCode: 200,
                headers: isLogin
                    ? ["Set-Cookie": "sid=\(sessionID); Path=/\nprefs=dark-mode-on"] : ["Content-Type": "text/plain"],
                url: request.url,
                body: .string(isLogin ? "welcome" : "seen \(sessionID)")
            )
        }
        let session = jarlessSession(interceptor)
        defer { session.finishTasksAndInvalidate() }
        _ = try await session.data(for: URLRequest(url: try #require(URL(string: "http://capture.invalid/login"))))
        _ = await interceptor.captureLog.waitForFinished { $0.request.url.path == "/login" }
        let later = try #require(URL(string: "http://capture.invalid/track?visit=\(sessionID)&page=2"))
        let (body, _) = try await session.data(for: URLRequest(url: later))
        #expect(String(decoding: body, as: UTF8.self) == "seen \(sessionID)", "the app gets the real answer")
        let captured = await interceptor.captureLog.waitForFinished { $0.request.url.path == "/track" }
        let text = String(decoding: try JSONEncoder().encode(captured), as: UTF8.self)
        #expect(!text.contains(sessionID))
        #expect(captured.request.url.query?.contains("page=2") == true)
        // Forgotten with the log's transactions: a new capture starts without them.
        interceptor.captureLog.removeAll()
        _ = try await session.data(for: URLRequest(url: later))
        let fresh = await interceptor.captureLog.waitForFinished { $0.request.url.path == "/track" }
        #expect(fresh.request.url.query?.contains(sessionID) == true)
    }

    @Test("the capture log, its events and observers hold redacted transactions; the app gets the real response")
    func capturedRedacted() async throws {
        let interceptor = interceptor()
        let collector = EventCollector()
        interceptor.captureLog.addObserver(collector)
        let session = jarlessSession(interceptor)
        defer { session.finishTasksAndInvalidate() }
        let (data, response) = try await session.data(for: try request())

        // The traffic is untouched.
        #expect(String(decoding: data, as: UTF8.self).contains("resp-s3cr3t-token"))
        #expect(String(decoding: data, as: UTF8.self).contains("Bearer req-s3cr3t-bearer"))
        #expect(
            (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Set-Cookie")?.contains("resp-s3cr3t") == true
        )

        let transaction = try #require(interceptor.captureLog.transactions.first)
        let encoded = String(decoding: try JSONEncoder().encode(transaction), as: UTF8.self)
        #expect(!encoded.contains("s3cr3t"))
        #expect(transaction.request.headers["Authorization"] == "Bearer [redacted]")
        #expect(transaction.request.url.absoluteString == "http://redaction.invalid/login?token=%5Bredacted%5D&q=1")
        #expect(transaction.response?.headers["Set-Cookie"] == "sid=[redacted]; Path=/")
        let body = try JSONValue(data: try #require(transaction.response?.body?.data))
        #expect(body["access_token"] == "[redacted]")
        #expect(body["echo"] == "Bearer [redacted]")
        #expect(body["n"] == 1)
        #expect(
            transaction.redactions.map(\.description) == [
                "request query token", "request header Authorization", "request json $.password",
                "response cookie sid in Set-Cookie", "response query token", "response json $.access_token",
                "response echo body",
            ]
        )

        var events: [TransactionEvent] = []
        for await event in collector.stream {
            events.append(event)
            if case .finished = event { break }
        }
        #expect(events.count == 3)
        for event in events {
            let text = String(decoding: try JSONEncoder().encode(event.transaction), as: UTF8.self)
            #expect(!text.contains("s3cr3t"), "\(event)")
            #expect(event.transaction.redactions.contains { $0.description == "request header Authorization" })
        }
    }

    @Test("Redactor.disabled captures secrets as they are and records no redactions")
    func disabledCapture() async throws {
        let interceptor = interceptor()
        interceptor.redactor = .disabled
        let session = jarlessSession(interceptor)
        defer { session.finishTasksAndInvalidate() }
        _ = try await session.data(for: try request())
        let transaction = try #require(interceptor.captureLog.transactions.first)
        #expect(transaction.request.headers["Authorization"] == "Bearer req-s3cr3t-bearer")
        #expect(transaction.request.url.query == "token=req-s3cr3t-query&q=1")
        #expect(transaction.response?.headers["Set-Cookie"] == "sid=resp-s3cr3t-cookie; Path=/")
        #expect(transaction.redactions.isEmpty)
    }

    @Test("a custom redactor's additions and exceptions apply to the capture")
    func customCapture() async throws {
        let interceptor = interceptor()
        interceptor.redactor = Redactor.default.adding([.queryItem("q")]).excepting([.header("Authorization")])
        let session = jarlessSession(interceptor)
        defer { session.finishTasksAndInvalidate() }
        _ = try await session.data(for: try request())
        let transaction = try #require(interceptor.captureLog.transactions.first)
        #expect(transaction.request.headers["Authorization"] == "Bearer req-s3cr3t-bearer")
        #expect(transaction.request.url.query == "token=%5Bredacted%5D&q=%5Bredacted%5D")
    }

    @Test("redactions survive encoding; a record without them decodes with none")
    func codable() throws {
        let location = RedactionLocation(part: .redirect(2), kind: .cookie, name: "sid", header: "Set-Cookie")
        let data = try JSONEncoder().encode(location)
        #expect(
            try JSONSerialization.jsonObject(with: data) as? [String: String] == [
                "part": "redirect 2", "kind": "cookie", "name": "sid", "header": "Set-Cookie",
            ]
        )
        #expect(try JSONDecoder().decode(RedactionLocation.self, from: data) == location)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(
                RedactionLocation.self,
                from: Data(#"{"part":"body","kind":"json","name":"x"}"#.utf8)
            )
        }

        let transaction = CapturedTransaction(
            request: CapturedRequest(method: "GET", url: try #require(URL(string: "http://h/")), headers: [:]),
            timings: Timings(startDate: Date(timeIntervalSince1970: 0)),
            redactions: [location, RedactionLocation(kind: .query, name: "token")]
        )
        let encoded = try JSONEncoder().encode(transaction)
        #expect(try JSONDecoder().decode(CapturedTransaction.self, from: encoded) == transaction)
        var object = try #require(try JSONSerialization.jsonObject(with: encoded) as? [String: Any])
        object.removeValue(forKey: "redactions")
        let old = try JSONDecoder().decode(
            CapturedTransaction.self,
            from: try JSONSerialization.data(withJSONObject: object)
        )
        #expect(old.redactions.isEmpty)
        #expect(old.id == transaction.id)
    }

    @Test("redacting a transaction twice changes nothing and keeps the record of the first pass")
    func twice() throws {
        let transaction = CapturedTransaction(
            request: CapturedRequest(
                method: "GET",
                url: try #require(URL(string: "http://h/?api_key=s3cr3t-key")),
                headers: ["Authorization": "Bearer s3cr3t-bearer"]
            ),
            timings: Timings(startDate: Date(timeIntervalSince1970: 0))
        )
        let once = Redactor.default.redact(transaction: transaction)
        let twice = Redactor.default.redact(transaction: once.value)
        #expect(once.value.redactions.map(\.description) == ["request query api_key", "request header Authorization"])
        #expect(twice.locations.isEmpty)
        #expect(twice.value == once.value)
    }
}
