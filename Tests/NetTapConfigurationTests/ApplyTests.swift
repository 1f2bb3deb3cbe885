import Foundation
import NetTapAudit
import NetTapCache
import NetTapConfiguration
import NetTapCore
import NetTapFiles
import NetTapInspector
import NetTapIntegrity
import NetTapMocking
import NetTapReplay
import NetTapRewrite
import NetTapShaping
import NetTapStore
import NetTapTestSupport
import NetTapTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Loading examples/nettap.json and applying it to an interceptor")
struct ApplyTests {
    @Test("the full example loads with every section, relative paths under its own folder")
    func loadsEverySection() throws {
        let folder = try copyOfExamples()
        let configuration = try NetTapConfiguration.load(contentsOf: folder.url.appendingPathComponent("nettap.json"))
        #expect(configuration.sections == NetTapConfiguration.sectionNames)
        #expect(configuration.store?.url.path == folder.url.appendingPathComponent("nettap.sqlite").standardized.path)
        #expect(configuration.cassette?.fileURL.path == folder.url.appendingPathComponent("cassettes/session.har").path)
        #expect(configuration.cassette?.mode == .newEpisodes)
        #expect(configuration.cassette?.matching.body == .json)
        #expect(configuration.cache?.cache.directory.standardizedFileURL.path.hasSuffix("/cache") == true)
        #expect(configuration.files?.mounts.count == 2)
        #expect(configuration.integrity?.rules.count == 2)
        #expect(configuration.scope?.denyHosts.count == 2)
        #expect(configuration.capture == CaptureSettings(capacity: 2000, bodyByteLimit: 2 * 1_048_576))
        #expect(configuration.install == InstallSettings(sharedSession: false, enabledInReleaseBuilds: false))
        #expect(configuration.redactor.isSecret("X-Session", at: .header))
        #expect(configuration.redactor.isSecret("pin42", at: .bodyField))
        #expect(!configuration.redactor.isSecret("theme", at: .cookie))
        #expect(configuration.audit?.secrets == configuration.redactor)
        #expect(configuration.store?.limits == StoreLimits(bodyByteLimit: 1_048_576))
        #expect(configuration.inspector == InspectorSettings(isEnabled: false, address: "127.0.0.1", port: 9229))
        #expect(
            configuration.rewrite?.rules.mapRemote.map(\.to) == [
                "http://127.0.0.1:8080/staging/v2", "https://cdn-staging.example.com/assets/",
            ]
        )
        #expect(configuration.rewrite?.rules.lines().count == 9)
    }

    @Test("the inspector section starts the DevTools inspector on apply; a port in use fails at $.inspector")
    func inspectorSection() async throws {
        let folder = try TemporaryFolder(prefix: "nettap-config")
        let file = try folder.write(#"{"inspector": {"port": 0}}"#, to: "nettap.json")
        let interceptor = NetTapInterceptor()
        let applied = try NetTapConfiguration.load(contentsOf: file).apply(to: interceptor)
        let inspector = try #require(applied.inspector)
        defer { inspector.stop() }
        #expect(interceptor.handlers.map(\.name) == ["inspector"])
        let (data, _) = try await URLSession(configuration: .ephemeral).data(from: inspector.discoveryURL)
        let targets = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        #expect(targets.count == 1)

        let busy = try folder.write(#"{"inspector": {"port": \#(inspector.port)}}"#, to: "busy.json")
        #expect {
            try NetTapConfiguration.load(contentsOf: busy).apply(to: NetTapInterceptor())
        } throws: { error in
            let text = "\(error)"
            return text.hasPrefix("busy.json: $.inspector: cannot listen on 127.0.0.1:\(inspector.port)")
        }
        let off = try folder.write(#"{"inspector": {"enabled": false}}"#, to: "off.json")
        #expect(try NetTapConfiguration.load(contentsOf: off).apply(to: NetTapInterceptor()).inspector == nil)
    }

    @Test("apply sets scope and capture limits and builds the handlers in the canonical order")
    func appliesInCanonicalOrder() throws {
        let folder = try copyOfExamples()
        let configuration = try NetTapConfiguration.load(contentsOf: folder.url.appendingPathComponent("nettap.json"))
        let interceptor = NetTapInterceptor()
        let applied = try configuration.apply(to: interceptor)
        #expect(interceptor.handlers.map(\.name) == NetTapConfiguration.handlerOrder)
        #expect(
            NetTapConfiguration.handlerOrder == [
                "audit", "shaping", "integrity", "mock", "files", "cassette", "rewrite", "cache",
            ]
        )
        #expect(interceptor.scope == configuration.scope)
        #expect(interceptor.captureLog.capacity == 2000)
        #expect(interceptor.bodyByteLimit == 2 * 1_048_576)
        #expect(applied.store?.url == configuration.store?.url)
        #expect(applied.storeObserver != nil)
        #expect(applied.sharedSessionInstallation == nil)
        let shaping = try #require(interceptor.handlers.compactMap { $0 as? ShapingHandler }.first)
        #expect(shaping.shaper === applied.shaper)
        let mock = try #require(interceptor.handlers.compactMap { $0 as? MockHandler }.first)
        #expect(mock.mocks === applied.mocks)
        #expect(mock.redactor == configuration.redactor)
        #expect(applied.mocks?.activeScenario == "happy path")
    }

    @Test("a configured interceptor answers from the mocks, switches scenarios at runtime and stores what it saw")
    func runsRequestsThroughTheConfiguration() async throws {
        let folder = try copyOfExamples()
        let configuration = try NetTapConfiguration.load(contentsOf: folder.url.appendingPathComponent("nettap.json"))
        let interceptor = NetTapInterceptor()
        let transport = FakeTransport(statusCode: 599)
        interceptor.transport = transport
        let applied = try configuration.apply(to: interceptor)
        let session = interceptor.makeSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }

        let cart = try await send("https://api.example.com/v1/cart", through: session)
        #expect(cart.status == 200)
        let expected = try Data(contentsOf: folder.url.appendingPathComponent("fixtures/cart.json"))
        #expect(cart.body == expected)

        try applied.mocks?.activate(scenario: "server down")
        let down = try await send("https://api.example.com/v1/cart", through: session)
        #expect(down.error == .notConnectedToInternet)

        let help = try await send("http://localhost:1000/help/index.html", through: session)
        #expect(help.status == 200)
        #expect(help.body == (try Data(contentsOf: folder.url.appendingPathComponent("web/index.html"))))
        #expect(transport.requests.isEmpty)

        try await applied.flush()
        let store = try #require(applied.store)
        let stored = try await store.transactions()
        #expect(stored.count == 3, "\(stored.map(\.description)) \(interceptor.handlers.map(\.name))")
        #expect(Set(stored.map(\.answeredBy)) == ["mock", "files"])
    }

    @Test("an empty configuration leaves scope, capture and the handlers as they are")
    func emptyConfiguration() throws {
        let interceptor = NetTapInterceptor(captureCapacity: 7)
        let shaping = ShapingHandler(shaper: NetworkShaper())
        interceptor.handlers = [shaping]
        let scope = try HostScope.parsing(denyHosts: ["a.example"])
        interceptor.scope = scope
        let applied = try NetTapConfiguration().apply(to: interceptor)
        #expect(interceptor.handlers.map(\.name) == [shaping.name])
        #expect(applied.handlers.isEmpty)
        #expect(interceptor.scope == scope)
        #expect(interceptor.captureLog.capacity == 7)
        #expect(applied.store == nil && applied.mocks == nil && applied.shaper == nil)
    }

    @Test("apply keeps the app's own handlers and puts its own in the canonical order among them")
    func keepsAppHandlers() throws {
        let folder = try TemporaryFolder(prefix: "nettap-apply-keep")
        let url = folder.url.appendingPathComponent("nettap.json")
        try Data(
            #"{"audit": {}, "mocks": {"stubs": [{"name": "a", "match": {"path": "/a"}, "response": {"status": 204}}]}, "shaping": {}}"#
                .utf8
        ).write(to: url)
        let configuration = try NetTapConfiguration.load(contentsOf: url)
        let interceptor = NetTapInterceptor()
        let outer = NamedPassThrough(name: "app-outer")
        let inner = NamedPassThrough(name: "app-inner")
        let cache = OfflineCacheHandler(cache: try OfflineCache(directory: folder.url.appendingPathComponent("cache")))
        interceptor.handlers = [outer, cache, inner]
        try configuration.apply(to: interceptor)
        let kinds = interceptor.handlers.map { handler in
            (handler as? NamedPassThrough)?.name ?? String(describing: type(of: handler))
        }
        #expect(
            kinds == ["app-outer", "AuditHandler", "ShapingHandler", "MockHandler", "OfflineCacheHandler", "app-inner"]
        )
        // Applying again replaces the configured handlers instead of adding a second set.
        try configuration.apply(to: interceptor)
        #expect(interceptor.handlers.count == kinds.count)
        #expect(interceptor.handlers.first is NamedPassThrough)
    }

    @Test("capture.enabled false pauses capture; a value that is not a boolean is refused at its path")
    func captureEnabled() throws {
        let interceptor = NetTapInterceptor()
        let paused = try NetTapConfiguration(
            configuration: ConfigNode(parsing: Data(#"{"capture": {"enabled": false}}"#.utf8), source: "n.json"),
            baseDirectory: nil
        )
        #expect(paused.capture == CaptureSettings(isEnabled: false))
        _ = try paused.apply(to: interceptor)
        #expect(!interceptor.captureLog.isCapturing)
        let resumed = try NetTapConfiguration(
            configuration: ConfigNode(parsing: Data(#"{"capture": {"enabled": true}}"#.utf8), source: "n.json"),
            baseDirectory: nil
        )
        _ = try resumed.apply(to: interceptor)
        #expect(interceptor.captureLog.isCapturing)
        let error = #expect(throws: ConfigurationError.self) {
            try NetTapConfiguration(
                configuration: ConfigNode(parsing: Data(#"{"capture": {"enabled": "no"}}"#.utf8), source: "n.json"),
                baseDirectory: nil
            )
        }
        #expect(error?.path == "$.capture.enabled", "\(String(describing: error))")
    }

    @Test("the redaction section becomes the interceptor's redactor: off is off, additions redact")
    func redactionApplies() throws {
        let interceptor = NetTapInterceptor()
        let off = try NetTapConfiguration(
            configuration: ConfigNode(parsing: Data(#"{"redaction": {"enabled": false}}"#.utf8), source: "n.json"),
            baseDirectory: nil
        )
        try off.apply(to: interceptor)
        #expect(!interceptor.redactor.isEnabled)
        try NetTapConfiguration().apply(to: interceptor)
        #expect(!interceptor.redactor.isEnabled, "a file without the section leaves the redactor as it was")
    }

    @Test("a store that cannot be opened fails apply at $.store.path and changes nothing")
    func storeThatCannotOpen() throws {
        let folder = try TemporaryFolder(prefix: "nettap-config")
        try folder.write("not a database, but long enough to have a header of sorts..........", to: "data/store.db")
        let file = try folder.write(#"{"store": {"path": "data/store.db"}, "capture": {"capacity": 3}}"#, to: "c.json")
        let configuration = try NetTapConfiguration.load(contentsOf: file)
        let interceptor = NetTapInterceptor(captureCapacity: 9)
        let error = try #require(throws: ConfigurationError.self) { try configuration.apply(to: interceptor) }
        #expect(error.path == "$.store.path")
        #expect(error.source == "c.json")
        #expect(interceptor.captureLog.capacity == 9)
    }

    @Test("a bundle without nettap.json gives no configuration")
    func bundleWithoutConfiguration() throws {
        let folder = try TemporaryFolder(prefix: "nettap-bundle")
        let bundle = try #require(Bundle(path: folder.url.path))
        #expect(try NetTapConfiguration.load(from: bundle) == nil)
    }
}

/// An app's own handler that passes every request on.
private struct NamedPassThrough: TransactionHandler {
    let name: String

    func handle(_ request: URLRequest, context: TransactionContext, next: Next) async throws -> HandlerResponse {
        try await next(request)
    }
}
