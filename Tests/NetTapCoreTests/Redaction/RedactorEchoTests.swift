import Foundation
import NetTapCore
import Testing

/// Secrets redacted by name are also removed where they appear again: a server echoing the request (httpbin's
/// `/anything`), a token repeated in another header.
@Suite("Redactor: echoes of redacted secrets")
struct RedactorEchoTests {
    static let secrets = ["SUPERSECRETTOKEN", "COOKIESECRET", "correct horse", "APIKEYSECRET1", "0tp-987654"]

    static func transaction() throws -> CapturedTransaction {
        let url = try #require(URL(string: "http://127.0.0.1:8080/anything?api_key=APIKEYSECRET1&page=2"))
        let requestBody = #"{"user":"ada","password":"correct horse","otp":"0tp-987654"}"#
        let echo: JSONValue = [
            "args": ["api_key": "APIKEYSECRET1", "page": "2"],
            "data": .string(requestBody),
            "headers": ["Authorization": "Bearer SUPERSECRETTOKEN", "Cookie": "sid=COOKIESECRET; theme=dark"],
            "json": ["user": "ada", "password": "correct horse", "otp": "0tp-987654"],
            "url": "http://127.0.0.1:8080/anything?api_key=APIKEYSECRET1&page=2",
        ]
        return CapturedTransaction(
            request: CapturedRequest(
                method: "POST",
                url: url,
                headers: [
                    "Authorization": "Bearer SUPERSECRETTOKEN", "Cookie": "sid=COOKIESECRET; theme=dark",
                    "Content-Type": "application/json",
                ],
                body: CapturedBody(data: Data(requestBody.utf8))
            ),
            response: CapturedResponse(
                statusCode: 200,
                headers: ["Content-Type": "application/json", "X-Debug": "token was SUPERSECRETTOKEN"],
                url: url,
                body: CapturedBody(data: try echo.data(prettyPrinted: true))
            ),
            timings: Timings(startDate: Date(timeIntervalSince1970: 1_700_000_000))
        )
    }

    @Test("no planted secret survives anywhere in the redacted transaction, and the echo stays valid JSON")
    func noSecretSurvives() throws {
        let result = Redactor.default.redact(transaction: try Self.transaction())
        let encoded = String(decoding: try JSONEncoder().encode(result.value), as: UTF8.self)
        for secret in Self.secrets {
            #expect(!encoded.contains(secret), "\(secret) survived")
        }
        let body = try #require(result.value.response?.body?.data)
        let echo = try JSONValue(data: body)
        #expect(echo["json"]?["user"] == "ada")
        #expect(echo["args"]?["page"] == "2")
        #expect(echo["headers"]?["Authorization"] == "Bearer [redacted]")
        let descriptions = result.locations.map(\.description)
        #expect(descriptions.contains("response echo body"))
        #expect(descriptions.contains("response echo X-Debug"))
    }

    @Test("plain-text echoes are replaced too, short values are left alone, and redacting twice changes nothing")
    func plainTextAndIdempotence() throws {
        var transaction = try Self.transaction()
        transaction.response?.headers = ["Content-Type": "text/plain"]
        transaction.response?.body = CapturedBody(data: Data("you sent COOKIESECRET and dark".utf8))
        let once = Redactor.default.redact(transaction: transaction)
        #expect(once.value.response?.body?.data == Data("you sent [redacted] and dark".utf8))
        let twice = Redactor.default.redact(transaction: once.value)
        #expect(twice.value == once.value)
        #expect(!twice.didRedact)
    }

