import Foundation
import NetTap
import NetTapTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// README-BEGIN handler
/// Answers `/health` itself and tags every other request before passing it on.
struct HealthAndTag: TransactionHandler {
    let name = "health"

    func handle(_ request: URLRequest, context: TransactionContext, next: Next) async throws -> HandlerResponse {
        if request.url?.path == "/health" {  // answer: the network is never asked
            context.answer(by: name)  // the capture's answeredBy
            return HandlerResponse(statusCode: 200, headers: ["Content-Type": "text/plain"], body: .string("ok"))
        }
        var tagged = request
        tagged.setValue("nettap", forHTTPHeaderField: "X-Debug-Tag")  // rewrite, then pass on
        let response = try await next(tagged)  // what the handlers below and the network answered
        context.annotate("status", "\(response.statusCode)")  // shown in the capture and HAR comment
        return response
    }
}
// README-END handler

/// The README's "Writing a handler" example, compiled and run through a real URLSession.
@Suite("README handler example")
struct ReadmeHandlerExampleTests {
    @Test("the handler answers /health itself and passes the rest on tagged, through URLSession")
    func handlerRuns() async throws {
        let interceptor = NetTapInterceptor()
        let transport = FakeTransport(statusCode: 204)
        interceptor.transport = transport
        interceptor.handlers = [HealthAndTag()]
        let session = interceptor.makeSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }
        let (health, healthResponse) = try await session.data(from: try #require(URL(string: "http://app.test/health")))
        #expect(String(decoding: health, as: UTF8.self) == "ok")
        #expect((healthResponse as? HTTPURLResponse)?.statusCode == 200)
        let (_, other) = try await session.data(from: try #require(URL(string: "http://app.test/items")))
        #expect((other as? HTTPURLResponse)?.statusCode == 204)
        #expect(transport.requests.map { $0.value(forHTTPHeaderField: "X-Debug-Tag") } == ["nettap"])
        let captured = await interceptor.captureLog.waitForFinished { $0.request.url.path == "/items" }
        #expect(captured.annotations["status"] == "204")
        #expect(interceptor.captureLog.transactions.contains { $0.answeredBy == "health" })
    }

    @Test("the article's HandlerHarness example steps the handler and finishes clean")
    func harnessExampleRuns() async throws {
        // README-BEGIN harness
        let harness = HandlerHarness(handler: HealthAndTag())
        guard case .passedOn(let sent) = await harness.start(URLRequest(url: URL(string: "http://app.test/items")!))
        else {
            Issue.record("not passed on")
            return
        }
        #expect(sent.value(forHTTPHeaderField: "X-Debug-Tag") == "nettap")
        try harness.sendHead(statusCode: 200)
        _ = try await harness.answer()
        harness.sendChunk(Data("[1,".utf8))
        #expect(try await harness.readChunk() == Data("[1,".utf8))
        harness.sendChunk(Data("2]".utf8))
        harness.end()
        #expect(try await harness.readBody() == Data("2]".utf8))
        try await harness.finish()
        // README-END harness
        let url = try #require(URL(string: "http://app.test/health"))
        // README-BEGIN contract
        #expect(await HandlerContract.violations(of: { HealthAndTag() }, request: URLRequest(url: url)) == [])
        // README-END contract
    }

    @Test("the article's harness examples are the code above")
    func harnessExampleMatchesArticle() throws {
        let article = "Sources/NetTap/NetTap.docc/WritingAHandler.md"
        for (name, marker, start) in [
            ("harness", "HandlerHarness(handler: HealthAndTag())", "let harness"),
            ("contract", "HandlerContract.violations", "#expect"),
        ] {
            let block = try ReadmeBlocks.block(containing: marker, from: start, in: article)
            #expect(!block.isEmpty, "\(name)")
            #expect(
                ReadmeBlocks.compact(block) == ReadmeBlocks.compact(try ReadmeBlocks.marked(name, in: #filePath)),
                "\(name)"
            )
        }
    }

    @Test("the example is the README's code")
    func handlerMatchesReadme() throws {
        let readme = try ReadmeBlocks.block(containing: "struct HealthAndTag", from: "  /// Answers")
        #expect(!readme.isEmpty)
        #expect(ReadmeBlocks.compact(readme) == ReadmeBlocks.compact(try ReadmeBlocks.marked("handler", in: #filePath)))
    }
}
