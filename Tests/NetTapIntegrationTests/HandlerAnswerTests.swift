import Foundation
import NetTapCore
import NetTapTestSupport
import NetTapTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Answers requests whose path starts with `/answer` itself, with `respond`; passes every other request on to
/// the network.
private struct Answer: TransactionHandler {
    let name = "answer"
    let respond: @Sendable (URLRequest, TransactionContext) async throws -> HandlerResponse

    func handle(_ request: URLRequest, context: TransactionContext, next: Next) async throws -> HandlerResponse {
        guard request.url?.path.hasPrefix("/answer") == true else { return try await next(request) }
        context.answer(by: name)
        return try await respond(request, context)
    }
}

/// Events reported by test handlers (`"cancelled"`, `"answered"`), awaited without sleeping.
private final class Events: Sendable {
    private let stream: AsyncStream<String>
    private let continuation: AsyncStream<String>.Continuation
    private let seen = Locked<[String]>([])

    init() {
        (stream, continuation) = AsyncStream.makeStream(of: String.self)
    }

    func report(_ event: String) {
        seen.withLock { $0.append(event) }
        continuation.yield(event)
    }

    var all: [String] { seen.current }

    /// Waits (at most 60 s) until `event` was reported; `false` when it was not.
    func wait(for event: String) async -> Bool {
        if seen.current.contains(event) { return true }
        let found = await withDeadline(.seconds(60)) { [stream] in
            for await reported in stream where reported == event { return true }
            return false
        }
        return found ?? seen.current.contains(event)
    }
}

@Suite("Answers made by handlers reach the app like network answers")
struct HandlerAnswerTests {
    private static func configuration(_ change: (URLSessionConfiguration) -> Void = { _ in }) -> URLSessionConfiguration
    {
        let configuration = URLSessionConfiguration.default
        // A fresh in-memory jar per test.
        configuration.httpCookieStorage = URLSessionConfiguration.ephemeral.httpCookieStorage
        change(configuration)
        return configuration
    }

    private static func cookieNames(_ storage: HTTPCookieStorage?) -> [String] {
        (storage?.cookies ?? []).map { "\($0.name)=\($0.value)" }.sorted()
    }

    // MARK: - Cookies

    @Test(
        "every Set-Cookie line of a handler's answer lands in the session's jar and goes to the server next",
        arguments: CallerStyle.allCases
    )
    func cookiesLand(style: CallerStyle) async throws {
        let server = try await HTTPBin.shared()
        let interceptor = NetTapInterceptor()
        interceptor.handlers = [
            Answer { _, _ in
                var headers: HeaderFields = ["Content-Type": "text/plain"]
                headers.add(name: "Set-Cookie", value: "first=1; Path=/")
                headers.add(name: "Set-Cookie", value: "second=2; Path=/; Expires=Wed, 21 Oct 2099 07:28:00 GMT")
                headers.add(name: "set-cookie", value: "third=3; Path=/")
                return HandlerResponse(statusCode: 200, headers: headers, body: .string("ok"))
            }
        ]
        let configuration = Self.configuration()
        let caller = CallRecorder(interceptor: interceptor, configuration: configuration)
        let answered = await caller.send(URLRequest(url: server.url("/answer/login")), style: style)
        #expect(answered.error == nil)
        #expect(answered.response?.statusCode == 200)
        #expect(Self.cookieNames(configuration.httpCookieStorage) == ["first=1", "second=2", "third=3"])
        let echoed = await caller.send(URLRequest(url: server.url("/cookies")), style: style)
        let json = try #require(try JSONSerialization.jsonObject(with: echoed.body) as? [String: Any])
        let cookies = try #require(json["cookies"] as? [String: String])
        #expect(cookies == ["first": "1", "second": "2", "third": "3"])
    }

