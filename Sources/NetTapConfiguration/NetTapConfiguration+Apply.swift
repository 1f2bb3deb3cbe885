import Foundation
import NetTapAudit
import NetTapCache
import NetTapCore
import NetTapFiles
import NetTapInspector
import NetTapIntegrity
import NetTapMocking
import NetTapReplay
import NetTapShaping
import NetTapStore

extension NetTapConfiguration {
    /// The handler names in the order ``apply(to:)`` puts the configured handlers, outermost first.
    ///
    /// ```
    ///  app ─▶ audit ─▶ shaping ─▶ integrity ─▶ mock ─▶ files ─▶ cassette ─▶ cache ─▶ transport ─▶ network
    /// ```
    /// - `audit` (`AuditHandler`) is outermost, so it sees what the app sends and what the app finally
    ///   receives, whoever answers.
    /// - `shaping` (`ShapingHandler`) slows down or fails every answer alike: mocks, files and replays are shaped
    ///   as the network would be.
    /// - `integrity` (`IntegrityHandler`) checks whatever answers below it (a stub, a mounted file, a cassette,
    ///   the cache or the network) and falls back to bundled copies.
    /// - `mock` (`MockHandler`) answers from stubs and scenarios; unmatched requests pass on.
    /// - `files` (`LocalFilesHandler`) answers from mounted folders.
    /// - `cassette` (`ReplayHandler`) replays recordings, and records what reaches it from below.
    /// - `cache` (`OfflineCacheHandler`) is innermost, next to the network whose failures it covers.
    public static let handlerOrder = ["audit", "shaping", "integrity", "mock", "files", "cassette", "cache"]

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
        var handlers: [any TransactionHandler] = []
        if let audit { handlers.append(audit) }
        if let shaper { handlers.append(ShapingHandler(shaper: shaper)) }
        if let integrity { handlers.append(integrity) }
        if let mockSet { handlers.append(MockHandler(mocks: mockSet, redactor: redactor)) }
        if let files { handlers.append(files) }
        if let cassette { handlers.append(cassette) }
        if let cache { handlers.append(cache) }
        return (handlers, mockSet)
    }

    /// Puts the configuration to work on an interceptor.
    ///
    /// In order:
    /// 1. `install.enabledInReleaseBuilds`, when given, sets `NetTapInterceptor.isEnabledInReleaseBuilds`.
    /// 2. `scope` sets `interceptor.scope`; `capture` sets the capture log's capacity and the body byte limit.
    /// 3. `interceptor.handlers` is replaced by the configured handlers in ``handlerOrder`` (emptied when the file
    ///    configures none).
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
        interceptor.handlers = handlers
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
