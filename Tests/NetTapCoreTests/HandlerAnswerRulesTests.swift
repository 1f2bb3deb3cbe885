import Foundation
import NetTapTesting
import Testing

@testable import NetTapCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("The rules that make handler answers look like network answers")
struct HandlerAnswerRulesTests {
    private let url = URL(string: "http://stub.invalid/path?q=1")

    @Test("the request's timeout counts only when assigned, truncated to whole seconds")
    func timeoutInterval() throws {
        let url = try #require(url)
        var assigned = URLRequest(url: url)
        assigned.timeoutInterval = 2.9
        #expect(RequestTimeout.interval(for: assigned, sessionTimeout: 7) == .seconds(2))
        var subSecond = URLRequest(url: url)
        subSecond.timeoutInterval = 0.5
        #expect(RequestTimeout.interval(for: subSecond, sessionTimeout: 7) == .zero)
        #expect(RequestTimeout.interval(for: URLRequest(url: url), sessionTimeout: 7) == .seconds(7))
        #expect(RequestTimeout.interval(for: URLRequest(url: url), sessionTimeout: .infinity) == nil)
        #if canImport(FoundationNetworking)
        #expect(RequestTimeout.flagLayoutIsKnown, "URLRequest's layout changed: the timeout flag is read elsewhere")
        #expect(
            RequestTimeout.interval(for: URLRequest(url: url, timeoutInterval: 1), sessionTimeout: 7) == .seconds(7)
        )
        #endif
    }

    @Test("thrown URLErrors get the failing-URL keys, timeouts stay bare, CancellationError becomes -999")
    func appErrors() throws {
        let url = try #require(url)
        let refused = HandlerAnswers.appError(URLError(.cannotConnectToHost), requestURL: url) as NSError
        #expect(refused.code == URLError.Code.cannotConnectToHost.rawValue)
        #expect(refused.userInfo[NSURLErrorFailingURLErrorKey] as? URL == url)
        #expect(refused.userInfo["NSErrorFailingURLStringKey"] as? String == url.absoluteString)
        // A bare URLError is worded as the platform words the real failure, with its underlying error.
        #expect(refused.localizedDescription == SimulatedFailure.wording(for: .cannotConnectToHost, url: url))
        #expect((refused.userInfo[NSUnderlyingErrorKey] as? NSError)?.code == refused.code)
        let described =
            HandlerAnswers.appError(
                URLError(
                    .cannotConnectToHost,
                    userInfo: [NSLocalizedDescriptionKey: "the handler's words", "extra": 1]
                ),
                requestURL: url
            ) as NSError
        #expect(described.localizedDescription == "the handler's words", "a handler's own description is kept")
        #expect(described.userInfo[NSUnderlyingErrorKey] == nil)
        #expect(described.userInfo["extra"] as? Int == 1)
        let keysOnly = HandlerAnswers.appError(URLError(.cannotFindHost, userInfo: ["extra": 1]), requestURL: url)
        #expect((keysOnly as NSError).userInfo["extra"] as? Int == 1, "the handler's keys are kept beside the words")
        #expect(
            (keysOnly as NSError).localizedDescription == SimulatedFailure.wording(for: .cannotFindHost, url: url)
        )
        let other = try #require(URL(string: "http://other.invalid/"))
        let kept = HandlerAnswers.appError(
            URLError(.badURL, userInfo: [NSURLErrorFailingURLErrorKey: other]),
            requestURL: url
        )
        #expect((kept as NSError).userInfo["NSErrorFailingURLStringKey"] as? String == other.absoluteString)
        let timeout = HandlerAnswers.appError(URLError(.timedOut), requestURL: url) as NSError
        #expect(timeout.userInfo.isEmpty)
        let cancelled = HandlerAnswers.appError(CancellationError(), requestURL: url)
        #expect((cancelled as? URLError)?.code == .cancelled)
        let bridged = HandlerAnswers.appError(
            NSError(domain: NSURLErrorDomain, code: NSURLErrorNetworkConnectionLost),
            requestURL: url
        )
        #expect((bridged as? URLError)?.code == .networkConnectionLost)
    }

    @Test("HEAD, 1xx, 204 and 304 have no content; other answers keep theirs")
    func noContent() {
        #expect(HandlerAnswers.hasNoContent(statusCode: 200, method: "head"))
        #expect(HandlerAnswers.hasNoContent(statusCode: 204, method: "GET"))
        #expect(HandlerAnswers.hasNoContent(statusCode: 304, method: "GET"))
        #expect(HandlerAnswers.hasNoContent(statusCode: 103, method: "GET"))
        #expect(!HandlerAnswers.hasNoContent(statusCode: 200, method: "GET"))
        #expect(!HandlerAnswers.hasNoContent(statusCode: 205, method: "POST"))
    }

    @Test("the idle timeout fires once after the interval with no touch, and a stop before that wins")
    func idleTimeout() async {
        let clock = ManualClock()
        let (fired, continuation) = AsyncStream.makeStream(of: Void.self)
        let timeout = IdleTimeout.start(after: .seconds(3), on: clock) { continuation.yield() }
        await clock.waitForSleepers(count: 1)
        clock.advance(by: .seconds(2))
        timeout.touch()
        clock.advance(by: .seconds(2))  // 4 s since the start, 2 s since the touch
        await clock.waitForSleepers(count: 1)  // asleep again until 5 s
        clock.advance(by: .seconds(1))
        for await _ in fired { break }
        #expect(!timeout.stop(), "it had fired")
        #expect(clock.sleeperCount == 0)

        let stopped = IdleTimeout.start(after: .seconds(3), on: clock) { Issue.record("fired after stop") }
        await clock.waitForSleepers(count: 1)
        #expect(stopped.stop())
        #expect(clock.sleeperCount == 0)
        clock.advance(by: .seconds(10))
    }

    @Test("a body of known length gets Content-Length; unknown, given, chunked, no-content and forwarded ones do not")
    func framing() throws {
        let known = HandlerAnswers.framed(HandlerResponse(statusCode: 200, body: .string("hello")), method: "GET")
        #expect(known.headers["Content-Length"] == "5")
        let empty = HandlerAnswers.framed(HandlerResponse(statusCode: 200, body: .empty), method: "POST")
        #expect(empty.headers["Content-Length"] == "0")
        let streamed = ResponseBody.stream(expectedLength: nil) { $0.finish() }
        let unknown = HandlerAnswers.framed(HandlerResponse(statusCode: 200, body: streamed), method: "GET")
        #expect(!unknown.headers.contains(name: "Content-Length"), "unknown length: none, as a chunked body")
        let given = HandlerAnswers.framed(
            HandlerResponse(statusCode: 200, headers: ["content-length": "9"], body: .string("hello")),
            method: "GET"
        )
        #expect(given.headers.values(for: "Content-Length") == ["9"], "a length the handler gave is kept")
        let chunked = HandlerAnswers.framed(
            HandlerResponse(statusCode: 200, headers: ["Transfer-Encoding": "chunked"], body: .string("hello")),
            method: "GET"
        )
        #expect(!chunked.headers.contains(name: "Content-Length"), "never beside Transfer-Encoding (RFC 9112 §6.2)")
        for (status, method) in [(200, "HEAD"), (204, "GET"), (304, "GET"), (101, "GET")] {
            let answer = HandlerAnswers.framed(HandlerResponse(statusCode: status, body: .empty), method: method)
            #expect(!answer.headers.contains(name: "Content-Length"), "\(status) \(method)")
        }
        let url = try #require(url)
        let platform = try #require(HTTPURLResponse(url: url, statusCode: 200, httpVersion: nil, headerFields: [:]))
        var forwarded = HandlerResponse(statusCode: 200, body: .string("hello"))
        forwarded.origin = (platform, 200, [:], nil)
        #expect(!HandlerAnswers.framed(forwarded, method: "GET").headers.contains(name: "Content-Length"))
    }
}

