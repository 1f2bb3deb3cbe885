import Foundation
import NetTapCore
import NetTapRewrite
import NetTapTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Rewrite rules seen by the app through a real URLSession, in every caller style and on both transports: a
/// production URL (`api.example.com`, never reached) mapped to httpbin on loopback, header edits httpbin echoes,
/// and body replacements with the right `Content-Length`.
@Suite("Rewrite rules through URLSession: map remote, header edits, body replacements")
struct RewriteTests {
    /// The transports a request can leave by.
    enum Way: String, CaseIterable, CustomTestStringConvertible {
        case libcurl
        case urlsession

        var testDescription: String { rawValue }

        var transport: (any Transport)? {
            switch self {
            case .libcurl: CurlTransport.shared.isAvailable ? CurlTransport.shared : nil
            case .urlsession: ForwardingTransport.shared
            }
        }
    }

    private static let production = "https://api.example.com/v1"

    /// An interceptor with one rewrite handler on `way`'s transport, and the client through it, with its own jar.
    private static func client(_ rules: RewriteRules, way: Way = .libcurl) throws -> (Client, NetTapInterceptor) {
        let interceptor = NetTapInterceptor()
        interceptor.handlers = [RewriteHandler(rules: rules)]
        interceptor.transport = try #require(way.transport, "\(way) is available here")
        let configuration = URLSessionConfiguration.default
        configuration.httpCookieStorage = HTTPCookieStorage.sharedCookieStorage(
            forGroupContainerIdentifier: "rewrite-\(UUID())"
        )
        return (Client(name: "rewrite", interceptor: interceptor, configuration: configuration), interceptor)
    }

    /// The production prefix mapped to httpbin's root.
    private static func staging(_ server: HTTPBin) throws -> MapRemote {
        try MapRemote(from: production, to: server.url("/").absoluteString)
    }

