import Foundation
import NetTapCore
import NetTapTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Counts the requests it sees and forwards them.
private final class CountingHandler: TransactionHandler, Sendable {
    let name = "counting"
    let calls = Locked(0)

    func handle(_ request: URLRequest, context: TransactionContext, next: Next) async throws -> HandlerResponse {
        calls.withLock { $0 += 1 }
        return try await next(request)
    }
}

/// `127.0.0.1` and `localhost` are two hosts of the same local httpbin: the scope tells them apart by host
/// alone, so a denied host is compared with the same request sent directly.
@Suite("A denied host passes through untouched, for every caller style")
struct ScopeTests {
    /// The URL of `path` on the server, with `localhost` as its host.
    private func localhostURL(_ server: HTTPBin, _ pathAndQuery: String) throws -> URL {
        var components = try #require(URLComponents(url: server.url(pathAndQuery), resolvingAgainstBaseURL: false))
        components.host = "localhost"
        return try #require(components.url)
    }

    private func request(_ url: URL, testID: String) -> URLRequest {
        var request = URLRequest(url: url)
        request.setValue(testID, forHTTPHeaderField: HTTPBin.testIDHeader)
        return request
    }

    @Test(
        "a private interceptor's session: same answer as direct, no handler, no capture",
        arguments: CallerStyle.allCases
    )
    func privateInterceptor(style: CallerStyle) async throws {
        let server = try await HTTPBin.shared()
        let interceptor = NetTapInterceptor()
        let handler = CountingHandler()
        interceptor.handlers = [handler]
        interceptor.scope = try .parsing(denyHosts: ["localhost"])
        let testID = "scope-private-\(style.rawValue)-\(UUID().uuidString)"
        let denied = request(try localhostURL(server, "/anything/scope?style=\(style.rawValue)"), testID: testID)
        let allowed = request(server.url("/anything/scope?style=\(style.rawValue)"), testID: testID)

        let viaNetTap = await CallRecorder(interceptor: interceptor).send(denied, style: style)
        let direct = await CallRecorder(interceptor: nil).send(denied, style: style)
        let control = await CallRecorder(interceptor: interceptor).send(allowed, style: style)

        #expect(viaNetTap.error == nil)
        #expect(viaNetTap.response?.statusCode == 200)
        #expect(viaNetTap.response?.statusCode == direct.response?.statusCode)
        #expect(viaNetTap.body == direct.body)
        #expect(control.response?.statusCode == 200)
        #expect(handler.calls.current == 1)
        #expect(interceptor.captureLog.transactions.map(\.request.url) == [allowed.url])
        #expect(await server.waitForRequests(withTestID: testID, count: 3).count == 3)
    }

    @Test("NetTapInterceptor.shared's configuration: a denied host is not captured", arguments: CallerStyle.allCases)
    func sharedInterceptor(style: CallerStyle) async throws {
        let server = try await HTTPBin.shared()
        let shared = NetTapInterceptor.shared
        // Other tests use NetTapInterceptor.shared with 127.0.0.1 at the same time: deny only `localhost`, which they never use.
        let previous = shared.scope
        shared.scope = try .parsing(denyHosts: ["localhost"])
        defer { shared.scope = previous }
        let testID = "scope-shared-\(style.rawValue)-\(UUID().uuidString)"
        let url = try localhostURL(server, "/anything/shared?style=\(style.rawValue)&id=\(testID)")
        let denied = request(url, testID: testID)

        let viaNetTap = await CallRecorder(interceptor: nil, configuration: shared.makeConfiguration())
            .send(denied, style: style)
        let direct = await CallRecorder(interceptor: nil).send(denied, style: style)

        #expect(viaNetTap.error == nil)
        #expect(viaNetTap.response?.statusCode == 200)
        #expect(viaNetTap.body == direct.body)
        #expect(await server.waitForRequests(withTestID: testID, count: 2).count == 2)
        #expect(!shared.captureLog.transactions.contains { $0.request.url == url })
    }
}