@Suite("Simulated network failures: one table, worded as the platform words the real ones")
struct SimulatedFailureTests {
    private let url = URL(string: "http://api.example.test:8080/v1/items?page=2")

    @Test(
        "a worded failure has the description, an underlying error of the same code and both failing-URL keys",
        arguments: [
            URLError.Code.notConnectedToInternet, .cannotFindHost, .cannotConnectToHost, .networkConnectionLost,
            .badServerResponse,
        ]
    )
    func worded(code: URLError.Code) throws {
        let url = try #require(url)
        let error = SimulatedFailure.error(code, url: url, description: "ignored for a worded code")
        let wording = try #require(SimulatedFailure.wording(for: code, url: url))
        #expect(error.code == code)
        #expect(error.localizedDescription == wording)
        #expect(
            Set(error.userInfo.keys)
                == [
                    NSLocalizedDescriptionKey, NSUnderlyingErrorKey, NSURLErrorFailingURLErrorKey,
                    "NSErrorFailingURLStringKey",
                ]
        )
        #expect(error.userInfo[NSURLErrorFailingURLErrorKey] as? URL == url)
        #expect(error.userInfo["NSErrorFailingURLStringKey"] as? String == url.absoluteString)
        let underlying = try #require(error.userInfo[NSUnderlyingErrorKey] as? NSError)
        #expect(underlying.code == code.rawValue)
        #expect(underlying.localizedDescription == wording)
        #expect(underlying.userInfo.count == 1, "the underlying error has the description only")
    }

    #if canImport(FoundationNetworking)
    @Test("on FoundationNetworking the words are libcurl's, naming the host and port; a timeout is bare")
    func libcurlWords() throws {
        let url = try #require(url)
        #expect(SimulatedFailure.wording(for: .cannotFindHost, url: url) == "Could not resolve host: api.example.test")
        #expect(
            SimulatedFailure.wording(for: .cannotConnectToHost, url: url)
                == "Failed to connect to api.example.test port 8080 after 0 ms: Couldn't connect to server"
        )
        let https = try #require(URL(string: "https://secure.example.test/"))
        #expect(SimulatedFailure.wording(for: .cannotConnectToHost, url: https)?.contains("port 443") == true)
        #expect(SimulatedFailure.error(.timedOut, url: url).userInfo.isEmpty)
        #expect(SimulatedFailure.truncatedBody(remainingBytes: 600, url: url).code == .unknown)
    }
    #endif

    @Test("an unsupported URL is worded as Foundation's own check, without an underlying error")
    func unsupportedURL() throws {
        let url = try #require(url)
        let error = SimulatedFailure.error(.unsupportedURL, url: url)
        #expect(error.localizedDescription == "unsupported URL")
        #expect(error.userInfo[NSUnderlyingErrorKey] == nil)
        #expect(error.userInfo[NSURLErrorFailingURLErrorKey] as? URL == url)
    }

    #if canImport(FoundationNetworking)
    @Test("a replayed recording of an HTTP/0.9 answer keeps libcurl's words; another recorded message does not count")
    func replayedHTTP09() throws {
        let url = try #require(url)
        let words = "Received HTTP/0.9 when not allowed"
        let replayed = SimulatedFailure.replayedError(.unsupportedURL, url: url, recordedMessage: words)
        #expect(replayed.localizedDescription == words)
        #expect((replayed.userInfo[NSUnderlyingErrorKey] as? NSError)?.code == URLError.unsupportedURL.rawValue)
        let other = SimulatedFailure.replayedError(.unsupportedURL, url: url, recordedMessage: "something else")
        #expect(other.localizedDescription == "unsupported URL")
        let refused = SimulatedFailure.replayedError(.cannotConnectToHost, url: url, recordedMessage: words)
        #expect(refused.localizedDescription == SimulatedFailure.wording(for: .cannotConnectToHost, url: url))
    }
    #endif

    @Test("a cancel is worded \"cancelled\" with the URL keys and no underlying error")
    func cancelled() throws {
        let error = SimulatedFailure.error(.cancelled, url: url)
        #expect(error.localizedDescription == "cancelled")
        #expect(error.userInfo[NSUnderlyingErrorKey] == nil)
        #expect(error.userInfo[NSURLErrorFailingURLErrorKey] != nil)
    }

    @Test("a code the table does not word keeps the given description, and only the URL keys without one")
    func unworded() throws {
        let url = try #require(url)
        let explained = SimulatedFailure.error(.resourceUnavailable, url: url, description: "no stub matches")
        #expect(explained.localizedDescription == "no stub matches")
        #expect((explained.userInfo[NSUnderlyingErrorKey] as? NSError)?.localizedDescription == "no stub matches")
        let bare = SimulatedFailure.error(.secureConnectionFailed, url: url)
        #expect(Set(bare.userInfo.keys) == [NSURLErrorFailingURLErrorKey, "NSErrorFailingURLStringKey"])
    }

    @Test("a body cut short keeps why NetTap's own body ended early underneath, not in the description")
    func truncatedReason() {
        let error = SimulatedFailure.truncatedBody(remainingBytes: 10, url: nil, reason: "the file changed")
        let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError
        #expect(underlying?.localizedFailureReason == "the file changed")
        #expect(!error.localizedDescription.contains("file"))
        #expect(error.userInfo[NSURLErrorFailingURLErrorKey] == nil, "the interceptor adds the URL keys")
    }
}
