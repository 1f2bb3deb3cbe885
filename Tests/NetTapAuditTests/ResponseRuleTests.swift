import Foundation
import NetTapAudit
import NetTapCore
import NetTapTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A transport that records a redirect hop setting a cookie, then answers 200.
private struct HopTransport: Transport {
    var hopURL: URL
    var setCookie: String

    func send(_ request: URLRequest, context: TransactionContext) async throws -> HandlerResponse {
        context.markRequestSent(request)
        context.recordRedirect(
            RedirectHop(
                method: "GET",
                url: hopURL,
                statusCode: 302,
                headers: ["Set-Cookie": setCookie, "Location": "/done"],
                elapsedMilliseconds: 1
            )
        )
        context.markFirstByte()
        return HandlerResponse(statusCode: 200, url: request.url, body: .string("done"))
    }
}

@Suite("AuditHandler response rules: cookies, oversized images, tokens in responses; bytes unchanged")
struct ResponseRuleTests {
    /// The findings and body for a response with these headers and body chunks to `url`.
    static func respond(
        _ url: String,
        headers: HeaderFields,
        chunks: [Data] = [],
        handler: AuditHandler = AuditHandler(),
        method: String = "GET"
    ) async throws -> PipelineHarness.Result {
        let transport = FakeTransport { request in
            let total = chunks.reduce(0) { $0 + $1.count }
            let body = ResponseBody.stream(expectedLength: Int64(total)) { writer in
                for chunk in chunks { writer.write(chunk) }
                writer.finish()
            }
            return HandlerResponse(statusCode: 200, headers: headers, url: request.url, body: body)
        }
        var request = URLRequest(url: try #require(URL(string: url)))
        request.httpMethod = method
        let result = try await PipelineHarness(handlers: [handler], transport: transport).send(request)
        expectNoSecrets(in: result.findings)
        return result
    }

    /// `data` cut into pieces of at most `size` bytes.
    static func chunks(_ data: Data, size: Int) -> [Data] {
        stride(from: 0, to: data.count, by: size).map { data.subdata(in: $0..<min($0 + size, data.count)) }
    }

    // MARK: cookie.insecure

    @Test("a cookie without Secure and HttpOnly over https names both, never the value")
    func cookieMissingBoth() async throws {
        let result = try await Self.respond(
            "https://api.example.com/login",
            headers: ["Set-Cookie": "session=\(Planted.cookieValue); Path=/"]
        )
        let finding = try #require(result.findings.first)
        #expect(result.findings.keys == ["cookie.insecure@cookie session"])
        #expect(finding.severity == .medium)
        #expect(finding.details["missing"] == "Secure, HttpOnly")
        #expect(finding.message.contains("without Secure and HttpOnly"))
    }

    @Test("Secure and HttpOnly present (any case) is not reported; one missing names that one")
    func cookieAttributes() async throws {
        let good = try await Self.respond(
            "https://api.example.com/login",
            headers: ["Set-Cookie": "session=\(Planted.cookieValue); path=/; SECURE; httponly; SameSite=Lax"]
        )
        #expect(good.findings.isEmpty)
        let secureOnly = try await Self.respond(
            "https://api.example.com/login",
            headers: ["Set-Cookie": "session=\(Planted.cookieValue); Secure"]
        )
        #expect(secureOnly.findings.first?.details["missing"] == "HttpOnly")
        let httpOnlyOnly = try await Self.respond(
            "https://api.example.com/login",
            headers: ["Set-Cookie": "session=\(Planted.cookieValue); HttpOnly"]
        )
        #expect(httpOnlyOnly.findings.first?.details["missing"] == "Secure")
    }

    @Test("Set-Cookie fields joined with commas are split at cookies, not inside Expires dates")
    func joinedSetCookie() async throws {
        var headers = HeaderFields()
        headers.add(
            name: "Set-Cookie",
            value: "sess_a=1; Expires=Wed, 21 Oct 2037 07:28:00 GMT; Secure; HttpOnly, sess_b=2; Path=/; Secure"
        )
        headers.add(name: "Set-Cookie", value: "sess_c=3; Secure; HttpOnly")
        let result = try await Self.respond("https://api.example.com/", headers: headers)
        #expect(result.findings.keys == ["cookie.insecure@cookie sess_b"])
    }

    @Test("a Set-Cookie value of several lines (Firefox's HAR export) is read cookie by cookie")
    func multiLineSetCookie() async throws {
        for value in ["sess_a=1; Path=/\nsess_b=2; Secure; HttpOnly", "sess_b=2; Secure; HttpOnly\r\nsess_a=1; Path=/"]
        {
            let result = try await Self.respond(
                "https://api.example.com/",
                headers: HeaderFields([.init(name: "Set-Cookie", value: value)])
            )
            #expect(result.findings.keys == ["cookie.insecure@cookie sess_a"], "\(value)")
            #expect(result.findings.first?.details["missing"] == "Secure, HttpOnly")
        }
    }

    @Test("a cookie being deleted is not reported")
    func deletion() async throws {
        let result = try await Self.respond(
            "http://api.example.com/logout",
            headers: ["Set-Cookie": "session=; Max-Age=0; Path=/"]
        )
        #expect(result.findings.isEmpty)
        let maxAge = try await Self.respond(
            "https://api.example.com/logout",
            headers: ["Set-Cookie": "session=gone; Max-Age=0"]
        )
        #expect(maxAge.findings.isEmpty)
    }

    @Test("over http a set cookie is plaintext.credentials, and cookie.insecure only for a missing HttpOnly")
    func cookieOverHTTP() async throws {
        let result = try await Self.respond(
            "http://api.example.com/login",
            headers: ["Set-Cookie": "session=\(Planted.cookieValue)"]
        )
        #expect(result.findings.keys == ["plaintext.credentials@cookie session", "cookie.insecure@cookie session"])
        #expect(result.findings.first?.severity == .high)
        #expect(result.findings.last?.details["missing"] == "HttpOnly")
        let local = try await Self.respond(
            "http://localhost:8080/login",
            headers: ["Set-Cookie": "session=\(Planted.cookieValue); HttpOnly"]
        )
        #expect(local.findings.keys == ["plaintext.credentials@cookie session"])
        #expect(local.findings.first?.severity == .low)
        #expect(
            local.findings.first?.message.contains("localhost is this machine (loopback), so this is low") == true,
            "\(String(describing: local.findings.first?.message))"
        )
    }