    private static func json(_ data: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test(
        "a production URL mapped to httpbin: method, path, query, body and header fields arrive; the app sees its URL",
        arguments: CallerStyle.allCases,
        Way.allCases
    )
    func mapRemote(style: CallerStyle, way: Way) async throws {
        let server = try await HTTPBin.shared()
        let (client, interceptor) = try Self.client(RewriteRules(mapRemote: [try Self.staging(server)]), way: way)
        let testID = "rewrite-map-\(style)-\(way)-\(UUID())"
        let original = try #require(URL(string: "\(Self.production)/anything/users?page=2&q=a%20b"))
        var request = URLRequest(url: original)
        request.httpMethod = "POST"
        request.httpBody = Data(#"{"name":"Ann"}"#.utf8)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue(testID, forHTTPHeaderField: HTTPBin.testIDHeader)
        let outcome = await client.send(request, style: style)
        #expect(outcome.error == nil, "\(outcome)")
        #expect(outcome.statusCode == 200)
        #expect(outcome.url == original, "the app sees the URL it asked for")
        let echo = try Self.json(outcome.body)
        #expect(echo["method"] as? String == "POST")
        #expect(echo["data"] as? String == #"{"name":"Ann"}"#)
        #expect((echo["args"] as? [String: String]) == ["page": "2", "q": "a b"])
        let headers = try #require(echo["headers"] as? [String: String])
        #expect(headers["Host"] == "127.0.0.1:\(server.port)", "Host names the server the request went to")
        #expect(headers["Content-Type"] == "application/json")
        let lines = await server.waitForRequests(withTestID: testID, count: 1)
        #expect(lines.map(\.description) == ["POST /anything/users?page=2&q=a%20b 200"])
        let captured = await interceptor.captureLog.waitForFinished { _ in true }
        #expect(captured.request.url.absoluteString == server.url("/anything/users?page=2&q=a%20b").absoluteString)
        #expect(captured.response?.url == original)
        #expect(captured.annotations[RewriteHandler.originalURLAnnotation] == original.absoluteString)
        #expect(captured.answeredBy == "network")
    }

    @Test(
        "redirects on the mapped server come back under the app's URL, relative and absolute",
        arguments: CallerStyle.allCases,
        Way.allCases
    )
    func redirects(style: CallerStyle, way: Way) async throws {
        let server = try await HTTPBin.shared()
        let (client, interceptor) = try Self.client(RewriteRules(mapRemote: [try Self.staging(server)]), way: way)
        for path in ["/redirect/2", "/absolute-redirect/2"] {
            let outcome = await client.send(URLRequest(url: URL(string: Self.production + path)!), style: style)
            #expect(outcome.statusCode == 200, "\(path)")
            #expect(outcome.url?.absoluteString == "\(Self.production)/get", "\(path)")
            let echo = try Self.json(outcome.body)
            #expect((echo["url"] as? String)?.hasPrefix("http://127.0.0.1:\(server.port)/get") == true)
        }
        let captured = interceptor.captureLog.transactions
        #expect(captured.count == 2)
        #expect(captured.allSatisfy { $0.redirects.count == 2 })
    }

    @Test("cookies the mapped server sets are the app's host's: the next request carries them", arguments: Way.allCases)
    func cookies(way: Way) async throws {
        let server = try await HTTPBin.shared()
        let (client, _) = try Self.client(RewriteRules(mapRemote: [try Self.staging(server)]), way: way)
        let login = URLRequest(url: URL(string: "\(Self.production)/cookies/set?session=staging-\(way)")!)
        let first = await client.send(login, style: .async)
        #expect(first.statusCode == 200)
        let jar = try #require(client.plain.configuration.httpCookieStorage)
        let stored = jar.cookies(for: URL(string: Self.production)!) ?? []
        #expect(stored.map(\.name) == ["session"])
        let next = await client.send(URLRequest(url: URL(string: "\(Self.production)/cookies")!), style: .async)
        let echo = try Self.json(next.body)
        #expect((echo["cookies"] as? [String: String])?["session"] == "staging-\(way)")
    }

    @Test("preserveHost sends the app's host in Host to the mapped server", arguments: Way.allCases)
    func preserveHost(way: Way) async throws {
        let server = try await HTTPBin.shared()
        let rule = try MapRemote(from: Self.production, to: server.url("/").absoluteString, preservesHostHeader: true)
        let (client, _) = try Self.client(RewriteRules(mapRemote: [rule]), way: way)
        let outcome = await client.send(URLRequest(url: URL(string: "\(Self.production)/headers")!), style: .async)
        #expect(outcome.statusCode == 200)
        let echoed = try #require(try Self.json(outcome.body)["headers"] as? [String: String])
        #expect(echoed["Host"] == "api.example.com")
    }

    @Test("a mapped server that is down fails with the platform's error, naming the app's URL")
    func mappedServerDown() async throws {
        let port = try HTTPBin.unusedPort()
        let rule = try MapRemote(from: Self.production, to: "http://127.0.0.1:\(port)")
        let (client, _) = try Self.client(RewriteRules(mapRemote: [rule]))
        let original = try #require(URL(string: "\(Self.production)/users"))
        for style in CallerStyle.allCases {
            let outcome = await client.send(URLRequest(url: original), style: style)
            #expect(outcome.errorCode == URLError.cannotConnectToHost.rawValue, "\(style)")
        }
        let session = try Self.client(RewriteRules(mapRemote: [rule])).0.plain
        let error = await #expect(throws: URLError.self) { _ = try await session.data(from: original) }
        #expect(error?.failingURL == original)
        #expect(error?.userInfo["NSErrorFailingURLStringKey"] as? String == original.absoluteString)
    }

    @Test(
        "request header edits reach httpbin's /headers; response header edits reach the app",
        arguments: CallerStyle.allCases
    )
    func headerEdits(style: CallerStyle) async throws {
        let server = try await HTTPBin.shared()
        let rules = RewriteRules(
            requestHeaders: [try .set("X-Debug", to: "on"), try .remove("X-Remove-Me")],
            responseHeaders: [try .remove("Server"), try .set("X-Rewritten", to: "yes")]
        )
        let (client, interceptor) = try Self.client(rules)
        var request = URLRequest(url: server.url("/headers"))
        request.setValue("gone", forHTTPHeaderField: "X-Remove-Me")
        let outcome = await client.send(request, style: style)
        #expect(outcome.statusCode == 200)
        let echoed = try #require(try Self.json(outcome.body)["headers"] as? [String: String])
        #expect(echoed["X-Debug"] == "on")
        #expect(echoed["X-Remove-Me"] == nil)
        #expect(outcome.headers["server"] == nil)
        #expect(outcome.headers["x-rewritten"] == "yes")
        let captured = try #require(interceptor.captureLog.transactions.first)
        #expect(captured.request.headers["X-Debug"] == "on", "the capture shows the request as sent")
        #expect(captured.annotations[RewriteHandler.requestHeadersAnnotation] == "set X-Debug; remove X-Remove-Me")
        #expect(captured.annotations[RewriteHandler.responseHeadersAnnotation] == "remove Server; set X-Rewritten")
    }

    @Test(
        "text and JSON replacements reach the app with Content-Length the body's length",
        arguments: CallerStyle.allCases
    )
    func bodyReplacements(style: CallerStyle) async throws {
        let server = try await HTTPBin.shared()
        let rules = RewriteRules(responseBody: [
            try .text("production", with: "staging environment"),
            try .jsonValue(at: "$.args.user", to: ["name": "Test", "admin": true]),
            try .removingJSONValue(at: "$.headers"),
        ])
        let (client, interceptor) = try Self.client(rules)
        let outcome = await client.send(URLRequest(url: server.url("/get?env=production&user=ann")), style: style)
        #expect(outcome.statusCode == 200)
        let body = String(decoding: outcome.body, as: UTF8.self)
        #expect(!body.contains("production"))
        #expect(outcome.headers["content-length"] == "\(outcome.body.count)")
        #expect(outcome.expectedContentLength == Int64(outcome.body.count))
        let echo = try Self.json(outcome.body)
        #expect((echo["args"] as? [String: Any])?["env"] as? String == "staging environment")
        let user = try #require((echo["args"] as? [String: Any])?["user"] as? [String: Any])
        #expect(user["name"] as? String == "Test")
        #expect(user["admin"] as? Bool == true)
        #expect(echo["headers"] == nil)
        let captured = try #require(interceptor.captureLog.transactions.first)
        #expect(captured.response?.body?.data == outcome.body, "the capture holds what the app got")
        #expect(
            captured.annotations[RewriteHandler.responseBodyAnnotation]?.hasPrefix(
                #"replace "production" with "staging environment" ×2; set $.args.user ×1; remove $.headers ×1"#
            ) == true
        )
    }

    @Test("a gzip body is rewritten decoded: Content-Encoding goes, Content-Length is the new length")
    func gzipBody() async throws {
        let server = try await HTTPBin.shared()
        let (client, _) = try Self.client(RewriteRules(responseBody: [try .jsonValue(at: "$.gzipped", to: "no")]))
        for style in CallerStyle.allCases {
            let outcome = await client.send(URLRequest(url: server.url("/gzip")), style: style)
            #expect(outcome.statusCode == 200)
            #expect(try Self.json(outcome.body)["gzipped"] as? String == "no", "\(style)")
            #expect(outcome.headers["content-encoding"] == nil)
            #expect(outcome.headers["content-length"] == "\(outcome.body.count)")
        }
    }

    @Test("a streamed body of unknown length is replaced across its chunks, with no Content-Length")
    func streamedBody() async throws {
        let server = try await HTTPBin.shared()
        let (client, _) = try Self.client(RewriteRules(responseBody: [try .text("127.0.0.1", with: "localhost")]))
        for style in CallerStyle.allCases {
            let outcome = await client.send(URLRequest(url: server.url("/stream/20")), style: style)
            #expect(outcome.statusCode == 200)
            let text = String(decoding: outcome.body, as: UTF8.self)
            #expect(!text.contains("127.0.0.1"), "\(style)")
            #expect(text.split(separator: "\n").count == 20)
            #expect(text.contains("localhost:\(server.port)"))
            #expect(outcome.headers["content-length"] == nil)
        }
    }
}
