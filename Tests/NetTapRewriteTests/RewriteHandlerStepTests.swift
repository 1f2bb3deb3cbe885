import Foundation
import NetTapCore
import NetTapRewrite
import NetTapTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("RewriteHandler stepped in the HandlerHarness: map remote, header edits, body rewrites, the contract")
struct RewriteHandlerStepTests {
    private static let production = URL(string: "https://api.example.com/v1/users?page=2")!

    private static func handler(_ rules: RewriteRules) -> RewriteHandler {
        RewriteHandler(rules: rules)
    }

    private static func staging() throws -> MapRemote {
        try MapRemote(from: "https://api.example.com/v1", to: "http://127.0.0.1:8080/staging/v1")
    }

    @Test("keeps the handler contract with every kind of rule, for GET and POST")
    func contract() async throws {
        let sets = [
            RewriteRules(mapRemote: [try Self.staging()]),
            RewriteRules(requestHeaders: [try .set("X-Debug", to: "1")], responseHeaders: [try .remove("Server")]),
            RewriteRules(responseBody: [try .text("a", with: "bb")]),
            RewriteRules(responseBody: [try .text("a", with: "b")], bodyBufferLimit: 10),
            RewriteRules(responseBody: [try .jsonValue(at: "$.a", to: 1)]),
            RewriteRules(responseBody: [try .removingJSONValue(at: "$.a")], bodyBufferLimit: 100),
        ]
        var post = URLRequest(url: Self.production)
        post.httpMethod = "POST"
        post.httpBody = Data("{}".utf8)
        for rules in sets {
            for request in [URLRequest(url: Self.production), post] {
                let violations = await HandlerContract.violations(of: { Self.handler(rules) }, request: request)
                #expect(violations == [], "\(rules.lines())")
            }
        }
    }

