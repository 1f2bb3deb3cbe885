import Foundation
import NetTapTesting
import Testing

@testable import NetTapCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Answers every request itself: a fixed status and body, streamed in several chunks.
private struct ChunkedAnswer: TransactionHandler {
    let name = "chunked"
    let chunks: [String]

    func handle(_ request: URLRequest, context: TransactionContext, next: Next) async throws -> HandlerResponse {
        context.answer(by: name)
        let body = ResponseBody.stream(expectedLength: nil) { writer in
            for chunk in chunks { writer.write(Data(chunk.utf8)) }
            writer.finish()
        }
        return HandlerResponse(
            statusCode: 200,
            headers: ["Content-Type": "text/plain", "X-Answer": "chunked"],
            body: body
        )
    }
}

/// Answers with a streamed body and adds a finding only after the last chunk was written.
private struct FindingAfterBody: TransactionHandler {
    let name = "finder"

    func handle(_ request: URLRequest, context: TransactionContext, next: Next) async throws -> HandlerResponse {
        context.answer(by: name)
        let body = ResponseBody.stream(expectedLength: nil) { writer in
            writer.write(Data("whole body".utf8))
            context.addFinding(Finding(rule: "test.late", severity: .medium, location: "body", message: "Late."))
            writer.finish()
        }
        return HandlerResponse(statusCode: 200, body: body)
    }
}

/// Echoes the request body it receives.
private struct EchoBody: TransactionHandler {
    let name = "echo"
    func handle(_ request: URLRequest, context: TransactionContext, next: Next) async throws -> HandlerResponse {
        context.answer(by: name)
        return HandlerResponse(statusCode: 201, body: .data(request.httpBody ?? Data("<none>".utf8)))
    }
}

/// Redirects `/start` → `/middle` → `/end` (302, then 307), answers `/end`; `/loop` redirects to itself.
private struct RedirectingAnswer: TransactionHandler {
    let name = "redirects"
    func handle(_ request: URLRequest, context: TransactionContext, next: Next) async throws -> HandlerResponse {
        context.answer(by: name)
        switch request.url?.path {
        case "/start": return HandlerResponse(statusCode: 302, headers: ["Location": "/middle"])
        case "/middle": return HandlerResponse(statusCode: 307, headers: ["Location": "http://stub.invalid/end"])
        case "/loop": return HandlerResponse(statusCode: 301, headers: ["Location": "/loop"])
        default:
            let method = request.httpMethod ?? "GET"
            return HandlerResponse(statusCode: 200, body: .string("\(method) \(request.url?.path ?? "")"))
        }
    }
}

/// Adds a header on the way out, then answers with the header it saw.
private struct RewriteThenAnswer: TransactionHandler {
    let name = "rewrite"
    func handle(_ request: URLRequest, context: TransactionContext, next: Next) async throws -> HandlerResponse {
        var request = request
        request.setValue("rewritten", forHTTPHeaderField: "X-Rewrite")
        return try await next(request)
    }
}

/// Sleeps on the context clock before answering.
private struct SlowAnswer: TransactionHandler {
    let name = "slow"
    func handle(_ request: URLRequest, context: TransactionContext, next: Next) async throws -> HandlerResponse {
        try await context.clock.sleep(for: .seconds(60))
        context.answer(by: name)
        return HandlerResponse(statusCode: 200, body: .string("late"))
    }
}

/// Blocks in its first event until released, as a slow observer (disk, network) would.
private final class BlockingObserver: TransactionObserver, @unchecked Sendable {
    let release: DispatchSemaphore
    let entered = Locked(0)
    init(release: DispatchSemaphore) { self.release = release }
    func observe(_ event: TransactionEvent) {
        let first = entered.withLock { count -> Bool in
            count += 1
            return count == 1
        }
        if first { release.wait() }
    }
}

