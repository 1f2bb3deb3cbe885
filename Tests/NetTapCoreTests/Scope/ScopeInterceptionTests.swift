import Foundation
import Testing

@testable import NetTapCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Answers every request itself and counts the requests it saw.
private final class CountingAnswer: TransactionHandler, Sendable {
    let name = "counting"
    let calls = Locked(0)

    func handle(_ request: URLRequest, context: TransactionContext, next: Next) async throws -> HandlerResponse {
        calls.withLock { $0 += 1 }
        context.answer(by: "counting")
        return HandlerResponse(statusCode: 200, body: .string("answered by NetTap"))
    }
}

/// Requests go to port 1 of the loopback, where nothing listens: a request NetTap takes gets the handler's
/// answer, one it leaves alone gets the platform's own "could not connect" error.
@Suite("Hosts outside the scope are not NetTap's")
struct ScopeInterceptionTests {
    let allowed = URL(string: "http://127.0.0.1:1/scope")!
    let denied = URL(string: "http://localhost:1/scope")!

    private func load(_ url: URL, in session: URLSession) async -> Result<Data, URLError> {
        do {
            return .success(try await session.data(from: url).0)
        } catch let error as URLError {
            return .failure(error)
        } catch {
            return .failure(URLError(.unknown))
        }
    }

    @Test("a protocol class that names its interceptor declines denied hosts in canInit")
    func canInitDeclines() throws {
        let interceptor = NetTapInterceptor()
        defer { interceptor.uninstall() }
        interceptor.scope = try .parsing(denyHosts: ["localhost"])
        let configuration = URLSessionConfiguration.ephemeral
        interceptor.install(into: configuration, usingProtocolSlot: true)
        let slot = try #require(configuration.protocolClasses?.first as? URLProtocol.Type)
        #expect(ProtocolSlots.interceptor(for: slot) === interceptor)

        #expect(slot.canInit(with: URLRequest(url: allowed)))
        #expect(!slot.canInit(with: URLRequest(url: denied)))
        interceptor.scope = .everyHost
        #expect(slot.canInit(with: URLRequest(url: denied)))
    }

    @Test(
        "a denied host reaches the platform untouched: no handler, no capture",
        arguments: [true, false]
    )
    func deniedPassesThrough(usingProtocolSlot: Bool) async throws {
        let interceptor = NetTapInterceptor()
        defer { interceptor.uninstall() }
        let handler = CountingAnswer()
        interceptor.handlers = [handler]
        interceptor.scope = try .parsing(denyHosts: ["localhost"])
        let configuration = URLSessionConfiguration.ephemeral
        interceptor.install(into: configuration, usingProtocolSlot: usingProtocolSlot)
        let session = URLSession(configuration: configuration)
        let direct = URLSession(configuration: .ephemeral)

        let intercepted = await load(allowed, in: session)
        let passed = await load(denied, in: session)
        let directly = await load(denied, in: direct)

        #expect(intercepted == .success(Data("answered by NetTap".utf8)))
        guard case .failure(let error) = passed, case .failure(let directError) = directly else {
            Issue.record("expected the platform's connection error, got \(passed) and \(directly)")
            return
        }
        #expect(error.code == .cannotConnectToHost)
        #expect(error.code == directError.code)
        #expect(handler.calls.current == 1)
        #expect(interceptor.captureLog.transactions.map(\.request.url) == [allowed])
    }

    @Test("an allow list leaves every other host alone; the scope changes for the next request")
    func allowList() async throws {
        let interceptor = NetTapInterceptor()
        let handler = CountingAnswer()
        interceptor.handlers = [handler]
        interceptor.scope = try .parsing(allowHosts: ["127.0.0.1"])
        let session = interceptor.makeSession(configuration: .ephemeral)

        let outside = await load(denied, in: session)
        interceptor.scope = try .parsing(allowHosts: ["regex:local.*"])
        let nowInside = await load(denied, in: session)

        if case .failure(let error) = outside {
            #expect(error.code == .cannotConnectToHost)
        } else {
            Issue.record("expected the platform's connection error, got \(outside)")
        }
        #expect(nowInside == .success(Data("answered by NetTap".utf8)))
        #expect(handler.calls.current == 1)
        #expect(interceptor.captureLog.transactions.map(\.request.url) == [denied])
    }
}
