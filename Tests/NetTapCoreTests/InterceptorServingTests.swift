import Foundation
import Testing

@testable import NetTapCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Answers every request with a fixed body naming this handler.
private struct NamedAnswer: TransactionHandler {
    let name: String

    func handle(_ request: URLRequest, context: TransactionContext, next: Next) async throws -> HandlerResponse {
        context.answer(by: name)
        return HandlerResponse(statusCode: 200, body: .string(name))
    }
}

@Suite("Which interceptor serves a session")
struct InterceptorServingTests {
    let url = URL(string: "http://serving.invalid/item")!

    #if canImport(FoundationNetworking)
    @Test("a session built from a private interceptor's makeConfiguration() runs through that interceptor")
    func makeConfigurationIsServedByItsInterceptor() async throws {
        let interceptor = NetTapInterceptor()
        interceptor.handlers = [NamedAnswer(name: "private-configuration")]
        let session = URLSession(configuration: interceptor.makeConfiguration())

        let (data, _) = try await session.data(from: url)

        #expect(data == Data("private-configuration".utf8))
        let captured = interceptor.captureLog.transactions
        #expect(captured.count == 1)
        #expect(captured.first?.answeredBy == "private-configuration")
        #expect(captured.first?.annotations["interceptor"] == nil)
        #expect(!NetTapInterceptor.shared.captureLog.transactions.contains { $0.request.url == url })
    }

    @Test("a configuration the app installs into with install(into:) is served by the interceptor that installed")
    func installIntoIsServedByItsInterceptor() async throws {
        let interceptor = NetTapInterceptor()
        interceptor.handlers = [NamedAnswer(name: "private-install")]
        let configuration = URLSessionConfiguration.ephemeral
        configuration.connectionProxyDictionary = ["AppKey": "kept"]
        interceptor.install(into: configuration)
        let session = URLSession(configuration: configuration)

        let (data, _) = try await session.data(from: url)

        #expect(data == Data("private-install".utf8))
        #expect(interceptor.captureLog.transactions.map(\.answeredBy) == ["private-install"])
        #expect(configuration.connectionProxyDictionary?["AppKey"] as? String == "kept")
    }

    @Test("the interceptor that installs last serves the sessions; uninstalling removes the mark")
    func lastInstallWins() {
        let first = NetTapInterceptor()
        let second = NetTapInterceptor()
        let configuration = first.makeConfiguration()
        #expect(NetTapInterceptor.serving(configuration: configuration).interceptor === first)

        second.install(into: configuration)
        #expect(NetTapInterceptor.serving(configuration: configuration).interceptor === second)

        NetTapInterceptor.shared.install(into: configuration)
        #expect(NetTapInterceptor.serving(configuration: configuration).interceptor === NetTapInterceptor.shared)
        #expect(configuration.connectionProxyDictionary?[NetTapInterceptor.servingMarkKey] == nil)

        first.install(into: configuration)
        first.uninstall(from: configuration)
        #expect(configuration.connectionProxyDictionary?[NetTapInterceptor.servingMarkKey] == nil)
        #expect(configuration.protocolClasses?.contains { ProtocolSlots.isNetTap($0) } == false)
    }
    #endif

    @Test("without the configuration mark, the protocol class finds the interceptor (the Apple-platform path)")
    func protocolClassFindsTheInterceptor() async throws {
        let interceptor = NetTapInterceptor()
        defer { interceptor.uninstall() }
        interceptor.handlers = [NamedAnswer(name: "by-class")]
        let configuration = URLSessionConfiguration.ephemeral
        interceptor.install(into: configuration, usingProtocolSlot: true)  // the Apple-platform default
        configuration.connectionProxyDictionary = nil  // what a platform that hides the configuration sees
        let session = URLSession(configuration: configuration)
        defer { session.invalidateAndCancel() }

        let (data, _) = try await session.data(from: url)

        #expect(data == Data("by-class".utf8))
        #expect(interceptor.captureLog.transactions.map(\.answeredBy) == ["by-class"])
        let ours: AnyClass = try #require(configuration.protocolClasses?.first)
        #expect(ours != NetTapURLProtocol.self && ProtocolSlots.isNetTap(ours))
    }

    /// The protocol class `install(into:)` puts first when the interceptor takes a slot.
    private static func slotClass(of interceptor: NetTapInterceptor?) -> AnyClass? {
        let configuration = URLSessionConfiguration.ephemeral
        interceptor?.install(into: configuration, usingProtocolSlot: true)
        return configuration.protocolClasses?.first
    }

    @Test("uninstall() frees the interceptor's protocol class; a dropped interceptor frees it too")
    func slotsAreFreed() throws {
        var interceptor: NetTapInterceptor? = NetTapInterceptor()
        let first: AnyClass = try #require(Self.slotClass(of: interceptor))
        #expect(NetTapInterceptor.serving(configuration: nil, protocolClass: first).interceptor === interceptor)
        interceptor?.uninstall()
        #expect(
            NetTapInterceptor.serving(configuration: nil, protocolClass: first).interceptor === NetTapInterceptor.shared
        )

        interceptor = NetTapInterceptor()
        let second: AnyClass = try #require(Self.slotClass(of: interceptor))
        #expect(NetTapInterceptor.serving(configuration: nil, protocolClass: second).interceptor === interceptor)
        interceptor = nil
        #expect(
            NetTapInterceptor.serving(configuration: nil, protocolClass: second).interceptor
                === NetTapInterceptor.shared
        )
    }

    @Test("a session NetTap cannot see is served by shared with a note, once a private interceptor exists")
    func unseenSessionGetsAFallbackNote() throws {
        _ = NetTapInterceptor().makeConfiguration()

        let serving = NetTapInterceptor.serving(configuration: nil)

        #expect(serving.interceptor === NetTapInterceptor.shared)
        let note = try #require(serving.fallbackNote)
        #expect(note.contains("NetTapInterceptor.shared"))
        #expect(NetTapInterceptor.serving(configuration: URLSessionConfiguration.default).fallbackNote == nil)
    }
}