/// Collects what a delegate caller receives.
private final class CollectingDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var chunks: [Data] = []
    private var continuation: CheckedContinuation<([Data], (any Error)?), Never>?
    private var outcome: ([Data], (any Error)?)?
    let firstChunk = AsyncStream<Void>.makeStream()

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        lock.withLock { chunks.append(data) }
        firstChunk.continuation.yield()
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let waiting: CheckedContinuation<([Data], (any Error)?), Never>? = lock.withLock {
            outcome = (chunks, error)
            defer { continuation = nil }
            return continuation
        }
        waiting?.resume(returning: (chunks, error))
    }

    func result() async -> ([Data], (any Error)?) {
        await withCheckedContinuation { continuation in
            let ready: ([Data], (any Error)?)? = lock.withLock {
                if outcome == nil { self.continuation = continuation }
                return outcome
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}

@Suite("Interception through a real URLSession (no sockets)")
struct InterceptionTests {
    let url = URL(string: "http://stub.invalid/items")!

    @Test("async, completion-handler and delegate callers all get the whole body a handler streams")
    func everyCallerStyle() async throws {
        let interceptor = NetTapInterceptor()
        interceptor.handlers = [ChunkedAnswer(chunks: ["aaa", "bbb", "ccc"])]
        let session = interceptor.makeSession()

        let (data, response) = try await session.data(from: url)
        #expect(data == Data("aaabbbccc".utf8))
        #expect((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "X-Answer") == "chunked")

        let viaCompletion: Data? = await withCheckedContinuation { continuation in
            session.dataTask(with: url) { data, _, _ in continuation.resume(returning: data) }.resume()
        }
        #expect(viaCompletion == Data("aaabbbccc".utf8))

        let delegate = CollectingDelegate()
        let delegateSession = interceptor.makeSession(delegate: delegate)
        delegateSession.dataTask(with: url).resume()
        let (chunks, error) = await delegate.result()
        #expect(error == nil)
        #expect(chunks.reduce(Data(), +) == Data("aaabbbccc".utf8))
        #expect(chunks.count == 3, "a delegate caller gets the chunks as they come")

        let captured = interceptor.captureLog.transactions
        #expect(captured.count == 3)
        #expect(captured.allSatisfy { $0.answeredBy == "chunked" && $0.state == .completed })
        #expect(captured.allSatisfy { $0.response?.body?.data == Data("aaabbbccc".utf8) })
    }

    @Test("request bodies reach the pipeline whether set as data, stream or upload")
    func requestBodies() async throws {
        let interceptor = NetTapInterceptor()
        interceptor.handlers = [EchoBody()]
        let session = interceptor.makeSession()

        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.httpBody = Data("as-data".utf8)
        #expect(try await session.data(for: request).0 == Data("as-data".utf8))

        var streamed = URLRequest(url: url)
        streamed.httpMethod = "POST"
        streamed.httpBodyStream = InputStream(data: Data("as-stream".utf8))
        #expect(try await session.data(for: streamed).0 == Data("as-stream".utf8))

        var upload = URLRequest(url: url)
        upload.httpMethod = "PUT"
        #expect(try await session.upload(for: upload, from: Data("as-upload".utf8)).0 == Data("as-upload".utf8))

        let bodies = interceptor.captureLog.transactions.map { $0.request.body?.data }
        #expect(bodies == [Data("as-data".utf8), Data("as-stream".utf8), Data("as-upload".utf8)])
    }

    @Test("redirects answered by a handler are followed like network redirects, and recorded")
    func handlerRedirects() async throws {
        let interceptor = NetTapInterceptor()
        interceptor.handlers = [RedirectingAnswer()]
        let session = interceptor.makeSession()
        var request = URLRequest(url: URL(string: "http://stub.invalid/start")!)
        request.httpMethod = "POST"
        request.httpBody = Data("form".utf8)
        let (data, response) = try await session.data(for: request)
        #expect(String(decoding: data, as: UTF8.self) == "GET /end", "302 turns POST into GET; 307 keeps GET")
        #expect(response.url?.absoluteString == "http://stub.invalid/end")
        let transaction = try #require(interceptor.captureLog.transactions.first)
        #expect(transaction.redirects.map(\.statusCode) == [302, 307])
        #expect(transaction.request.url.path == "/start")
        #expect(transaction.response?.url.path == "/end")
    }

    @Test("the capture records the request as a handler rewrote it")
    func capturesRewrittenRequest() async throws {
        let interceptor = NetTapInterceptor()
        interceptor.handlers = [RewriteThenAnswer(), EchoBody()]
        let session = interceptor.makeSession()
        _ = try await session.data(from: url)
        let transaction = try #require(interceptor.captureLog.transactions.first)
        #expect(transaction.request.headers["X-Rewrite"] == "rewritten")
        #expect(transaction.answeredBy == "echo")
    }

    @Test("a finding added while the body streams is on the captured transaction")
    func capturesFindingsAddedDuringTheBody() async throws {
        let interceptor = NetTapInterceptor()
        interceptor.handlers = [FindingAfterBody()]
        let session = interceptor.makeSession()
        let (data, _) = try await session.data(from: url)
        #expect(data == Data("whole body".utf8))
        let finished = await interceptor.captureLog.waitForFinished { $0.state == .completed }
        #expect(finished.findings.map(\.rule) == ["test.late"])
        #expect(finished.findings.first?.severity == .medium)
    }

    @Test("a blocked observer never delays traffic", .timeLimit(.minutes(1)))
    func slowObserver() async throws {
        let interceptor = NetTapInterceptor()
        interceptor.handlers = [EchoBody()]
        let release = DispatchSemaphore(value: 0)
        let observer = BlockingObserver(release: release)
        interceptor.captureLog.addObserver(observer)
        defer { release.signal() }
        let session = interceptor.makeSession()
        for _ in 0..<5 {
            let (data, _) = try await session.data(from: url)
            #expect(data == Data("<none>".utf8))
        }
        #expect(interceptor.captureLog.transactions.count == 5)
        #expect(observer.entered.current == 1, "the observer is still stuck in its first event")
    }

    @Test("a redirect loop fails after 20 hops with httpTooManyRedirects")
    func redirectLoop() async throws {
        let interceptor = NetTapInterceptor()
        interceptor.handlers = [RedirectingAnswer()]
        let session = interceptor.makeSession()
        do {
            _ = try await session.data(from: URL(string: "http://stub.invalid/loop")!)
            Issue.record("expected a failure")
        } catch let error as URLError {
            #expect(error.code == .httpTooManyRedirects)
        }
        let transaction = await interceptor.captureLog.waitForFinished { _ in true }
        #expect(transaction.state == .failed)
        #expect(transaction.redirects.count == 21)
    }

    @Test("cancelling a task stops a waiting handler: the caller gets -999 and the capture says cancelled")
    func cancellation() async throws {
        let interceptor = NetTapInterceptor()
        let clock = ManualClock()
        interceptor.clock = clock
        interceptor.handlers = [SlowAnswer()]
        let delegate = CollectingDelegate()
        let session = interceptor.makeSession(delegate: delegate)
        let task = session.dataTask(with: url)
        task.resume()
        await clock.waitForSleepers(count: 1)
        task.cancel()
        let (chunks, error) = await delegate.result()
        #expect(chunks.isEmpty)
        #expect((error as? URLError)?.code == .cancelled)
        let transaction = await interceptor.captureLog.waitForFinished { _ in true }
        #expect(transaction.state == .cancelled)
        #expect(clock.sleeperCount == 0, "the handler's sleep was cancelled")
    }

    @Test("a disabled interceptor hands requests to the platform untouched")
    func disabledPassesThrough() async throws {
        let interceptor = NetTapInterceptor()
        interceptor.handlers = [EchoBody()]
        interceptor.isEnabled = false
        let session = interceptor.makeSession()
        // Port 9 (discard) on loopback is closed here: the platform's own error comes back.
        do {
            _ = try await session.data(from: URL(string: "http://127.0.0.1:9/")!)
            Issue.record("expected a connection failure")
        } catch let error as URLError {
            #expect(error.code == .cannotConnectToHost)
        }
        #expect(interceptor.captureLog.transactions.isEmpty)
    }

    @Test("download tasks pass through untouched and are captured as passthrough")
    func downloadPassthrough() async throws {
        let interceptor = NetTapInterceptor()
        interceptor.handlers = [EchoBody()]
        let session = interceptor.makeSession()
        let error: (any Error)? = await withCheckedContinuation { continuation in
            session.downloadTask(with: URL(string: "http://127.0.0.1:9/file")!) { _, _, error in
                continuation.resume(returning: error)
            }.resume()
        }
        #expect((error as? URLError)?.code == .cannotConnectToHost)
        let transaction = await interceptor.captureLog.waitForFinished { _ in true }
        #expect(transaction.answeredBy == CapturedTransaction.answeredByPassthrough)
        #expect(transaction.state == .failed)
    }
}
