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

/// A configuration at work on an interceptor: the live objects to change at runtime and to flush.
///
/// ```swift
/// let applied = try NetTapConfiguration.load(contentsOf: url).apply(to: interceptor)
/// try applied.mocks?.activate(scenario: "server down")
/// applied.shaper?.setProfile(nil)
/// try await applied.flush()      // before the process ends: cassette recordings and stored transactions
/// ```
public struct AppliedConfiguration: Sendable {
    /// The configuration that was applied.
    public let configuration: NetTapConfiguration
    /// The interceptor the configuration was applied to.
    public let interceptor: NetTapInterceptor
    /// The handlers set as `interceptor.handlers`, in ``NetTapConfiguration/handlerOrder``.
    public let handlers: [any TransactionHandler]
    /// The stubs and scenarios the `MockHandler` answers from (`mocks`); switch scenarios with
    /// `MockSet.activate(scenario:)`.
    public let mocks: MockSet?
    /// The shaper the `ShapingHandler` reads for every request (`shaping`); change it with
    /// `NetworkShaper.setProfile(_:)` and `NetworkShaper.setRules(_:)`.
    public let shaper: NetworkShaper?
    /// The cassette handler (`cassette`); ``flush()`` writes its recordings.
    public let cassette: ReplayHandler?
    /// The offline cache handler (`cache`), whose `cache` can be inspected or cleared.
    public let cache: OfflineCacheHandler?
    /// The store receiving every finished transaction (`store`); ``flush()`` writes its pending batch.
    public let store: TransactionStore?
    /// The capture log observer token of ``store``, for `CaptureLog.removeObserver(_:)`.
    public let storeObserver: UUID?
    /// The result of `NetTapInterceptor.installForSharedSession()` when `install.sharedSession` is `true`, else `nil`.
    public let sharedSessionInstallation: SharedSessionInstallation?
    /// The running DevTools inspector (`inspector`), or `nil`.
    public let inspector: DevToolsInspector?

    /// Creates the record of an application (``NetTapConfiguration/apply(to:)`` makes it).
    ///
    /// - Parameters:
    ///   - configuration: The configuration applied.
    ///   - interceptor: The interceptor.
    ///   - handlers: The handlers set.
    ///   - mocks: The mock set, if any.
    ///   - shaper: The shaper, if any.
    ///   - cassette: The cassette handler, if any.
    ///   - cache: The offline cache handler, if any.
    ///   - store: The store, if any.
    ///   - storeObserver: The store's observer token, if any.
    ///   - sharedSessionInstallation: The shared session result, if installed.
    ///   - inspector: The running DevTools inspector, if started.
    public init(
        configuration: NetTapConfiguration,
        interceptor: NetTapInterceptor,
        handlers: [any TransactionHandler],
        mocks: MockSet? = nil,
        shaper: NetworkShaper? = nil,
        cassette: ReplayHandler? = nil,
        cache: OfflineCacheHandler? = nil,
        store: TransactionStore? = nil,
        storeObserver: UUID? = nil,
        sharedSessionInstallation: SharedSessionInstallation? = nil,
        inspector: DevToolsInspector? = nil
    ) {
        self.configuration = configuration
        self.interceptor = interceptor
        self.handlers = handlers
        self.mocks = mocks
        self.shaper = shaper
        self.cassette = cassette
        self.cache = cache
        self.store = store
        self.storeObserver = storeObserver
        self.sharedSessionInstallation = sharedSessionInstallation
        self.inspector = inspector
    }

    /// Writes what is pending: the cassette's recordings, then (once the capture log has handed every finished
    /// transaction to the store) the store's batch.
    ///
    /// Call it before the process ends (a command-line tool, a test): both write in the background otherwise.
    /// - Throws: What `ReplayHandler.flush()` throws (`EncodingError`, `CocoaError`, `POSIXError`), then
    ///   `StoreError` from `TransactionStore.flush()`.
    public func flush() async throws {
        try await cassette?.flush()
        if let store {
            await interceptor.captureLog.waitForObservers()
            try await store.flush()
        }
    }
}