    @Test(
        "cookie settings apply as the platform applies them to a real server's Set-Cookie",
        arguments: CallerStyle.allCases
    )
    func cookieSettings(style: CallerStyle) async throws {
        let server = try await HTTPBin.shared()
        let interceptor = NetTapInterceptor()
        interceptor.handlers = [
            Answer { _, _ in HandlerResponse(statusCode: 200, headers: ["Set-Cookie": "flavour=oat; Path=/"]) }
        ]
        let variants: [(String, (URLSessionConfiguration) -> Void)] = [
            ("httpShouldSetCookies = false", { $0.httpShouldSetCookies = false }),
            ("accept policy never", { $0.httpCookieAcceptPolicy = .never }),
            ("accept policy always", { $0.httpCookieAcceptPolicy = .always }),
        ]
        for (name, change) in variants {
            let direct = Self.configuration(change)
            _ = await CallRecorder(interceptor: nil, configuration: direct)
                .send(
                    URLRequest(url: server.url("/response-headers?Set-Cookie=flavour%3Doat%3B%20Path%3D%2F")),
                    style: style
                )
            let nettap = Self.configuration(change)
            _ = await CallRecorder(interceptor: interceptor, configuration: nettap)
                .send(URLRequest(url: server.url("/answer/cookie")), style: style)
            #expect(
                Self.cookieNames(nettap.httpCookieStorage) == Self.cookieNames(direct.httpCookieStorage),
                "\(name): direct stored \(Self.cookieNames(direct.httpCookieStorage))"
            )
        }
    }

    /// The handler empties the jar after the forwarding session stored the network's cookie: a second store by
    /// NetTap would put it back.
    @Test(
        "a network answer through a handler is stored by the forwarding session only",
        arguments: CallerStyle.allCases
    )
    func networkCookiesStoredOnce(style: CallerStyle) async throws {
        let server = try await HTTPBin.shared()
        let configuration = Self.configuration()
        let storage = try #require(configuration.httpCookieStorage)
        let interceptor = NetTapInterceptor()
        let storedByNetwork = Locked<[String]>([])
        interceptor.handlers = [EmptyJarAfterNetwork(storage: storage, storedByNetwork: storedByNetwork)]
        let caller = CallRecorder(interceptor: interceptor, configuration: configuration)
        let url = server.url("/response-headers?Set-Cookie=net%3D1%3B%20Path%3D%2F")
        let outcome = await caller.send(URLRequest(url: url), style: style)
        #expect(outcome.response?.statusCode == 200)
        #expect(storedByNetwork.current == ["net=1"], "the forwarding session stored it")
        #expect(Self.cookieNames(storage) == [], "NetTap did not store it again")
    }

    // MARK: - Timeouts

    @Test(
        "a handler slower than the request timeout fails with the platform's own timeout error, on the test clock",
        arguments: CallerStyle.allCases
    )
    func timeoutBeforeHead(style: CallerStyle) async throws {
        let server = try await HTTPBin.shared()
        let real = try #require(try await platformTimeouts.value[style])
        let interceptor = NetTapInterceptor()
        let clock = ManualClock()
        interceptor.clock = clock
        let events = Events()
        interceptor.handlers = [
            Answer { _, context in
                do {
                    try await context.clock.sleep(for: .seconds(120))
                } catch {
                    events.report("cancelled")
                    throw error
                }
                return HandlerResponse(statusCode: 200, body: .string("late"))
            }
        ]
        let caller = CallRecorder(interceptor: interceptor)
        var request = URLRequest(url: server.url("/answer/slow"))
        request.timeoutInterval = 5
        let call = caller.start(request, style: style)
        await clock.waitForSleepers(count: 2)  // the handler and the request's timeout
        clock.advance(by: .seconds(4))
        #expect(clock.sleeperCount == 2, "nothing fires before 5 s")
        clock.advance(by: .seconds(1))
        let outcome = await call.value
        #expect(outcome.nsError?.domain == real.nsError?.domain)
        #expect(outcome.nsError?.code == URLError.Code.timedOut.rawValue)
        #expect(outcome.error is URLError)
        #expect(outcome.errorKeys == real.errorKeys)
        #expect(outcome.nsError?.localizedDescription == real.nsError?.localizedDescription)
        #expect(await events.wait(for: "cancelled"), "the handler's task was cancelled")
        #expect(clock.sleeperCount == 0)
        let transaction = await interceptor.captureLog.waitForFinished { _ in true }
        #expect(transaction.state == .failed)
        #expect(transaction.error?.code == URLError.Code.timedOut.rawValue)
    }

    /// Waits (at most 30 s) until a task sleeps on `clock` until `deadline`; `false` when none did.
    private static func sleeper(on clock: ManualClock, at deadline: ManualClock.Instant) async -> Bool {
        await withDeadline(.seconds(30)) {
            await clock.waitForSleeper(until: deadline)
            return true
        } ?? false
    }

    @Test(
        "a paced body that stalls longer than the timeout fails with -1001 after the chunks already sent",
        arguments: CallerStyle.allCases
    )
    func timeoutBetweenChunks(style: CallerStyle) async throws {
        let server = try await HTTPBin.shared()
        let interceptor = NetTapInterceptor()
        let clock = ManualClock()
        interceptor.clock = clock
        let events = Events()
        interceptor.handlers = [
            Answer { _, context in
                // The body's own channel (a package type), so the test sees when NetTap has taken each chunk:
                // the relay acknowledges a chunk after the chunk passed the idle timer and reached the app's
                // task. The test clock stands still while NetTap works, so the test advances it only then.
                // (Advancing as soon as "second" was written once let the chunks reach the idle timer after
                // the clock had passed their deadline, under a sanitizer's slowness, and the timeout fired.)
                let channel = BodyChannel()
                let sentSecond = Locked(false)
                channel.setPressureHandler(highWater: 0, lowWater: 0) { isPaused in
                    // Every byte sent so far is acknowledged: both chunks passed the idle timer.
                    if !isPaused, sentSecond.current { events.report("second taken") }
                }
                let producer = Task {
                    channel.send(Data("first".utf8))
                    events.report("first")
                    do {
                        try await context.clock.sleep(for: .seconds(2))
                        sentSecond.withLock { $0 = true }
                        channel.send(Data("second".utf8))
                        events.report("second")
                        try await context.clock.sleep(for: .seconds(30))
                        channel.finish()
                    } catch {
                        events.report("cancelled")
                    }
                }
                channel.onCancel { producer.cancel() }
                return HandlerResponse(statusCode: 200, body: ResponseBody(channel: channel, expectedLength: nil))
            }
        ]
        let caller = CallRecorder(interceptor: interceptor)
        var request = URLRequest(url: server.url("/answer/stall"))
        request.timeoutInterval = 3
        let call = caller.start(request, style: style)
        let origin = clock.now
        #expect(await events.wait(for: "first"))
        // The producer's 2 s sleep and the idle timeout's 3 s: wait for exactly these, whichever comes first.
        #expect(await Self.sleeper(on: clock, at: origin.advanced(by: .seconds(2))))
        #expect(await Self.sleeper(on: clock, at: origin.advanced(by: .seconds(3))))
        clock.advance(by: .seconds(2))  // "second" comes 2 s after "first": the idle interval restarts
        #expect(await events.wait(for: "second"))
        if style == .delegate, let task = call.task {
            // The delegate sees the bytes themselves (its session acknowledges them to NetTap differently).
            let relayed = await withDeadline(.seconds(30)) {
                await caller.delegate.bytes(of: task, atLeast: 11)
                return true
            }
            #expect(relayed == true, "NetTap relayed both chunks")
        } else {
            #expect(await events.wait(for: "second taken"), "NetTap relayed both chunks")
        }
        #expect(await Self.sleeper(on: clock, at: origin.advanced(by: .seconds(32))))  // the producer's 30 s
        clock.advance(by: .seconds(2))  // 4 s since the head, 2 s since "second": still in time
        // The timeout wakes at its first deadline (3 s), sees the restart, and sleeps until 3 s after "second".
        #expect(await Self.sleeper(on: clock, at: origin.advanced(by: .seconds(5))))
        #expect(!events.all.contains("cancelled"))
        clock.advance(by: .seconds(1))
        let outcome = await call.value
        #expect(outcome.nsError?.code == URLError.Code.timedOut.rawValue)
        #expect(outcome.errorKeys == [])
        if style == .delegate {
            #expect(outcome.body == Data("firstsecond".utf8))
            #expect(outcome.response?.statusCode == 200)
        }
        #expect(await events.wait(for: "cancelled"), "the body's producer was cancelled")
    }

    @Test(
        "the session's timeout applies unless the request's timeoutInterval was assigned, as the platform decides",
        arguments: CallerStyle.allCases
    )
    func sessionTimeout(style: CallerStyle) async throws {
        let server = try await HTTPBin.shared()
        let interceptor = NetTapInterceptor()
        let clock = ManualClock()
        interceptor.clock = clock
        interceptor.handlers = [
            Answer { _, context in
                try await context.clock.sleep(for: .seconds(2))
                return HandlerResponse(statusCode: 200, body: .string("in time"))
            }
        ]
        let caller = CallRecorder(
            interceptor: interceptor,
            configuration: Self.configuration { $0.timeoutIntervalForRequest = 3 }
        )
        // The initializer's timeoutInterval does not count as assigned on swift-corelibs-foundation: 3 s apply.
        let initialized = URLRequest(url: server.url("/answer/a"), timeoutInterval: 1)
        let first = caller.start(initialized, style: style)
        await clock.waitForSleepers(count: 2)
        clock.advance(by: .seconds(2))
        let inTime = await first.value
        #if canImport(FoundationNetworking)
        #expect(inTime.error == nil, "\(inTime)")
        #expect(inTime.body == Data("in time".utf8))
        #endif
        var assigned = URLRequest(url: server.url("/answer/b"))
        assigned.timeoutInterval = 1
        let second = caller.start(assigned, style: style)
        let start = clock.now
        // The assigned 1 s, not the session's 3 s: advance to exactly 1 s, where only the timeout is due (past
        // the handler's 2 s as well, the two would race and the answer could win).
        #expect(await Self.sleeper(on: clock, at: start.advanced(by: .seconds(1))), "the request's timeout")
        #expect(await Self.sleeper(on: clock, at: start.advanced(by: .seconds(2))), "the handler's 2 s")
        clock.advance(by: .seconds(1))
        let late = await second.value
        #expect(late.nsError?.code == URLError.Code.timedOut.rawValue)
    }

    @Test(
        "in real time, a 1 s timeout on a slow handler fails like a 1 s timeout on a slow server",
        arguments: CallerStyle.allCases
    )
    func realTimeTimeout(style: CallerStyle) async throws {
        let server = try await HTTPBin.shared()
        let interceptor = NetTapInterceptor()
        interceptor.handlers = [
            Answer { _, context in
                try await context.clock.sleep(for: .seconds(60))
                return HandlerResponse(statusCode: 200)
            }
        ]
        var request = URLRequest(url: server.url("/answer/slow"))
        request.timeoutInterval = 1
        let start = ContinuousClock.now
        let outcome = await CallRecorder(interceptor: interceptor).send(request, style: style)
        let elapsed = ContinuousClock.now - start
        let real = try #require(try await platformTimeouts.value[style])
        #expect(real.nsError?.code == URLError.Code.timedOut.rawValue)
        #expect(outcome.nsError?.domain == real.nsError?.domain)
        #expect(outcome.nsError?.code == real.nsError?.code)
        #expect(outcome.errorKeys == real.errorKeys)
        #expect(outcome.nsError?.localizedDescription == real.nsError?.localizedDescription)
        // The timeout fired, not the handler's 60 s answer (a generous bound: the machine may be loaded).
        #expect(elapsed >= .milliseconds(900) && elapsed < .seconds(120), "took \(elapsed)")
    }

    // MARK: - Cancellation

    @Test(
        "cancelling while a handler sleeps cancels its task; the app gets one -999 and nothing else",
        arguments: CallerStyle.allCases
    )
    func cancelDuringLatency(style: CallerStyle) async throws {
        let server = try await HTTPBin.shared()
        let interceptor = NetTapInterceptor()
        let clock = ManualClock()
        interceptor.clock = clock
        let events = Events()
        interceptor.handlers = [
            Answer { _, context in
                do {
                    try await context.clock.sleep(for: .seconds(10))
                } catch {
                    events.report("cancelled")
                    throw error
                }
                return HandlerResponse(statusCode: 200, body: .string("late"))
            }
        ]
        let caller = CallRecorder(interceptor: interceptor)
        let call = caller.start(URLRequest(url: server.url("/answer/latency")), style: style)
        await clock.waitForSleepers(count: 2)
        call.cancel()
        #expect(await events.wait(for: "cancelled"))
        let outcome = await call.value
        #expect(outcome.nsError?.code == URLError.Code.cancelled.rawValue)
        #expect(outcome.response == nil)
        #expect(outcome.body.isEmpty)
        clock.advance(by: .seconds(60))
        // A later request on the same sessions and queues: anything late for the first would come before its end.
        _ = await caller.send(URLRequest(url: server.url("/get")), style: style)
        #expect(call.completionCount == 1)
        if let task = call.task, style == .delegate {
            #expect(caller.delegate.callbacks(of: task) == [.complete(URLError.Code.cancelled.rawValue)])
        }
        #expect(clock.sleeperCount == 0)
    }

    @Test("cancelling during a paced body cancels its producer; no data after the cancel, one -999")
    func cancelDuringPacedBody() async throws {
        let server = try await HTTPBin.shared()
        let interceptor = NetTapInterceptor()
        let clock = ManualClock()
        interceptor.clock = clock
        let events = Events()
        interceptor.handlers = [
            Answer { _, context in
                let body = ResponseBody.stream(expectedLength: nil) { writer in
                    let producer = Task {
                        do {
                            for index in 0..<100 {
                                writer.write(Data("chunk \(index);".utf8))
                                try await context.clock.sleep(for: .milliseconds(100))
                            }
                            writer.finish()
                        } catch {
                            events.report("cancelled")
                        }
                    }
                    writer.onCancel { producer.cancel() }
                }
                return HandlerResponse(statusCode: 200, body: body)
            }
        ]
        let caller = CallRecorder(interceptor: interceptor)
        let call = caller.start(URLRequest(url: server.url("/answer/paced")), style: .delegate)
        let task = try #require(call.task)
        await caller.delegate.firstChunk(of: task)
        call.cancel()
        #expect(await events.wait(for: "cancelled"), "the producer's task was cancelled")
        let outcome = await call.value
        #expect(outcome.nsError?.code == URLError.Code.cancelled.rawValue)
        clock.advance(by: .seconds(60))
        _ = await caller.send(URLRequest(url: server.url("/get")), style: .delegate)
        let callbacks = caller.delegate.callbacks(of: task)
        #expect(callbacks.first == .response(200))
        #expect(callbacks.last == .complete(URLError.Code.cancelled.rawValue))
        #expect(callbacks.filter { if case .complete = $0 { true } else { false } }.count == 1)
        #expect(callbacks.count == 3, "response, one chunk, complete: \(callbacks)")
        let transaction = await interceptor.captureLog.waitForFinished { $0.request.url.path == "/answer/paced" }
        #expect(transaction.state == .cancelled)
    }

    // MARK: - Errors

    @Test(
        "a URLError a handler throws reaches the app with its code and the failing-URL keys",
        arguments: [
            URLError.Code.notConnectedToInternet, .cannotFindHost, .cannotConnectToHost, .networkConnectionLost,
            .cancelled,
        ]
    )
    func thrownErrors(code: URLError.Code) async throws {
        let server = try await HTTPBin.shared()
        let interceptor = NetTapInterceptor()
        interceptor.handlers = [Answer { _, _ in throw URLError(code) }]
        let caller = CallRecorder(interceptor: interceptor)
        let url = server.url("/answer/fail?x=1")
        for style in CallerStyle.allCases {
            let outcome = await caller.send(URLRequest(url: url), style: style)
            let error = try #require(outcome.nsError, "\(style)")
            #expect(outcome.error is URLError, "\(style)")
            #expect(error.domain == NSURLErrorDomain, "\(style)")
            #expect(error.code == code.rawValue, "\(style)")
            #expect(error.userInfo[NSURLErrorFailingURLErrorKey] as? URL == url, "\(style)")
            #expect(error.userInfo["NSErrorFailingURLStringKey"] as? String == url.absoluteString, "\(style)")
        }
    }

    @Test(
        "a handler's cannotConnectToHost carries the failing-URL keys a refused loopback connection carries",
        arguments: CallerStyle.allCases
    )
    func refusedConnectionKeys(style: CallerStyle) async throws {
        let port = try HTTPBin.unusedPort()
        let url = try #require(URL(string: "http://127.0.0.1:\(port)/answer/refused"))
        let direct = await CallRecorder(interceptor: nil).send(URLRequest(url: url), style: style)
        let interceptor = NetTapInterceptor()
        interceptor.handlers = [Answer { _, _ in throw URLError(.cannotConnectToHost) }]
        let answered = await CallRecorder(interceptor: interceptor).send(URLRequest(url: url), style: style)
        let real = try #require(direct.nsError)
        let simulated = try #require(answered.nsError)
        #expect(simulated.domain == real.domain)
        #expect(simulated.code == real.code)
        for key in [NSURLErrorFailingURLErrorKey, "NSErrorFailingURLStringKey"] {
            #expect(real.userInfo[key] != nil, "the platform sets \(key)")
            #expect("\(simulated.userInfo[key] ?? "-")" == "\(real.userInfo[key] ?? "+")", "\(key)")
        }
    }

    @Test("a handler's timedOut stays as bare as the platform's timeout", arguments: CallerStyle.allCases)
    func thrownTimeout(style: CallerStyle) async throws {
        let server = try await HTTPBin.shared()
        let interceptor = NetTapInterceptor()
        interceptor.handlers = [Answer { _, _ in throw URLError(.timedOut) }]
        let outcome = await CallRecorder(interceptor: interceptor).send(
            URLRequest(url: server.url("/answer/t")),
            style: style
        )
        let real = try #require(try await platformTimeouts.value[style])
        #expect(outcome.nsError?.code == URLError.Code.timedOut.rawValue)
        #expect(outcome.errorKeys == real.errorKeys)
    }

    // MARK: - Bodies and lengths

    @Test("HEAD, 204 and 304 answers deliver no body even when the handler gave one", arguments: CallerStyle.allCases)
    func bodilessAnswers(style: CallerStyle) async throws {
        let server = try await HTTPBin.shared()
        let interceptor = NetTapInterceptor()
        interceptor.handlers = [
            Answer { request, _ in
                let status = Int(request.url?.lastPathComponent ?? "") ?? 200
                return HandlerResponse(
                    statusCode: status,
                    headers: ["Content-Length": "13", "ETag": "\"v1\""],
                    body: .string("must not come")
                )
            }
        ]
        let caller = CallRecorder(interceptor: interceptor)
        let cases: [(method: String, path: String, status: Int)] = [
            ("HEAD", "/answer/200", 200), ("GET", "/answer/204", 204), ("GET", "/answer/304", 304),
        ]
        for (method, path, status) in cases {
            var request = URLRequest(url: server.url(path))
            request.httpMethod = method
            let outcome = await caller.send(request, style: style)
            #expect(outcome.error == nil, "\(method) \(path): \(outcome)")
            #expect(outcome.response?.statusCode == status)
            #expect(outcome.body.isEmpty, "\(method) \(path): \(outcome.body.count) bytes")
            #expect(outcome.chunkCount == 0)
            #expect(outcome.response?.expectedContentLength == 13, "Content-Length still describes the resource")
            let transaction = await interceptor.captureLog.waitForFinished {
                $0.request.url.path == path && $0.request.method == method
            }
            #expect(transaction.response?.body?.totalByteCount == 0)
            #expect(transaction.annotations["body"]?.contains("no content") == true)
        }
    }

    @Test(
        "expectedContentLength of a handler's answer equals that of a server sending the same headers",
        arguments: CallerStyle.allCases
    )
    func expectedContentLength(style: CallerStyle) async throws {
        let server = try await HTTPBin.shared()
        let direct = CallRecorder(interceptor: nil)
        for path in ["/bytes/64?seed=3", "/stream-bytes/64?seed=3&chunk_size=16"] {
            let real = await direct.send(URLRequest(url: server.url(path)), style: style)
            let response = try #require(real.response)
            let interceptor = NetTapInterceptor()
            let body = real.body
            interceptor.handlers = [
                Answer { _, _ in
                    HandlerResponse(
                        statusCode: response.statusCode,
                        headers: HeaderFields(response.allHeaderFields),
                        body: .data(body)
                    )
                }
            ]
            let answered = await CallRecorder(interceptor: interceptor).send(
                URLRequest(url: server.url("/answer/same")),
                style: style
            )
            #expect(answered.response?.expectedContentLength == response.expectedContentLength, "\(path)")
            #expect(answered.body == real.body)
        }
    }

    @Test(
        "a handler's answer is framed from its real body: Content-Length as a server sends it, none when streamed",
        arguments: CallerStyle.allCases
    )
    func framing(style: CallerStyle) async throws {
        let server = try await HTTPBin.shared()
        let direct = CallRecorder(interceptor: nil)
        // httpbin frames a body it has whole with Content-Length, and a stream in chunks.
        let sized = await direct.send(URLRequest(url: server.url("/bytes/64?seed=3")), style: style)
        let streamed = await direct.send(
            URLRequest(url: server.url("/stream-bytes/64?seed=3&chunk_size=16")),
            style: style
        )
        let interceptor = NetTapInterceptor()
        let body = sized.body
        interceptor.handlers = [
            Answer { request, _ in
                switch request.url?.lastPathComponent {
                case "sized": return HandlerResponse(statusCode: 200, body: .data(body))
                case "head": return HandlerResponse(statusCode: 200, body: .string("hello"))
                default:
                    let chunks = ResponseBody.stream(expectedLength: nil) { writer in
                        for start in stride(from: 0, to: body.count, by: 16) {
                            writer.write(body.subdata(in: start..<min(body.count, start + 16)))
                        }
                        writer.finish()
                    }
                    return HandlerResponse(statusCode: 200, body: chunks)
                }
            }
        ]
        let caller = CallRecorder(interceptor: interceptor)
        let answered = await caller.send(URLRequest(url: server.url("/answer/sized")), style: style)
        #expect(answered.body == body)
        #expect(answered.response?.expectedContentLength == sized.response?.expectedContentLength)
        #expect(answered.response?.value(forHTTPHeaderField: "Content-Length") == "64")
        let stream = await caller.send(URLRequest(url: server.url("/answer/stream")), style: style)
        #expect(stream.body == body)
        #expect(stream.response?.expectedContentLength == streamed.response?.expectedContentLength)
        #expect(stream.response?.expectedContentLength == -1, "unknown length: none, as from a chunked server")
        #expect(stream.response?.value(forHTTPHeaderField: "Content-Length") == nil)
        var head = URLRequest(url: server.url("/answer/head"))
        head.httpMethod = "HEAD"
        let headAnswer = await caller.send(head, style: style)
        #expect(headAnswer.response?.value(forHTTPHeaderField: "Content-Length") == nil, "never for HEAD")
        #expect(headAnswer.body.isEmpty)
    }
}

/// Passes the request to the network, notes what the forwarding session stored, then empties the jar.
private struct EmptyJarAfterNetwork: TransactionHandler {
    let name = "empty-jar"
    let storage: HTTPCookieStorage
    let storedByNetwork: Locked<[String]>

    func handle(_ request: URLRequest, context: TransactionContext, next: Next) async throws -> HandlerResponse {
        let response = try await next(request)
        let cookies = storage.cookies ?? []
        storedByNetwork.withLock { $0 = cookies.map { "\($0.name)=\($0.value)" } }
        for cookie in cookies { storage.deleteCookie(cookie) }
        return response
    }
}
