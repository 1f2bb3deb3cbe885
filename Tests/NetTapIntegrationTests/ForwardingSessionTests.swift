import Foundation
import NetTapCore
import NetTapTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Forwarding sessions")
struct ForwardingSessionTests {
    /// One forwarding session serves every request with the same cookie jar and timeout; a session per
    /// request would leak sockets and memory.
    @Test("many requests share one forwarding session; another cookie jar gets its own")
    func oneSessionPerProfile() async throws {
        let server = try await HTTPBin.shared()
        let transport = ForwardingTransport()
        let interceptor = Interceptor()
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
}
