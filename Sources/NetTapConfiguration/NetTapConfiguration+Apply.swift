import Foundation
import NetTapAudit
import NetTapCache
import NetTapCore
import NetTapFiles
import NetTapInspector
import NetTapIntegrity
import NetTapMocking
import NetTapReplay
import NetTapRewrite
import NetTapShaping
import NetTapStore

extension NetTapConfiguration {
    /// The handler names in the order ``apply(to:)`` puts the configured handlers, outermost first.
    ///
    /// ```
    ///  app ─▶ audit ─▶ shaping ─▶ integrity ─▶ mock ─▶ files ─▶ cassette ─▶ rewrite ─▶ cache ─▶ transport
    /// ```
    /// The audit sees what the app sends and finally receives, whoever answers; shaping slows down or fails
    /// every answer alike (mocks, files and replays are shaped as the network would be); integrity checks
    /// whatever answers below it; mocks, files and the cassette match the request the app sent, and the rewrite
    /// rules change only what goes to the network (map remote) and what comes back from it; the cache is next to
    /// the network whose failures it covers. The DocC article
    /// "Configuration" explains each place.
    public static let handlerOrder = registry.compactMap(\.layer).sorted().map(\.rawValue)

    /// The configured handlers in ``handlerOrder``, with a new `MockSet` for the `mocks` section.
    ///
    /// - Returns: The handlers, and the mock set the `MockHandler` answers from (or `nil`).
    /// - Throws: `ConfigurationError` at `$.mocks.activeScenario` when the active scenario is unknown (a
    ///   configuration built in code; files are checked when read).
    public func makeHandlers() throws -> (handlers: [any TransactionHandler], mocks: MockSet?) {
        var mockSet: MockSet?
        if let mocks {
            do {
                mockSet = try MockSet(configuration: mocks)
            } catch {
                throw ConfigurationError(
                    source: fileURL?.lastPathComponent,
                    path: "$.mocks.activeScenario",
                    message: "\(error)"
                )
            }
        }
        var layered: [(layer: HandlerLayer, handler: any TransactionHandler)] = []
        if let audit { layered.append((.audit, audit)) }
        if let shaper { layered.append((.shaping, ShapingHandler(shaper: shaper))) }
        if let integrity { layered.append((.integrity, integrity)) }
        if let mockSet { layered.append((.mock, MockHandler(mocks: mockSet, redactor: redactor))) }
        if let files { layered.append((.files, files)) }
        if let cassette { layered.append((.cassette, cassette)) }
        if let rewrite { layered.append((.rewrite, rewrite)) }
        if let cache { layered.append((.cache, cache)) }
        let handlers = layered.sorted { $0.layer < $1.layer }.map(\.handler)
        return (handlers, mockSet)
    }

    /// Puts the configuration to work on an interceptor.
    ///
    /// In order:
    /// 1. `install.enabledInReleaseBuilds`, when given, sets `NetTapInterceptor.isEnabledInReleaseBuilds`.
    /// 2. `scope` sets `interceptor.scope`; `capture` sets the capture log's capacity and the body byte limit.
    /// 3. The configured handlers join `interceptor.handlers` in ``handlerOrder``: each replaces a handler of
    ///    its own kind already there (so applying again replaces what the last apply put in), or goes before the
    ///    first of NetTap's handlers that belongs further in, else last. Handlers the app added itself stay where
    ///    they are; a configuration without handler sections changes no handler.
    /// 4. `store` opens (or creates) the SQLite store and adds it as an observer of `interceptor.captureLog`.
    /// 5. `install.sharedSession` calls `interceptor.installForSharedSession()` (`URLSession.shared` is served by
    ///    `NetTapInterceptor.shared`, so apply to `.shared` for it).
    /// 6. `inspector` starts the DevTools inspector on the interceptor (its URL is written to standard error).
    ///
    /// Sections left out leave the interceptor's scope, capture limits and installation as they are.
    /// The `redaction` section, when present, becomes the interceptor's `redactor` (what its capture, and so the
    /// store, holds) and is used by the cassette, the mock handler's recordings and the audit.
    ///
    /// - Parameter interceptor: The interceptor, for example `NetTapInterceptor.shared`.
    /// - Returns: The live objects: mock set, shaper, cassette, cache, store.
    /// - Throws: `ConfigurationError` at `$.store.path` when the store cannot be opened (naming the
    ///   `StoreError`), or at `$.mocks.activeScenario` (see ``makeHandlers()``); nothing has changed then. At
    ///   `$.inspector` when the inspector cannot start (its port in use, NetTap off): the rest is applied then.
    @discardableResult
    public func apply(to interceptor: NetTapInterceptor) throws -> AppliedConfiguration {
        let (handlers, mockSet) = try makeHandlers()
        var transactionStore: TransactionStore?
        if let store {
            do {
                transactionStore = try store.open()
            } catch {
                throw ConfigurationError(
                    source: fileURL?.lastPathComponent,
                    path: "$.store.path",
                    message: "cannot open the store: \(error)"
                )
            }
        }
        if let enabled = install?.enabledInReleaseBuilds { NetTapInterceptor.isEnabledInReleaseBuilds = enabled }
        if let transport = install?.transport { interceptor.transport = transport.transport }
        if let scope { interceptor.scope = scope }
        if let trust { interceptor.trustRules = trust }
        capture?.apply(to: interceptor)
        if let redaction { interceptor.redactor = redaction }
        interceptor.handlers = Self.placing(handlers, among: interceptor.handlers)
        let token = transactionStore.map { interceptor.captureLog.addObserver($0) }
        let installation = install?.sharedSession == true ? interceptor.installForSharedSession() : nil
        var runningInspector: DevToolsInspector?
        do {
            runningInspector = try inspector?.start(on: interceptor)
        } catch {
            throw ConfigurationError(
                source: fileURL?.lastPathComponent,
                path: "$.inspector",
                message: error.description
            )
        }
        return AppliedConfiguration(
            configuration: self,
            interceptor: interceptor,
            handlers: handlers,
            mocks: mockSet,
            shaper: shaper,
            cassette: cassette,
            cache: cache,
            store: transactionStore,
            storeObserver: token,
            sharedSessionInstallation: installation,
            inspector: runningInspector
        )
    }
}
