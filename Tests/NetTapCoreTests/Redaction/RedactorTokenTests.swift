import Foundation
import NetTapCore
import Testing

/// Values shaped like known tokens and keys are redacted wherever they appear, whatever their name.
@Suite("Redactor: tokens by shape")
struct RedactorTokenTests {
    // Shapes only: AWS's documentation example key id, a JWT of {"alg":"HS256"}.{"sub":"ada"}, made-up others.
    static let awsKey = "AKIAIOSFODNN7EXAMPLE"
    static let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZGEifQ.c2lnbmF0dXJlLW5vdC1yZWFs"
    static let googleKey = "AIzaSyA1234567890abcdefghijklmnopqrstuv"
    static let slackToken = "xoxb-123456789012-abcdefghijklmnop"
    static let privateKey = """
        -----BEGIN RSA PRIVATE KEY-----
        MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun
        VTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxK
        -----END RSA PRIVATE KEY-----
        """

    static func url(_ text: String) throws -> URL {
        try #require(URL(string: text))
    }

    static func transaction(
        request: CapturedRequest,
        responseBody: String,
        contentType: String
    ) throws -> CapturedTransaction {
        CapturedTransaction(
            request: request,
            response: CapturedResponse(
                statusCode: 200,
                headers: ["Content-Type": contentType],
                url: request.url,
                body: CapturedBody(data: Data(responseBody.utf8))
            ),
            timings: Timings(startDate: Date(timeIntervalSince1970: 1_700_000_000))
        )
    }

    @Test("a token under a name no rule covers is replaced in the URL, a header, a JSON string and a form")
    func everywhere() throws {
        let request = CapturedRequest(
            method: "POST",
            url: try Self.url("https://api.example.com/export?key=\(Self.awsKey)&page=2"),
            headers: ["X-Debug": "user=ada jwt=\(Self.jwt)", "Content-Type": "application/x-www-form-urlencoded"],
            body: CapturedBody(data: Data("maps=\(Self.googleKey)&chat=\(Self.slackToken)&n=1".utf8))
        )
        let transaction = try Self.transaction(
            request: request,
            responseBody: #"{"note":"issued \#(Self.jwt) today","count":1}"#,
            contentType: "application/json"
        )
        let result = Redactor.default.redact(transaction: transaction)
        let redacted = result.value
        #expect(redacted.request.url.absoluteString == "https://api.example.com/export?key=%5Bredacted%5D&page=2")
        #expect(redacted.request.headers["X-Debug"] == "user=ada jwt=[redacted]")
        #expect(
            redacted.request.body.map { String(decoding: $0.data, as: UTF8.self) }
                == "maps=[redacted]&chat=[redacted]&n=1"
        )
        let body = try JSONValue(data: try #require(redacted.response?.body?.data))
        #expect(body["note"] == "issued [redacted] today")
        #expect(body["count"] == 1)
        let encoded = String(decoding: try JSONEncoder().encode(redacted), as: UTF8.self)
        for token in [Self.awsKey, Self.jwt, Self.googleKey, Self.slackToken] {
            #expect(!encoded.contains(token), "\(token) survived")
        }
        let descriptions = Set(result.locations.map(\.description))
        #expect(descriptions.isSuperset(of: ["request token url", "request token X-Debug", "request token body"]))
        #expect(descriptions.contains("response token body"))
        // Redacting twice changes nothing.
        let twice = Redactor.default.redact(transaction: redacted)
        #expect(twice.value == redacted)
        #expect(!twice.didRedact)
    }

    @Test("a private key block is replaced whole, through its END line, and to the end when that line is missing")
    func privateKeyBlock() throws {
        let request = CapturedRequest(method: "GET", url: try Self.url("https://api.example.com/keys"), headers: [:])
        let whole = try Self.transaction(
            request: request,
            responseBody: "before\n\(Self.privateKey)\nafter\n",
            contentType: "text/plain"
        )
        let text = { (transaction: CapturedTransaction) in
            String(decoding: transaction.response?.body?.data ?? Data(), as: UTF8.self)
        }
        #expect(text(Redactor.default.redact(transaction: whole).value) == "before\n[redacted]\nafter\n")

        let cut = String(Self.privateKey.prefix(120))
        let truncated = try Self.transaction(
            request: request,
            responseBody: "before\n" + cut,
            contentType: "text/plain"
        )
        #expect(text(Redactor.default.redact(transaction: truncated).value) == "before\n[redacted]")

        // In JSON the block is one string with escaped line breaks: still replaced whole.
        let json = String(decoding: try JSONValue.object(["key": .string(Self.privateKey)]).data(), as: UTF8.self)
        let inJSON = try Self.transaction(request: request, responseBody: json, contentType: "application/json")
        let body = try JSONValue(
            data: try #require(Redactor.default.redact(transaction: inJSON).value.response?.body?.data)
        )
        #expect(body["key"] == "[redacted]")
    }

    @Test("a token the response reveals is removed from the request too")
    func revealedByResponse() throws {
        let request = CapturedRequest(
            method: "GET",
            url: try Self.url("https://api.example.com/echo?note=\(Self.slackToken)"),
            headers: [:]
        )
        let transaction = try Self.transaction(
            request: request,
            responseBody: "you sent \(Self.slackToken)",
            contentType: "text/plain"
        )
        let redacted = Redactor.default.redact(transaction: transaction).value
        #expect(!redacted.request.url.absoluteString.contains("xoxb"))
        #expect(redacted.response?.body?.data == Data("you sent [redacted]".utf8))
    }

    @Test(
        "near misses are kept: too short, no second dot, a public key, an identifier that runs on",
        arguments: [
            "AKIAIOSFODNN7EXAMPL", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZGEifQ", "-----BEGIN PUBLIC KEY-----",
            "XAKIAIOSFODNN7EXAMPLE", "xoxb-123",
        ]
    )
    func nearMisses(text: String) throws {
        let request = CapturedRequest(method: "GET", url: try Self.url("https://api.example.com/x"), headers: [:])
        let transaction = try Self.transaction(
            request: request,
            responseBody: "value \(text) end",
            contentType: "text/plain"
        )
        let result = Redactor.default.redact(transaction: transaction)
        #expect(result.value.response?.body?.data == Data("value \(text) end".utf8))
        #expect(!result.didRedact)
    }

    @Test("redactsTokens false, Redactor.disabled and the configuration's \"tokens\": false keep token shapes")
    func switchedOff() throws {
        let request = CapturedRequest(
            method: "GET",
            url: try Self.url("https://api.example.com/export?key=\(Self.awsKey)"),
            headers: [:]
        )
        let withoutTokens = Redactor(redactsTokens: false)
        #expect(withoutTokens.redact(request: request).value.url == request.url)
        #expect(Redactor.disabled.redact(request: request).value.url == request.url)
        #expect(Redactor.default.redact(request: request).value.url != request.url)
        #expect(Redactor.default.adding([.header("X-Session")]).redactsTokens)
        #expect(!withoutTokens.excepting([.cookie("theme")]).redactsTokens)
        #expect(withoutTokens.isEnabled, "name rules still apply")
        #expect(!Redactor.disabled.isEnabled)

        let configured = try Redactor(configuration: ConfigNode(value: .object(["tokens": .bool(false)])))
        #expect(configured == withoutTokens)
        #expect(try Redactor(configuration: ConfigNode(value: .object([:]))).redactsTokens)
        #expect(throws: ConfigurationError.self) {
            try Redactor(configuration: ConfigNode(value: .object(["enabled": .bool(false), "tokens": .bool(true)])))
        }
    }
}
