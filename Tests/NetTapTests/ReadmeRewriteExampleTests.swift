import Foundation
import NetTap
import NetTapTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The README's "Map remote and rewrite" example, compiled and run.
@Suite("README rewrite example")
struct ReadmeRewriteExampleTests {
    /// The rewrite example, line for line (checked by ``rewriteMatchesReadme()``).
    private func rewriteExample(
        interceptor: NetTapInterceptor,
        session: URLSession,
        mocks: MockSet
    ) async throws
        -> (me: Data, response: URLResponse)
    {
        // README-BEGIN rewrite
        let rewrite = RewriteHandler(
            rules: RewriteRules(
                mapRemote: [
                    try MapRemote(from: "https://api.nettap.example/v1", to: "http://127.0.0.1:8080/staging/v1")
                ],
                requestHeaders: [try .set("X-Debug", to: "1"), try .remove("X-Tracking-Id")],
                responseBody: [try .jsonValue(at: "$.user.name", to: "Test User")]  // one value; other bytes kept
            )
        )
        interceptor.handlers = [MockHandler(mocks: mocks), rewrite]  // stubs still match the URL the app asked for

        let (me, response) = try await session.data(from: URL(string: "https://api.nettap.example/v1/me")!)
        // response.url is the app's own URL; the capture keeps both URLs and says what changed
        // README-END rewrite
        return (me, response)
    }

    @Test("the rewrite example runs: staging gets the request, the app its URL, the capture both")
    func rewriteRuns() async throws {
        let interceptor = NetTapInterceptor()
        let staging = FakeTransport { request in
            let body = Data(
                #"{"user": {"name": "Ann", "id": 7}, "debug": "\#(request.value(forHTTPHeaderField: "X-Debug") ?? "-")"}"#
                    .utf8
            )
            return HandlerResponse(
                statusCode: 200,
                headers: ["Content-Type": "application/json", "Content-Length": "\(body.count)"],
                url: request.url,
                body: .data(body)
            )
        }
        interceptor.transport = staging
        let session = interceptor.makeSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }
        let mocks = MockSet(stubs: [Stub("health", matching: .path("/v1/health"), response: .text("ok"))])
        let (me, response) = try await rewriteExample(interceptor: interceptor, session: session, mocks: mocks)
        let expected = #"{"user": {"name": "Test User", "id": 7}, "debug": "1"}"#
        #expect(String(decoding: me, as: UTF8.self) == expected)
        #expect(response.url?.absoluteString == "https://api.nettap.example/v1/me")
        #expect((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Length") == "\(expected.utf8.count)")
        #expect(staging.requests.map { $0.url?.absoluteString } == ["http://127.0.0.1:8080/staging/v1/me"])

        let captured = try #require(interceptor.captureLog.transactions.first)
        #expect(captured.request.url.absoluteString == "http://127.0.0.1:8080/staging/v1/me")
        #expect(captured.response?.url.absoluteString == "https://api.nettap.example/v1/me")
        #expect(captured.annotations[RewriteHandler.originalURLAnnotation] == "https://api.nettap.example/v1/me")
        #expect(captured.annotations[RewriteHandler.responseBodyAnnotation] == "set $.user.name ×1")

        let health = try await session.data(from: URL(string: "https://api.nettap.example/v1/health")!)
        #expect(health.0 == Data("ok".utf8), "the stub matched the URL the app asked for")
        #expect(staging.requests.count == 1)
    }

    @Test("the rewrite example is the README's code")
    func rewriteMatchesReadme() throws {
        let readme = try ReadmeBlocks.block(containing: "let rewrite = RewriteHandler(", from: "let rewrite")
        #expect(!readme.isEmpty)
        #expect(ReadmeBlocks.compact(readme) == ReadmeBlocks.compact(try ReadmeBlocks.marked("rewrite", in: #filePath)))
    }
}
