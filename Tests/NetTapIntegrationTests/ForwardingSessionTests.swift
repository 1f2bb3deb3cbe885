import Foundation
import NetTapCore
import NetTapTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Forwarding sessions")
struct ForwardingSessionTests {
    /// One forwarding session serves every request of one app session (a session per request would leak
    /// sockets and memory); another app session gets its own, as it has its own connections without NetTap.
    @Test("an app session's requests share one forwarding session; another app session gets its own")
    func oneSessionPerAppSession() async throws {
        let server = try await HTTPBin.shared()
        let transport = ForwardingTransport()
        let interceptor = NetTapInterceptor()
        interceptor.transport = transport
        let session = interceptor.makeSession()
        try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<24 {
                group.addTask {
                    let (_, response) = try await session.data(from: server.url("/get?n=\(index)"))
                    return (response as? HTTPURLResponse)?.statusCode ?? 0
                }
            }
            for try await status in group { #expect(status == 200) }
        }
        #expect(transport.sessionCount == 1)

        let configuration = URLSessionConfiguration.default
        configuration.timeoutIntervalForRequest = 17
        let other = interceptor.makeSession(configuration: configuration)
        _ = try await other.data(from: server.url("/get"))
        _ = try await other.data(from: server.url("/get"))
        #expect(transport.sessionCount == 2)
        #expect(interceptor.captureLog.transactions.count == 26)
    }

    @Test("the app session's connection limit applies, and a gone app session's forwarding session is released")
    func limitAndRelease() async throws {
        let server = try await HTTPBin.shared()
        let transport = ForwardingTransport()
        let interceptor = NetTapInterceptor()
        interceptor.transport = transport
        let configuration = URLSessionConfiguration.default
        configuration.httpMaximumConnectionsPerHost = 2
        var session: URLSession? = interceptor.makeSession(configuration: configuration)
        _ = try await session?.data(from: server.url("/get"))
        let profile = try #require(transport.profiles.first)
        #expect(profile.maximumConnectionsPerHost == 2)
        #expect(transport.sessionCount == 1)

        session?.finishTasksAndInvalidate()
        session = nil
        // The next request, from another app session, finds the first one gone.
        let next = interceptor.makeSession()
        _ = try await next.data(from: server.url("/get"))
        #expect(transport.sessionCount == 1)
        #expect(transport.profiles.first?.maximumConnectionsPerHost == 6)
    }
}