    @Test(
        "a secret echoed in any encoder's spelling is removed: percent-encoded in either case, + for a space",
        arguments: [
            "QREFRESH%2B_a8", "QREFRESH%2b%5Fa8", "%51REFRESH+_a8", "QREFRESH%2B%5F%61%38",
        ]
    )
    func encodedEchoes(echoed: String) throws {
        // The app sent the value percent-encoded; the query item's decoded value is "QREFRESH+_a8".
        let url = try #require(
            URL(string: "http://127.0.0.1:8080/echo?refresh_token=QREFRESH%2B_a8&q=PCT%20SECRET%2Fv1")
        )
        var transaction = try Self.transaction()
        transaction.request = CapturedRequest(method: "GET", url: url, headers: [:])
        transaction.response?.headers = ["Content-Type": "text/plain"]
        transaction.response?.body = CapturedBody(data: Data("path=/echo?refresh_token=\(echoed)&q=1".utf8))
        let redacted = Redactor.default.redact(transaction: transaction).value
        let text = String(decoding: try #require(redacted.response?.body?.data), as: UTF8.self)
        #expect(text == "path=/echo?refresh_token=[redacted]&q=1", "\(echoed) → \(text)")
        #expect(!redacted.request.url.absoluteString.contains("QREFRESH"))
    }

    @Test("a secret with a space and a slash is found percent-encoded, form-encoded and JSON-escaped")
    func spacesAndSlashes() throws {
        var transaction = try Self.transaction()
        transaction.response?.headers = ["Content-Type": "text/plain"]
        let echoes = ["correct%20horse", "correct+horse", "correct%20Horse"]
        transaction.response?.body = CapturedBody(data: Data(echoes.joined(separator: " | ").utf8))
        let redacted = Redactor.default.redact(transaction: transaction).value
        let text = String(decoding: try #require(redacted.response?.body?.data), as: UTF8.self)
        // The third differs in case: a different secret, left alone.
        #expect(text == "[redacted] | [redacted] | correct%20Horse")
    }

    @Test("a request is swept of its own echoes the same way alone and inside a transaction (replay matching)")
    func requestAloneEqualsRequestInTransaction() throws {
        var transaction = try Self.transaction()
        transaction.request.headers.add(name: "X-Trace", value: "user ada token SUPERSECRETTOKEN")
        let alone = Redactor.default.redact(request: transaction.request).value
        let inside = Redactor.default.redact(transaction: transaction).value.request
        #expect(alone == inside)
        #expect(alone.headers["X-Trace"] == "user ada token [redacted]")
    }

    @Test(
        "an echo is found whether or not its text holds an escape character (the literal-only fast path)",
        arguments: [
            // JSON escapes: a \u escape for one letter, an escaped slash, a plain copy with no escape at all.
            (#"{"echo":"SUPER\u0053ECRETTOKEN"}"#, "application/json"),
            (#"{"echo":"correct horse\/v1"}"#, "application/json"),
            (#"{"echo":"SUPERSECRETTOKEN"}"#, "application/json"),
            // Text: a plain copy, and one inside a longer word.
            ("SUPERSECRETTOKEN", "text/plain"),
            ("xxSUPERSECRETTOKENxx", "text/plain"),
        ]
    )
    func fastPath(body: String, contentType: String) throws {
        var transaction = try Self.transaction()
        transaction.response?.headers = ["Content-Type": contentType]
        transaction.response?.body = CapturedBody(data: Data(body.utf8))
        let redacted = Redactor.default.redact(transaction: transaction).value
        let data = try #require(redacted.response?.body?.data)
        let text =
            contentType == "application/json"
            ? try #require(try JSONValue(data: data)["echo"]?.stringValue)
            : String(decoding: data, as: UTF8.self)
        #expect(!text.contains("SUPERSECRETTOKEN") && !text.contains("correct horse"), "\(body) → \(text)")
        #expect(text.contains("[redacted]"), "\(body) → \(text)")
    }

    @Test("text without any copy and without escape characters is returned unchanged, byte for byte")
    func noCopyUnchanged() throws {
        var transaction = try Self.transaction()
        transaction.response?.headers = ["Content-Type": "application/json"]
        let body = Data(#"{"echo":"SUPERSECRETTOKE","other":"COOKIESECRE"}"#.utf8)
        transaction.response?.body = CapturedBody(data: body)
        let redacted = Redactor.default.redact(transaction: transaction)
        #expect(redacted.value.response?.body?.data == body)
        #expect(!redacted.locations.map(\.description).contains("response echo body"))
    }
}