    @Test("a preference cookie over http is no credential; an HttpOnly one or a session-named one is")
    func whichCookiesAreCredentials() async throws {
        let preferences = try await Self.respond(
            "http://api.example.com/",
            headers: HeaderFields([
                .init(name: "Set-Cookie", value: "theme=dark; Path=/"),
                .init(name: "Set-Cookie", value: "theme2=light; Path=/; HttpOnly"),
                .init(name: "Set-Cookie", value: "lang=en"),
            ])
        )
        #expect(preferences.findings.isEmpty, "neither a credential nor worth an attribute finding")
        let credentials = try await Self.respond(
            "http://api.example.com/",
            headers: HeaderFields([
                .init(name: "Set-Cookie", value: "x=Z9f8a7b6c5d4e3f2a1b0; HttpOnly"),
                .init(name: "Set-Cookie", value: "PHPSESSID=abc"),
                .init(name: "Set-Cookie", value: "connect.sid=abc"),
                .init(name: "Set-Cookie", value: "remember_me=1"),
            ])
        )
        #expect(
            Set(credentials.findings.filter { $0.rule == "plaintext.credentials" }.compactMap(\.location)) == [
                "cookie x", "cookie PHPSESSID", "cookie connect.sid", "cookie remember_me",
            ]
        )
    }

    @Test("a cookie set on a redirect hop is reported with the hop's URL")
    func redirectHopCookie() async throws {
        let hop = try #require(URL(string: "https://auth.example.com/sso?ticket=abc"))
        let transport = HopTransport(hopURL: hop, setCookie: "sso=\(Planted.cookieValue); Secure")
        let harness = PipelineHarness(handlers: [AuditHandler()], transport: transport)
        let result = try await harness.send(URLRequest(url: try #require(URL(string: "https://app.example.com/"))))
        let finding = try #require(result.findings.first)
        #expect(result.findings.keys == ["cookie.insecure@cookie sso"])
        #expect(finding.details["url"] == "https://auth.example.com/sso")
        #expect(finding.details["missing"] == "HttpOnly")
    }

    // MARK: image.oversized

    @Test("an image streamed past the limit is reported with bytes, limit and pixel size", arguments: 0..<7)
    func oversized(index: Int) async throws {
        let file = ImageDimensionsTests.files[index]
        let image = try Fixture.data(file.name)
        let padded = image + Data(repeating: 0, count: 4_000)
        let limit = padded.count - 1
        let result = try await Self.respond(
            "https://cdn.example.com/img/\(file.name)?v=3",
            headers: ["Content-Type": "image/\(file.format.rawValue)"],
            chunks: Self.chunks(padded, size: 700),
            handler: AuditHandler(imageSizeLimit: limit)
        )
        #expect(result.body == padded, "the app gets every byte")
        let finding = try #require(result.findings.first, "\(file.name)")
        #expect(result.findings.keys == ["image.oversized@response body"])
        #expect(finding.severity == .medium)
        #expect(finding.details["bytes"] == "\(padded.count)")
        #expect(finding.details["limit"] == "\(limit)")
        #expect(finding.details["mimeType"] == "image/\(file.format.rawValue)")
        #expect(finding.details["format"] == file.format.rawValue)
        #expect(finding.details["width"] == "\(file.width)")
        #expect(finding.details["height"] == "\(file.height)")
        #expect(finding.details["url"] == "https://cdn.example.com/img/\(file.name)")
        #expect(finding.message.contains("(\(file.width)×\(file.height) px)"))
    }

    @Test("an image of exactly the limit is not reported")
    func atLimit() async throws {
        let image = try Fixture.data("tiny.png")
        let result = try await Self.respond(
            "https://cdn.example.com/a.png",
            headers: ["Content-Type": "image/png"],
            chunks: [image],
            handler: AuditHandler(imageSizeLimit: image.count)
        )
        #expect(result.findings.isEmpty)
        #expect(result.body == image)
    }

    @Test("the size is the streamed byte count, whatever Content-Length says")
    func streamedCount() async throws {
        let body = try Fixture.data("lossy.webp") + Data(repeating: 7, count: 10_000)
        let result = try await Self.respond(
            "https://cdn.example.com/a.webp",
            headers: ["Content-Type": "image/webp", "Content-Length": "100"],
            chunks: Self.chunks(body, size: 1_000),
            handler: AuditHandler(imageSizeLimit: 5_000)
        )
        #expect(result.findings.first?.details["bytes"] == "\(body.count)")
    }

    @Test("an oversized image without a readable header is reported without dimensions")
    func svg() async throws {
        let body = Data(
            ("<svg xmlns=\"http://www.w3.org/2000/svg\">" + String(repeating: " ", count: 600) + "</svg>").utf8
        )
        let result = try await Self.respond(
            "https://cdn.example.com/logo.svg",
            headers: ["Content-Type": "image/svg+xml"],
            chunks: [body],
            handler: AuditHandler(imageSizeLimit: 500)
        )
        let finding = try #require(result.findings.first)
        #expect(finding.rule == "image.oversized")
        #expect(finding.details["width"] == nil)
        #expect(finding.details["bytes"] == "\(body.count)")
    }

    @Test("the default limit is 500 KiB: 512,000 bytes pass, 512,001 are reported")
    func defaultLimit() async throws {
        #expect(AuditHandler.defaultImageSizeLimit == 512_000)
        let png = try Fixture.data("tiny.png")
        for (extra, expected) in [(0, 0), (1, 1)] {
            let body = png + Data(repeating: 0, count: 512_000 - png.count + extra)
            let result = try await Self.respond(
                "https://cdn.example.com/big.png",
                headers: ["Content-Type": "image/png"],
                chunks: Self.chunks(body, size: 65_536)
            )
            #expect(result.findings.count == expected)
            #expect(result.body == body)
        }
    }

    @Test("the image finding is added when the body ends, while the app reads it")
    func addedWhileStreaming() async throws {
        let body = try Fixture.data("tiny.gif") + Data(repeating: 1, count: 3_000)
        let pieces = Self.chunks(body, size: 1_000)
        let writer = Locked<BodyWriter?>(nil)
        let transport = FakeTransport { request in
            HandlerResponse(
                statusCode: 200,
                headers: ["Content-Type": "image/gif"],
                url: request.url,
                body: .stream(expectedLength: nil) { bodyWriter in writer.withLock { $0 = bodyWriter } }
            )
        }
        let pipeline = Pipeline(handlers: [AuditHandler(imageSizeLimit: 2_000)], transport: transport)
        let context = TransactionContext()
        let url = try #require(URL(string: "https://c.example/a.gif"))
        let response = try await pipeline.send(URLRequest(url: url), context: context)
        let producer = try #require(writer.current)
        for piece in pieces { producer.write(piece) }
        #expect(context.findings.isEmpty, "every byte passed the tee, but the body has not ended")
        producer.finish()
        let received = try await response.body.collect()
        #expect(received == body)
        #expect(context.findings.map(\.rule) == ["image.oversized"])
        #expect(context.findings.first?.details["width"] == "41")
    }

    @Test("a disabled image rule leaves image responses alone; HEAD responses are never scanned")
    func disabledAndHead() async throws {
        let body = try Fixture.data("tiny.png") + Data(repeating: 0, count: 2_000)
        let disabled = try await Self.respond(
            "https://cdn.example.com/a.png",
            headers: ["Content-Type": "image/png"],
            chunks: [body],
            handler: AuditHandler(imageSizeLimit: 10, disabledRules: [.imageOversized])
        )
        #expect(disabled.findings.isEmpty)
        #expect(disabled.body == body)
        let head = try await Self.respond(
            "https://cdn.example.com/a.png",
            headers: ["Content-Type": "image/png"],
            chunks: [body],
            handler: AuditHandler(imageSizeLimit: 10),
            method: "HEAD"
        )
        #expect(head.findings.isEmpty)
    }

    // MARK: tokens in responses

    @Test("a JWT in a JSON response is info over https, medium over http; a private key is high")
    func responseTokens() async throws {
        let json = Data(#"{"access_token": "\#(Planted.jwt)", "expires_in": 3600}"#.utf8)
        let secure = try await Self.respond(
            "https://auth.example.com/token",
            headers: ["Content-Type": "application/json"],
            chunks: Self.chunks(json, size: 10)
        )
        #expect(secure.body == json)
        #expect(secure.findings.keys == ["token.pattern@response body $.access_token"])
        #expect(secure.findings.first?.severity == .info)
        let plain = try await Self.respond(
            "http://auth.example.com/token",
            headers: ["Content-Type": "application/json; charset=utf-8"],
            chunks: [json]
        )
        #expect(plain.findings.first?.severity == .medium)
        let key = try await Self.respond(
            "https://config.example.com/keys.txt",
            headers: ["Content-Type": "text/plain"],
            chunks: [Data("key:\n\(Planted.privateKey)\n".utf8)]
        )
        #expect(key.findings.keys == ["token.pattern@response body"])
        #expect(key.findings.first?.severity == .high)
    }

    @Test("binary responses pass untouched and unscanned")
    func binaryResponse() async throws {
        let body = Data([0, 1, 2]) + Data(Planted.awsKeyID.utf8)
        let result = try await Self.respond(
            "https://cdn.example.com/blob",
            headers: ["Content-Type": "application/octet-stream"],
            chunks: [body]
        )
        #expect(result.findings.isEmpty)
        #expect(result.body == body)
    }
}