    @Test("map remote passes on the mapped URL with the method, header fields and body, and annotates both URLs")
    func mapRemotePassesOn() async throws {
        let harness = HandlerHarness(handler: Self.handler(RewriteRules(mapRemote: [try Self.staging()])))
        var request = URLRequest(url: Self.production)
        request.httpMethod = "PUT"
        request.httpBody = Data("body".utf8)
        request.setValue("Bearer t", forHTTPHeaderField: "Authorization")
        request.setValue("api.example.com", forHTTPHeaderField: "Host")
        guard case .passedOn(let sent) = await harness.start(request) else {
            Issue.record("the request was not passed on")
            return
        }
        #expect(sent.url?.absoluteString == "http://127.0.0.1:8080/staging/v1/users?page=2")
        #expect(sent.httpMethod == "PUT")
        #expect(sent.httpBody == Data("body".utf8))
        #expect(sent.value(forHTTPHeaderField: "Authorization") == "Bearer t")
        #expect(sent.value(forHTTPHeaderField: "Host") == nil, "the transport names the new host")
        let annotations = harness.context.annotations
        #expect(annotations[RewriteHandler.originalURLAnnotation] == Self.production.absoluteString)
        #expect(
            annotations[RewriteHandler.rulesAnnotation]
                == "map remote https://api.example.com/v1 → http://127.0.0.1:8080/staging/v1"
        )
        try await harness.respond(statusCode: 204)
        #expect(try await harness.readBody() == Data())
        try await harness.finish()
    }

    @Test("preserveHost keeps the app's host in Host; the first rule that takes a request wins")
    func preserveHostAndFirstMatch() async throws {
        let rules = RewriteRules(mapRemote: [
            try MapRemote(from: "https://api.example.com", to: "http://127.0.0.1:1", preservesHostHeader: true),
            try MapRemote(from: "https://api.example.com/v1", to: "http://127.0.0.1:2"),
        ])
        let harness = HandlerHarness(handler: Self.handler(rules))
        guard case .passedOn(let sent) = await harness.start(URLRequest(url: Self.production)) else {
            Issue.record("the request was not passed on")
            return
        }
        #expect(sent.url?.port == 1)
        #expect(sent.value(forHTTPHeaderField: "Host") == "api.example.com")
        try await harness.respond(statusCode: 204)
        #expect(try await harness.readBody() == Data())
        try await harness.finish()
    }

    @Test("a failure of the mapped request names the app's URL")
    func failureNamesTheAppsURL() async throws {
        let harness = HandlerHarness(handler: Self.handler(RewriteRules(mapRemote: [try Self.staging()])))
        _ = await harness.start(URLRequest(url: Self.production))
        let mapped = URL(string: "http://127.0.0.1:8080/staging/v1/users?page=2")!
        try harness.fail(
            URLError(
                .cannotConnectToHost,
                userInfo: [NSURLErrorFailingURLErrorKey: mapped, "NSErrorFailingURLStringKey": mapped.absoluteString]
            )
        )
        await #expect {
            _ = try await harness.answer()
        } throws: { error in
            let failure = error as? URLError
            return failure?.code == .cannotConnectToHost && failure?.failingURL == Self.production
                && (failure?.userInfo["NSErrorFailingURLStringKey"] as? String) == Self.production.absoluteString
        }
        try await harness.finish()
    }

    @Test("header edits change the request and the response, and name the fields they changed")
    func headerEdits() async throws {
        let rules = RewriteRules(
            requestHeaders: [
                try .set("X-Debug", to: "1"), try .remove("Authorization"), try .remove("X-Absent"),
                try .set("X-Other", to: "no", matching: .host("other.example.com")),
            ],
            responseHeaders: [try .remove("Server"), try .add("Via", value: "nettap")]
        )
        let harness = HandlerHarness(handler: Self.handler(rules))
        var request = URLRequest(url: Self.production)
        request.setValue("Bearer secret", forHTTPHeaderField: "Authorization")
        guard case .passedOn(let sent) = await harness.start(request) else {
            Issue.record("the request was not passed on")
            return
        }
        #expect(sent.value(forHTTPHeaderField: "X-Debug") == "1")
        #expect(sent.value(forHTTPHeaderField: "Authorization") == nil)
        #expect(sent.value(forHTTPHeaderField: "X-Other") == nil)
        let answer = try await harness.respond(statusCode: 200, headers: ["Server": "gunicorn", "Via": "1.1 cdn"])
        #expect(answer.headers["Server"] == nil)
        #expect(answer.headers.values(for: "Via") == ["1.1 cdn", "nettap"])
        #expect(try await harness.readBody() == Data())
        let annotations = harness.context.annotations
        #expect(annotations[RewriteHandler.requestHeadersAnnotation] == "set X-Debug; remove Authorization")
        #expect(annotations[RewriteHandler.responseHeadersAnnotation] == "remove Server; add Via")
        try await harness.finish()
    }

    @Test("a body of known length is rewritten whole: Content-Length is the new length, Content-Encoding goes")
    func wholeBody() async throws {
        let rules = RewriteRules(responseBody: [
            try .text("prod", with: "staging"), try .jsonValue(at: "$.user.name", to: "Test"),
        ])
        let harness = HandlerHarness(handler: Self.handler(rules))
        _ = await harness.start(URLRequest(url: Self.production))
        let body = Data(#"{"host": "prod.example.com", "user": {"name": "Ann"}, "mirror": "prod"}"#.utf8)
        try harness.sendHead(
            statusCode: 200,
            headers: ["Content-Length": "31", "Content-Encoding": "gzip"],
            expectedLength: Int64(body.count)
        )
        harness.sendChunk(body.prefix(20))
        harness.sendChunk(body.dropFirst(20))
        harness.end()
        let answer = try await harness.answer()
        let read = try await harness.readBody()
        let expected = #"{"host": "staging.example.com", "user": {"name": "Test"}, "mirror": "staging"}"#
        #expect(String(decoding: read, as: UTF8.self) == expected)
        #expect(answer.headers["Content-Length"] == "\(expected.utf8.count)")
        #expect(answer.headers["Content-Encoding"] == nil)
        #expect(answer.body.expectedLength == Int64(expected.utf8.count))
        #expect(
            harness.context.annotations[RewriteHandler.responseBodyAnnotation]
                == #"replace "prod" with "staging" ×2; set $.user.name ×1"#
        )
        try await harness.finish()
    }

    @Test("a body that no rule changes keeps its header fields")
    func unchangedBody() async throws {
        let harness = HandlerHarness(handler: Self.handler(RewriteRules(responseBody: [try .text("zzz", with: "y")])))
        _ = await harness.start(URLRequest(url: Self.production))
        let answer = try await harness.respond(
            statusCode: 200,
            headers: ["Content-Length": "5", "Content-Encoding": "gzip"],
            body: Data("hello".utf8)
        )
        #expect(answer.headers["Content-Length"] == "5")
        #expect(answer.headers["Content-Encoding"] == "gzip")
        #expect(try await harness.readBody() == Data("hello".utf8))
        #expect(
            harness.context.annotations[RewriteHandler.responseBodyAnnotation] == #"replace "zzz" with "y": not found"#
        )
        #expect(harness.context.annotations[RewriteHandler.rulesAnnotation] == nil)
        try await harness.finish()
    }

    @Test("a streamed body of unknown length streams through text rules: the head comes first, chunks as they come")
    func streamedText() async throws {
        let harness = HandlerHarness(
            handler: Self.handler(RewriteRules(responseBody: [try .text("needle", with: "N")]))
        )
        _ = await harness.start(URLRequest(url: Self.production))
        try harness.sendHead(statusCode: 200, headers: ["Transfer-Encoding": "chunked"])
        let answer = try await harness.answer()
        #expect(answer.body.expectedLength == nil)
        harness.sendChunk(Data("a nee".utf8))
        #expect(try await harness.readChunk() == Data("a ".utf8), "the start of a possible occurrence is held back")
        harness.sendChunk(Data("dle and a needle".utf8))
        #expect(try await harness.readChunk() == Data("N and a N".utf8))
        harness.sendChunk(Data(" end nee".utf8))
        #expect(try await harness.readChunk() == Data(" end ".utf8))
        harness.end()
        #expect(try await harness.readChunk() == Data("nee".utf8))
        #expect(try await harness.readChunk() == nil)
        #expect(harness.context.annotations[RewriteHandler.responseBodyAnnotation] == #"replace "needle" with "N" ×2"#)
        try await harness.finish()
    }

    @Test("a body over the limit streams: Content-Length goes unless the text keeps its length; JSON rules skip it")
    func overLimit() async throws {
        let rules = RewriteRules(
            responseBody: [try .text("ab", with: "xy"), try .jsonValue(at: "$.a", to: 1)],
            bodyBufferLimit: 8
        )
        let harness = HandlerHarness(handler: Self.handler(rules))
        _ = await harness.start(URLRequest(url: Self.production))
        let body = Data(#"{"a": "abababab"}"#.utf8)
        let answer = try await harness.respond(
            statusCode: 200,
            headers: ["Content-Length": "\(body.count)"],
            body: body
        )
        #expect(answer.headers["Content-Length"] == "\(body.count)", "the text rule keeps the length")
        #expect(try await harness.readBody() == Data(#"{"a": "xyxyxyxy"}"#.utf8))
        #expect(
            harness.context.annotations[RewriteHandler.responseBodyAnnotation]
                == #"replace "ab" with "xy" ×4; set $.a: the body is over the 8-byte limit JSON rules read"#
        )
        try await harness.finish()
    }

    @Test("a JSON rule holds a body of unknown length up to the limit, then lets the rest stream unchanged")
    func jsonUnknownLength() async throws {
        let rules = RewriteRules(responseBody: [try .removingJSONValue(at: "$.debug")], bodyBufferLimit: 24)
        let small = HandlerHarness(handler: Self.handler(rules))
        _ = await small.start(URLRequest(url: Self.production))
        try small.sendHead(statusCode: 200)
        small.sendChunk(Data(#"{"debug":1,"#.utf8))
        small.sendChunk(Data(#""a":2}"#.utf8))
        small.end()
        let answer = try await small.answer()
        #expect(try await small.readBody() == Data(#"{"a":2}"#.utf8))
        #expect(answer.headers["Content-Length"] == "7")
        try await small.finish()

        let large = HandlerHarness(handler: Self.handler(rules))
        _ = await large.start(URLRequest(url: Self.production))
        try large.sendHead(statusCode: 200)
        let body = #"{"debug":1,"a":"0123456789abcdef"}"#
        large.sendChunk(Data(body.utf8).prefix(25))
        let head = try await large.answer()
        #expect(head.headers["Content-Length"] == nil)
        large.sendChunk(Data(body.utf8).dropFirst(25))
        large.end()
        #expect(try await large.readBody() == Data(body.utf8))
        #expect(
            large.context.annotations[RewriteHandler.responseBodyAnnotation]
                == "remove $.debug: the body is over the 24-byte limit JSON rules read"
        )
        try await large.finish()
    }

    @Test("a response that has no content (HEAD, 204, 304) is left alone")
    func noContent() async throws {
        let rules = RewriteRules(responseBody: [try .text("a", with: "b")])
        var head = URLRequest(url: Self.production)
        head.httpMethod = "HEAD"
        for (request, status) in [(head, 200), (URLRequest(url: Self.production), 204)] {
            let harness = HandlerHarness(handler: Self.handler(rules))
            _ = await harness.start(request)
            let answer = try await harness.respond(statusCode: status, headers: ["Content-Length": "3"])
            #expect(answer.headers["Content-Length"] == "3")
            #expect(try await harness.readBody() == Data())
            #expect(harness.context.annotations.isEmpty)
            try await harness.finish()
        }
    }

    @Test("a partial response (206) is left alone: a new length would contradict its Content-Range")
    func partialContent() async throws {
        let harness = HandlerHarness(handler: Self.handler(RewriteRules(responseBody: [try .text("a", with: "bb")])))
        _ = await harness.start(URLRequest(url: Self.production))
        let answer = try await harness.respond(
            statusCode: 206,
            headers: ["Content-Range": "bytes 0-2/10", "Content-Length": "3"],
            body: Data("aaa".utf8)
        )
        #expect(answer.headers["Content-Length"] == "3")
        #expect(try await harness.readBody() == Data("aaa".utf8))
        #expect(
            harness.context.annotations[RewriteHandler.responseBodyAnnotation]
                == #"replace "a" with "bb": a partial response (206) is left alone"#
        )
        try await harness.finish()
    }

    @Test("the app cancelling while a rewritten body streams cancels the body from below")
    func cancelWhileStreaming() async throws {
        let harness = HandlerHarness(handler: Self.handler(RewriteRules(responseBody: [try .text("x", with: "yy")])))
        _ = await harness.start(URLRequest(url: Self.production))
        try harness.sendHead(statusCode: 200)
        _ = try await harness.answer()
        harness.sendChunk(Data("axb".utf8))
        #expect(try await harness.readChunk() == Data("ayyb".utf8))
        harness.cancel()
        try await harness.finish()
        #expect(harness.isBodyFromBelowCancelled)
    }

    @Test("rules whose matcher does not take the request change nothing")
    func matchersSelect() async throws {
        let rules = RewriteRules(
            mapRemote: [
                try MapRemote(from: "https://api.example.com", to: "http://127.0.0.1:1", matching: .method("POST"))
            ],
            responseBody: [try .text("a", with: "b", matching: .path("/elsewhere"))]
        )
        let harness = HandlerHarness(handler: Self.handler(rules))
        guard case .passedOn(let sent) = await harness.start(URLRequest(url: Self.production)) else {
            Issue.record("the request was not passed on")
            return
        }
        #expect(sent.url == Self.production)
        try await harness.respond(statusCode: 200, body: Data("aaa".utf8))
        #expect(try await harness.readBody() == Data("aaa".utf8))
        #expect(harness.context.annotations.isEmpty)
        try await harness.finish()
    }
}
