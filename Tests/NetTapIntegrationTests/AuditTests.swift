import Foundation
import NetTapAudit
import NetTapCore
import NetTapTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Audit through real URLSession against httpbin: findings on the capture log, bytes unchanged")
struct AuditTests {
    /// A fake JWT and the AWS documentation's example key ID: planted, never to appear in a finding.
    static let jwt =
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkFubiJ9."
        + "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
    static let awsKeyID = "AKIAIOSFODNN7EXAMPLE"
    static let password = "hunter2-correct-horse"
    static let email = "ann.example@mail.example.org"
    static let secrets = [jwt, awsKeyID, password, email, Data("ann:\(password)".utf8).base64EncodedString()]

    /// What the app saw with the audit handler and without any handler, and the audited transaction.
    struct Run {
        var audited: Observed
        var plain: Observed
        var transaction: CapturedTransaction
        var interceptor: NetTapInterceptor
    }

    /// Sends `request` through an interceptor whose only handler is `handler`, then through one with no
    /// handler, each with its own cookie jar, and checks the app received the same status, headers and bytes.
    static func run(
        _ request: URLRequest,
        style: CallerStyle,
        handler: AuditHandler = AuditHandler(),
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Run {
        let audited = NetTapInterceptor()
        audited.handlers = [handler]
        let plain = NetTapInterceptor()
        plain.handlers = []
        var outcomes: [Observed] = []
        for interceptor in [audited, plain] {
            let configuration = URLSessionConfiguration.default
            configuration.httpCookieStorage = HTTPCookieStorage.sharedCookieStorage(
                forGroupContainerIdentifier: "audit-\(UUID().uuidString)"
            )
            outcomes.append(
                await CallRecorder(interceptor: interceptor, configuration: configuration).send(request, style: style)
            )
        }
        let (withAudit, without) = (outcomes[0], outcomes[1])
        #expect(withAudit.error == nil, "\(style): \(withAudit)", sourceLocation: sourceLocation)
        #expect(withAudit.response?.statusCode == without.response?.statusCode, sourceLocation: sourceLocation)
        #expect(withAudit.body == without.body, "\(style): the same bytes", sourceLocation: sourceLocation)
        #expect(!withAudit.body.isEmpty, sourceLocation: sourceLocation)
        for name in ["Content-Type", "Content-Length"] {
            #expect(
                withAudit.response?.value(forHTTPHeaderField: name)
                    == without.response?.value(forHTTPHeaderField: name),
                "\(name)",
                sourceLocation: sourceLocation
            )
        }
        let transaction = await audited.captureLog.waitForFinished { _ in true }
        for finding in transaction.findings {
            let texts = [finding.summary] + Array(finding.details.values)
            for secret in secrets {
                #expect(!texts.contains { $0.contains(secret) }, "\(finding.summary)", sourceLocation: sourceLocation)
            }
        }
        return Run(audited: withAudit, plain: without, transaction: transaction, interceptor: audited)
    }

    static func keys(_ findings: [Finding]) -> Set<String> {
        Set(findings.map { "\($0.rule)@\($0.location ?? "")" })
    }

