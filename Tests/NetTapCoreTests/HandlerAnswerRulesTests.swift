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
}
