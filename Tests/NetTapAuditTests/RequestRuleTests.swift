import Foundation
import NetTapAudit
import NetTapCore
import NetTapTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("AuditHandler request rules: true positives and near misses")
struct RequestRuleTests {
    let audit = Audit()

    // MARK: plaintext.credentials and plaintext.basic-auth

    @Test("a bearer token over http is a high plaintext.credentials finding at its header, without the token")
    func bearerOverHTTP() async throws {
        let findings = try await audit.findings(
            "http://api.example.com/v1/me",
            headers: ["Authorization": "Bearer \(Planted.bearer)"]
        )
        let finding = try #require(findings.of(.plaintextCredentials).first)
        #expect(findings.count == 1)
        #expect(finding.severity == .high)
        #expect(finding.location == "header Authorization")
        #expect(finding.details["kind"] == "bearer")
        #expect(finding.details["url"] == "http://api.example.com/v1/me")
        #expect(finding.message.contains("api.example.com"))
    }

    @Test("a secret-named JSON member holding an object or an array is a credential over http, once, by its path")
    func secretNamedContainers() async throws {
        let body = Data(#"{"secret": {"inner": "x1y2z3w4"}, "token": ["a1b2c3d4", "e5f6g7h8"], "page": {"n": 1}}"#.utf8)
        let findings = try await audit.findings(
            "http://api.example.com/v1/save",
            method: "POST",
            headers: ["Content-Type": "application/json"],
            body: body
        )
        let locations = findings.of(.plaintextCredentials).compactMap(\.location).sorted()
        #expect(locations == ["body $.secret", "body $.token"], "\(findings.map(\.summary))")
    }

    @Test("the same bearer token over https is not reported")
    func bearerOverHTTPS() async throws {
        let findings = try await audit.findings(
            "https://api.example.com/v1/me",
            headers: ["Authorization": "Bearer \(Planted.bearer)", "Cookie": "session=\(Planted.cookieValue)"]
        )
        #expect(findings.isEmpty)
    }

    @Test("credentials over http to a loopback host are low", arguments: ["127.0.0.1", "localhost", "127.3.4.5"])
    func loopbackIsLow(host: String) async throws {
        let findings = try await audit.findings(
            "http://\(host):8080/login",
            headers: ["Authorization": "Basic \(Planted.basic)", "X-Api-Key": Planted.bearer]
        )
        #expect(
            Set(findings.keys) == [
                "plaintext.basic-auth@header Authorization", "plaintext.credentials@header X-Api-Key",
            ]
        )
        #expect(findings.allSatisfy { $0.severity == .low })
        // The text says why it is low, and what the same request would expose elsewhere.
        #expect(findings.allSatisfy { $0.message.contains("is this machine (loopback), so this is low") })
        #expect(!findings.contains { $0.message.contains("anyone on the network path can read") })
    }

    @Test("a host that only starts like loopback is not loopback")
    func notLoopback() async throws {
        let findings = try await audit.findings(
            "http://127.0.0.1.evil.example/login",
            headers: ["Authorization": "Basic \(Planted.basic)"]
        )
        #expect(findings.of(.plaintextBasicAuth).first?.severity == .high)
    }

    @Test("Basic over http is plaintext.basic-auth only; over https nothing")
    func basicAuth() async throws {
        let plain = try await audit.findings(
            "http://api.example.com/login",
            headers: ["Authorization": "Basic \(Planted.basic)"]
        )
        #expect(plain.keys == ["plaintext.basic-auth@header Authorization"])
        #expect(plain.first?.severity == .high)
        let secure = try await audit.findings(
            "https://api.example.com/login",
            headers: ["Authorization": "Basic \(Planted.basic)"]
        )
        #expect(secure.isEmpty)
    }

