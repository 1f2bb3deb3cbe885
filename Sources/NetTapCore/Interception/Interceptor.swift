import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The entry point: installs NetTap into URL sessions and holds the pipeline and the capture log.
///
/// ```swift
/// let interceptor = Interceptor.shared
/// interceptor.handlers = [MyHeaderHandler()]
/// let session = URLSession(configuration: interceptor.makeConfiguration())
/// let (data, response) = try await session.data(from: url)     // seen, captured, forwarded
/// print(interceptor.captureLog.transactions.count)
/// ```
///
/// ```
///  app's URLSession ─▶ NetTapURLProtocol ─▶ handlers … ─▶ ForwardingTransport ─▶ network
///                                │ events
///                                ▼
///                          CaptureLog ─▶ observers, event streams
/// ```
///
/// Install per session (``install(into:)``, ``makeConfiguration(from:)``) wherever you can: it is reliable on
/// every platform. ``installForSharedSession()`` reaches `URLSession.shared` through global registration and
/// reports when this process's shared session can no longer be intercepted.
///
/// Thread safety: every member may be used from any thread; changes apply to the next request.
public final class Interceptor: Sendable {
    private struct Settings {
        var handlers: [any TransactionHandler] = []
        var transport: any Transport = ForwardingTransport.shared
        var bodyByteLimit = 1_048_576
        var isEnabled = true
        var clock: any Clock<Duration> = ContinuousClock()
    }

    /// The process-wide interceptor that every installed session uses unless a session was made by another
    /// interceptor's ``makeSession(configuration:delegate:delegateQueue:)``.
    public static let shared = Interceptor()

    /// The in-memory record of recent transactions and the live event stream.
    public let captureLog: CaptureLog
    private let settings = Locked(Settings())

    /// Creates an interceptor with its own pipeline and capture log.
    ///
    /// It sees the sessions it makes with ``makeSession(configuration:delegate:delegateQueue:)``; other installed
    /// sessions use ``shared``.
    /// - Parameter captureCapacity: How many transactions the capture log keeps; 1,000 by default.
    public init(captureCapacity: Int = 1_000) {
        captureLog = CaptureLog(capacity: captureCapacity)
    }

    /// The handlers every intercepted request runs through, outermost first.
    ///
    /// Empty by default: requests go straight to the ``transport`` and are captured.
    public var handlers: [any TransactionHandler] {
        get { settings.withLock { $0.handlers } }
        set { settings.withLock { $0.handlers = newValue } }
    }

    /// Where requests go after the last handler; the shared ``ForwardingTransport`` by default.
    public var transport: any Transport {
        get { settings.withLock { $0.transport } }
        set { settings.withLock { $0.transport = newValue } }
    }

    /// The most bytes of each request and response body kept in the capture, 1 MiB (1,048,576) by default.
    ///
    /// Larger bodies are truncated in the capture (never in traffic); their full size is still recorded.
    public var bodyByteLimit: Int {
        get { settings.withLock { $0.bodyByteLimit } }
        set { settings.withLock { $0.bodyByteLimit = max(0, newValue) } }
    }

    /// Whether requests are intercepted.
    ///
    /// When `false`, installed sessions behave exactly as without NetTap.
    public var isEnabled: Bool {
        get { settings.withLock { $0.isEnabled } }
        set {
            settings.withLock { $0.isEnabled = newValue }
            if newValue { Self.anyEnabled.withLock { $0 = true } }
        }
    }

    /// The clock handlers wait on, and on which requests answered through handlers time out.
    ///
    /// `ContinuousClock` by default. Tests inject a manual clock. A request that runs through handlers has an
    /// idle timeout measured on this clock (the request's or the session's timeout, in whole seconds, as the
    /// platform applies it): while it is in flight, that timeout is one more sleeper on the clock, so a test
    /// that waits for a handler's sleep counts it (`waitForSleepers(count: 2)` for one request).
    public var clock: any Clock<Duration> {
        get { settings.withLock { $0.clock } }
        set { settings.withLock { $0.clock = newValue } }
    }

    /// The pipeline a request entering now would run through.
    public var pipeline: Pipeline {
        settings.withLock { Pipeline(handlers: $0.handlers, transport: $0.transport) }
    }

    // MARK: - Installing

    /// Puts NetTap's protocol first in a configuration's `protocolClasses`, keeping the others after it.
    ///
    /// Sessions created from the configuration afterwards are intercepted. Installing twice is harmless.
    /// - Parameter configuration: The configuration to change.
    public func install(into configuration: URLSessionConfiguration) {
        let others = (configuration.protocolClasses ?? []).filter { $0 != NetTapURLProtocol.self }
        configuration.protocolClasses = [NetTapURLProtocol.self] + others
        Self.anyEnabled.withLock { $0 = true }
    }

    /// Removes NetTap's protocol from a configuration.
    /// - Parameter configuration: The configuration to change.
    public func uninstall(from configuration: URLSessionConfiguration) {
        configuration.protocolClasses = (configuration.protocolClasses ?? []).filter { $0 != NetTapURLProtocol.self }
    }

    /// A copy of `base` with NetTap installed.
    /// - Parameter base: The configuration to start from; `.default` by default.
    /// - Returns: A new configuration; `base` is not changed.
    public func makeConfiguration(from base: URLSessionConfiguration = .default) -> URLSessionConfiguration {
        let copy = (base.copy() as? URLSessionConfiguration) ?? URLSessionConfiguration.default
        install(into: copy)
        return copy
    }