    @Test(
        "a cookie set without Secure or HttpOnly over http on a redirect hop is reported",
        arguments: CallerStyle.allCases
    )
    func cookies(style: CallerStyle) async throws {
        let server = try await HTTPBin.shared()
        let run = try await Self.run(URLRequest(url: server.url("/cookies/set?flavour_session=oat")), style: style)
        #expect(run.audited.response?.statusCode == 200)
        #expect(
            Self.keys(run.transaction.findings) == [
                "plaintext.credentials@cookie flavour_session", "cookie.insecure@cookie flavour_session",
            ]
        )
        let plaintext = try #require(run.transaction.findings.first { $0.rule == "plaintext.credentials" })
        #expect(plaintext.severity == .low, "127.0.0.1 is loopback")
        #expect(plaintext.details["url"] == server.url("/cookies/set").absoluteString)
        let insecure = try #require(run.transaction.findings.first { $0.rule == "cookie.insecure" })
        #expect(insecure.details["missing"] == "HttpOnly")
        #expect(insecure.severity == .medium)
        #expect(run.interceptor.captureLog.transactions.findings(of: .cookieInsecure).count == 1)
    }

    /// httpbin's images: path, format, pixels (its own `pig_icon.png`, `jackal.jpg` and `wolf_1.webp`).
    static let images: [(path: String, format: String, width: Int, height: Int)] = [
        ("/image/png", "png", 100, 100), ("/image/jpeg", "jpeg", 239, 178), ("/image/webp", "webp", 274, 367),
    ]

    @Test(
        "httpbin's PNG, JPEG and WebP above a lowered limit are reported with their size and pixels",
        arguments: CallerStyle.allCases,
        0..<3
    )
    func images(style: CallerStyle, index: Int) async throws {
        let image = Self.images[index]
        let server = try await HTTPBin.shared()
        let run = try await Self.run(
            URLRequest(url: server.url(image.path)),
            style: style,
            handler: AuditHandler(imageSizeLimit: 1_000)
        )
        #expect(ImageDimensions(reading: run.audited.body)?.width == image.width, "the app got a whole image")
        let finding = try #require(run.transaction.findings.first)
        #expect(run.transaction.findings.map(\.rule) == ["image.oversized"])
        #expect(finding.details["bytes"] == "\(run.audited.body.count)")
        #expect(finding.details["mimeType"] == "image/\(image.format)")
        #expect(finding.details["format"] == image.format)
        #expect(finding.details["width"] == "\(image.width)")
        #expect(finding.details["height"] == "\(image.height)")
        #expect(finding.details["url"] == server.url(image.path).absoluteString)
    }

    @Test("the same images under the default 500 KiB limit give no finding")
    func imagesUnderLimit() async throws {
        let server = try await HTTPBin.shared()
        let run = try await Self.run(URLRequest(url: server.url("/image/jpeg")), style: .async)
        #expect(run.transaction.findings.isEmpty)
    }

    @Test(
        "a login over http to /anything: Basic auth, password in query and body, a token and an e-mail; the echo too",
        arguments: CallerStyle.allCases
    )
    func login(style: CallerStyle) async throws {
        let server = try await HTTPBin.shared()
        let encodedEmail = try #require(Self.email.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
        var request = URLRequest(
            url: server.url("/anything/login?password=\(Self.password)&sdk_key=\(Self.jwt)&email=\(encodedEmail)")
        )
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue(
            "Basic \(Data("ann:\(Self.password)".utf8).base64EncodedString())",
            forHTTPHeaderField: "Authorization"
        )
        request.httpBody = try JSONSerialization.data(withJSONObject: ["user": "ann", "password": Self.password])
        let run = try await Self.run(request, style: style, handler: AuditHandler(firstPartyHosts: ["example.com"]))
        let findings = run.transaction.findings
        #expect(
            Self.keys(findings).isSuperset(of: [
                "plaintext.basic-auth@header Authorization", "query.password@query password",
                "plaintext.credentials@query password", "token.pattern@query sdk_key", "pii.email@query email",
                "plaintext.credentials@body $.password",
            ]),
            "\(Self.keys(findings))"
        )
        #expect(findings.first { $0.rule == "token.pattern" && $0.location == "query sdk_key" }?.severity == .high)
        #expect(findings.first { $0.rule == "pii.email" }?.severity == .medium, "127.0.0.1 is not first party")
        let echoed = findings.filter { $0.location?.hasPrefix("response body") == true }
        #expect(echoed.contains { $0.rule == "token.pattern" && $0.location == "response body $.args.sdk_key" })
        #expect(echoed.allSatisfy { $0.severity == .medium }, "a token coming back over http")
        let serious = run.interceptor.captureLog.transactions.findings(minimumSeverity: .medium)
        #expect(serious.count == findings.filter { $0.severity >= .medium }.count)
    }

    @Test("a key in bytes served by /base64 is found in the response while the app gets the same bytes")
    func base64Body() async throws {
        let server = try await HTTPBin.shared()
        let text = Data("config\naws_key_id: \(Self.awsKeyID)\nregion: eu-west-1\n".utf8)
        let encoded = text.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
        for style in CallerStyle.allCases {
            let run = try await Self.run(URLRequest(url: server.url("/base64/\(encoded)")), style: style)
            #expect(run.audited.body == text)
            #expect(Self.keys(run.transaction.findings) == ["token.pattern@response body"])
            #expect(run.transaction.findings.first?.details["kind"] == "aws-access-key-id")
        }
    }
}