    @Test("cookies and API-key headers over http name the cookies and header, never their values")
    func cookieAndKeyHeaders() async throws {
        let findings = try await audit.findings(
            "http://api.example.com/feed",
            headers: [
                "Cookie": "session=\(Planted.cookieValue); theme=dark", "X-Api-Key": Planted.bearer,
                "Accept": "application/json", "X-Request-Id": "abc",
            ]
        )
        #expect(
            Set(findings.keys) == ["plaintext.credentials@header Cookie", "plaintext.credentials@header X-Api-Key"]
        )
        let cookie = try #require(findings.first { $0.location == "header Cookie" })
        #expect(cookie.details["cookies"] == "session", "a theme cookie is no credential")
    }

    @Test("secret-named query items and body fields over http are plaintext.credentials; ordinary names are not")
    func secretNamesOverHTTP() async throws {
        let body = Data(#"{"user": {"name": "ann", "password": "\#(Planted.password)"}, "remember": true}"#.utf8)
        let findings = try await audit.findings(
            "http://api.example.com/login?access_token=\(Planted.bearer)&page=2",
            method: "POST",
            headers: ["Content-Type": "application/json"],
            body: body
        )
        #expect(
            Set(findings.of(.plaintextCredentials).compactMap(\.location)) == [
                "query access_token", "body $.user.password",
            ]
        )
    }

    @Test("form fields are read by name")
    func formFields() async throws {
        let findings = try await audit.findings(
            "http://api.example.com/login",
            method: "POST",
            headers: ["Content-Type": "application/x-www-form-urlencoded"],
            body: Data("username=ann&pwd=\(Planted.password)&lang=en".utf8)
        )
        #expect(findings.keys == ["plaintext.credentials@body pwd"])
    }

    @Test("user info in an http URL is reported without the password")
    func userInfo() async throws {
        let findings = try await audit.findings("http://ann:\(Planted.password)@api.example.com/")
        #expect(findings.keys == ["plaintext.credentials@url userinfo"])
        #expect(findings.first?.details["url"] == "http://api.example.com/")
    }

    // MARK: query.password

    @Test(
        "password-like query items are query.password over any scheme",
        arguments: ["password", "passwd", "pwd", "pass", "client_secret", "otp", "newPassword", "APP-SECRET"]
    )
    func queryPassword(name: String) async throws {
        let findings = try await audit.findings("https://api.example.com/login?user=ann&\(name)=\(Planted.password)")
        let finding = try #require(findings.of(.queryPassword).first)
        #expect(finding.severity == .medium)
        #expect(finding.location == "query \(name)")
        #expect(findings.of(.plaintextCredentials).isEmpty, "https: not plaintext")
    }

    @Test("near misses are not passwords", arguments: ["passenger", "compass", "passport_no", "secretary", "q"])
    func queryPasswordNearMiss(name: String) async throws {
        let findings = try await audit.findings("https://api.example.com/search?\(name)=hello")
        #expect(findings.isEmpty)
    }

    @Test("an empty password item is not reported")
    func emptyPassword() async throws {
        #expect(try await audit.findings("https://api.example.com/login?password=").isEmpty)
    }

    @Test("over http a password query item is both query.password and plaintext.credentials")
    func passwordOverHTTP() async throws {
        let findings = try await audit.findings("http://api.example.com/login?password=\(Planted.password)")
        #expect(Set(findings.keys) == ["query.password@query password", "plaintext.credentials@query password"])
    }

    // MARK: token.pattern

    static let tokens: [(kind: String, value: String)] = [
        ("jwt", Planted.jwt), ("aws-access-key-id", Planted.awsKeyID), ("google-api-key", Planted.googleKey),
        ("slack-token", Planted.slackToken), ("private-key", Planted.privateKey),
    ]

    @Test("each token kind in a query item is high, in a body medium", arguments: 0..<5)
    func tokenPatterns(index: Int) async throws {
        let token = Self.tokens[index]
        let encoded = try #require(token.value.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
        let query = try await audit.findings("https://sdk.example.net/collect?q=\(encoded)")
        let inQuery = try #require(query.of(.tokenPattern).first, "\(token.kind)")
        #expect(inQuery.severity == .high)
        #expect(inQuery.location == "query q")
        #expect(inQuery.details["kind"] == token.kind)
        let json = try JSONSerialization.data(withJSONObject: ["config": ["value": token.value]])
        let body = try await audit.findings(
            "https://sdk.example.net/collect",
            method: "POST",
            headers: ["Content-Type": "application/json"],
            body: json
        )
        let inBody = try #require(body.of(.tokenPattern).first, "\(token.kind)")
        #expect(inBody.severity == .medium)
        #expect(inBody.location == "body $.config.value")
        #expect(inBody.details["kind"] == token.kind)
    }

    @Test(
        "token near misses are not reported",
        arguments: [
            "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0",  // two segments only
            "eyJhbGciOiJIUzI1NiJ9.payload12345.signature12345",  // second segment is not JSON
            "AKIAIOSFODNN7EXAMPL",  // 15 characters after the prefix
            "AKIAIOSFODNN7EXAMPLEX",  // part of a longer run
            "AKIAiosfodnn7example",  // lower case
            "AIzaSyA1b2C3d4E5f6G7h8I9j0K_L-mNoPqRs",  // 33 characters after the prefix
            "xoxb-12345",  // no second part
            "xoxq-123456789012-1234567890123-abc",  // unknown type
            "-----BEGIN PUBLIC KEY-----",
            "-----BEGIN CERTIFICATE-----",
        ]
    )
    func tokenNearMisses(text: String) async throws {
        let findings = try await audit.findings(
            "https://sdk.example.net/collect",
            method: "POST",
            headers: ["Content-Type": "text/plain"],
            body: Data("value: \(text) end".utf8)
        )
        #expect(findings.isEmpty, "\(text): \(findings.keys)")
    }

    @Test("tokens in a plain text body are at location body; in a form body at the field")
    func tokenLocations() async throws {
        let text = try await audit.findings(
            "https://sdk.example.net/log",
            method: "POST",
            headers: ["Content-Type": "text/plain; charset=utf-8"],
            body: Data("debug dump: key=\(Planted.awsKeyID) user=ann".utf8)
        )
        #expect(text.keys == ["token.pattern@body"])
        let form = try await audit.findings(
            "https://sdk.example.net/log",
            method: "POST",
            headers: ["Content-Type": "application/x-www-form-urlencoded"],
            body: Data("pem=\(Planted.privateKey.replacingOccurrences(of: " ", with: "+"))&v=1".utf8)
        )
        #expect(form.keys == ["token.pattern@body pem"])
        #expect(form.first?.details["kind"] == "private-key")
    }

    @Test("binary bodies are not scanned for patterns")
    func binaryBody() async throws {
        var body = Data([0x00, 0x01, 0x02])
        body.append(Data(Planted.awsKeyID.utf8))
        let findings = try await audit.findings(
            "https://sdk.example.net/upload",
            method: "POST",
            headers: ["Content-Type": "application/octet-stream"],
            body: body
        )
        #expect(findings.isEmpty)
    }

    @Test("only the first bodyScanLimit bytes of a body are scanned")
    func bodyScanLimit() async throws {
        let audit = Audit(handler: AuditHandler(bodyScanLimit: 64))
        let body = Data((String(repeating: "x", count: 100) + " \(Planted.awsKeyID)").utf8)
        let late = try await audit.findings(
            "https://sdk.example.net/log",
            method: "POST",
            headers: ["Content-Type": "text/plain"],
            body: body
        )
        #expect(late.isEmpty)
        let early = try await audit.findings(
            "https://sdk.example.net/log",
            method: "POST",
            headers: ["Content-Type": "text/plain"],
            body: Data("\(Planted.awsKeyID) ".utf8) + body
        )
        #expect(early.keys == ["token.pattern@body"])
    }

    // MARK: pii.email and pii.card

    @Test("an e-mail address and a card number to a third-party host are medium findings")
    func personalDataToThirdParty() async throws {
        let audit = Audit(handler: AuditHandler(firstPartyHosts: ["example.com", "*.example.com"]))
        let body = Data(#"{"contact": "\#(Planted.email)", "payment": {"number": "\#(Planted.card)"}}"#.utf8)
        let findings = try await audit.findings(
            "https://analytics.tracker.example.net/event",
            method: "POST",
            headers: ["Content-Type": "application/json"],
            body: body
        )
        #expect(Set(findings.keys) == ["pii.email@body $.contact", "pii.card@body $.payment.number"])
        #expect(findings.allSatisfy { $0.severity == .medium })
        #expect(findings.allSatisfy { $0.message.contains("third-party host analytics.tracker.example.net") })
    }

    @Test("personal data to a first-party host, exact or by wildcard, is not reported")
    func personalDataFirstParty() async throws {
        let audit = Audit(handler: AuditHandler(firstPartyHosts: ["example.com", "*.example.com"]))
        for host in ["example.com", "api.example.com", "a.b.example.com"] {
            let findings = try await audit.findings(
                "https://\(host)/profile?email=\(Planted.email)&card=4111111111111111"
            )
            #expect(findings.isEmpty, "\(host)")
        }
        let lookalike = try await audit.findings("https://notexample.com/profile?email=\(Planted.email)")
        #expect(lookalike.keys == ["pii.email@query email"])
    }

    @Test("without a first-party list personal data is reported as info")
    func personalDataWithoutList() async throws {
        let findings = try await audit.findings("https://api.example.com/profile?email=\(Planted.email)")
        #expect(findings.keys == ["pii.email@query email"])
        #expect(findings.first?.severity == .info)
    }

    @Test("card numbers: grouped, plain and as JSON numbers pass; Luhn failures and odd groupings do not")
    func cardNumbers() async throws {
        let audit = Audit(handler: AuditHandler(firstPartyHosts: ["example.com"]))
        let positives = [
            "4111 1111 1111 1111", "4111-1111-1111-1111", "4111111111111111", "378282246310005",
            "3782-822463-10005", "5555555555554444",
        ]
        for card in positives {
            let findings = try await audit.findings(
                "https://pay.example.net/charge",
                method: "POST",
                headers: ["Content-Type": "text/plain"],
                body: Data("card: \(card).".utf8)
            )
            #expect(findings.keys == ["pii.card@body"], "\(card)")
        }
        let json = try await audit.findings(
            "https://pay.example.net/charge",
            method: "POST",
            headers: ["Content-Type": "application/json"],
            body: Data(#"{"pan": 4111111111111111}"#.utf8)
        )
        #expect(json.keys == ["pii.card@body $.pan"])
        let negatives = [
            "4111111111111112",  // fails Luhn
            "1700000000000000",  // a timestamp-like number (no card network starts with 1)
            "4111 1111 1111 111",  // 15 digits grouped 4-4-4-3 fails Luhn
            "411 1111 1111 1111 1",  // first group of 3
            "4111-1111 1111-1111",  // mixed separators
            "41111111111",  // too short
            "300 400 500 600 700",  // a list of numbers
        ]
        for text in negatives {
            let findings = try await audit.findings(
                "https://pay.example.net/charge",
                method: "POST",
                headers: ["Content-Type": "text/plain"],
                body: Data("value: \(text).".utf8)
            )
            #expect(findings.isEmpty, "\(text): \(findings.keys)")
        }
    }

    @Test("e-mail near misses: an image name with @2x and a bare @ are not addresses")
    func emailNearMisses() async throws {
        let audit = Audit(handler: AuditHandler(firstPartyHosts: ["example.com"]))
        for text in ["icon@2x.png", "@mention", "user@localhost", "a @ b.com"] {
            let findings = try await audit.findings("https://cdn.example.net/x?v=\(text)")
            #expect(findings.isEmpty, "\(text): \(findings.keys)")
        }
    }

    // MARK: configuration of rules

    @Test("disabled rules never report")
    func disabledRules() async throws {
        let audit = Audit(handler: AuditHandler(disabledRules: [.queryPassword, .plaintextCredentials]))
        let findings = try await audit.findings(
            "http://api.example.com/login?password=\(Planted.password)&q=\(Planted.awsKeyID)"
        )
        #expect(findings.keys == ["token.pattern@query q"])
    }

    @Test("the request reaches the transport unchanged")
    func requestUnchanged() async throws {
        let transport = FakeTransport()
        let harness = PipelineHarness(handlers: [AuditHandler()], transport: transport)
        var request = URLRequest(url: try #require(URL(string: "http://api.example.com/login?password=x")))
        request.httpMethod = "POST"
        request.setValue("Basic \(Planted.basic)", forHTTPHeaderField: "Authorization")
        request.httpBody = Data("a=b".utf8)
        let result = try await harness.send(request)
        #expect(result.findings.count == 3)
        let sent = try #require(transport.requests.first)
        #expect(sent.url == request.url)
        #expect(sent.httpMethod == "POST")
        #expect(sent.allHTTPHeaderFields == request.allHTTPHeaderFields)
        #expect(sent.httpBody == request.httpBody)
    }
}