    /// Creates a session whose requests run through this interceptor's pipeline and land in its capture log.
    ///
    /// On Linux the protocol finds the interceptor from the app's session; on Apple platforms sessions made
    /// here use ``shared``'s pipeline unless this is ``shared``.
    /// - Parameters:
    ///   - configuration: The configuration to copy; NetTap is installed into the copy.
    ///   - delegate: The session delegate, as for `URLSession(configuration:delegate:delegateQueue:)`.
    ///   - delegateQueue: The delegate queue, as for `URLSession`.
    /// - Returns: The session.
    public func makeSession(
        configuration: URLSessionConfiguration = .default,
        delegate: (any URLSessionDelegate)? = nil,
        delegateQueue: OperationQueue? = nil
    ) -> URLSession {
        let session = URLSession(
            configuration: makeConfiguration(from: configuration),
            delegate: delegate,
            delegateQueue: delegateQueue
        )
        if self !== Interceptor.shared {
            Self.sessionOwners.withLock { owners in
                owners = owners.filter { $0.value.session != nil }
                owners[ObjectIdentifier(session)] = SessionOwner(session: session, interceptor: self)
            }
        }
        return session
    }

    /// Installs NetTap for `URLSession.shared` (and every session whose configuration lists no protocol that
    /// accepts a request) by global registration, then checks that it worked.
    ///
    /// Call it as early as possible: on Linux, `URLSession.shared` copies the registered protocol list the
    /// first time it is touched, and a session created before that puts the platform's HTTP protocol ahead of
    /// ours. NetTap re-registers the built-in classes after its own to survive the second case; it cannot
    /// survive the first, and says so in the result.
    /// - Returns: Whether `URLSession.shared` is intercepted, and why not when it is not.
    @discardableResult
    public func installForSharedSession() -> SharedSessionInstallation {
        Self.anyEnabled.withLock { $0 = true }
        let builtIns = (URLSessionConfiguration.default.protocolClasses ?? []).filter { $0 != NetTapURLProtocol.self }
        for type in builtIns { URLProtocol.unregisterClass(type) }
        URLProtocol.unregisterClass(NetTapURLProtocol.self)
        _ = URLProtocol.registerClass(NetTapURLProtocol.self)
        for type in builtIns { _ = URLProtocol.registerClass(type) }
        return Self.sharedSessionStatus()
    }

    /// Undoes ``installForSharedSession()`` and turns interception off for this interceptor, so every
    /// installed session behaves as without NetTap (requests already in flight finish as they started).
    ///
    /// Only ``shared`` removes the global registration; another interceptor only stops serving its sessions.
    public func uninstall() {
        if self === Interceptor.shared {
            URLProtocol.unregisterClass(NetTapURLProtocol.self)
        }
        isEnabled = false
    }

    /// Whether `URLSession.shared` is intercepted right now.
    /// - Returns: `.intercepted`, or `.notInterceptable` with the reason.
    public static func sharedSessionStatus() -> SharedSessionInstallation {
        let classes = URLSession.shared.configuration.protocolClasses ?? []
        guard let ours = classes.firstIndex(where: { $0 == NetTapURLProtocol.self }) else {
            if classes.isEmpty {
                return .intercepted
            }
            return .notInterceptable(
                reason: "URLSession.shared was created before NetTap was registered and does not list its protocol; "
                    + "call installForSharedSession() before the first use of URLSession.shared, or install into "
                    + "your own session's configuration"
            )
        }
        let probe = URLRequest(url: probeURL)
        let httpIndex = classes.firstIndex { type in
            (type as? URLProtocol.Type)?.canInit(with: probe) == true && type != NetTapURLProtocol.self
        }
        if let httpIndex, httpIndex < ours {
            return .notInterceptable(
                reason: "URLSession.shared lists the platform HTTP protocol ahead of NetTap's; "
                    + "it was created after another session; install into your own session's configuration"
            )
        }
        return .intercepted
    }

    // MARK: - Lookup used by the protocol

    /// Whether any interceptor may be enabled (a cheap check for `canInit`).
    static let anyEnabled = Locked(false)
    private static let probeURL: URL = {
        var components = URLComponents()
        components.scheme = "http"
        components.host = "nettap.invalid"
        components.path = "/"
        return components.url ?? URL(fileURLWithPath: "/")
    }()

    private struct SessionOwner: @unchecked Sendable {
        weak var session: URLSession?
        let interceptor: Interceptor
    }

    private static let sessionOwners = Locked<[ObjectIdentifier: SessionOwner]>([:])

    /// The interceptor responsible for a caller session.
    static func responsible(for session: URLSession?) -> Interceptor {
        guard let session else { return .shared }
        let owner = sessionOwners.withLock { $0[ObjectIdentifier(session)] }
        if let owner, owner.session === session { return owner.interceptor }
        return .shared
    }
}

/// The outcome of ``Interceptor/installForSharedSession()``.
public enum SharedSessionInstallation: Sendable, Equatable {
    /// `URLSession.shared` runs through NetTap.
    case intercepted
    /// `URLSession.shared` cannot be intercepted in this process; the reason says why and what to do.
    case notInterceptable(reason: String)
}
