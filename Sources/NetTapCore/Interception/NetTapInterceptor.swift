import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The entry point: installs NetTap into URL sessions and holds the pipeline and the capture log.
///
/// ```swift
/// let interceptor = NetTapInterceptor.shared
/// interceptor.handlers = [MyHeaderHandler()]
/// let session = URLSession(configuration: interceptor.makeConfiguration())
/// let (data, response) = try await session.data(from: url)     // seen, captured, forwarded
/// print(interceptor.captureLog.transactions.count)
/// ```
///
/// ```
///  app's URLSession ─▶ NetTapURLProtocol ─▶ handlers … ─▶ transport (libcurl on Linux, URLSession) ─▶ network
///                                │ events
///                                ▼
///                          CaptureLog ─▶ observers, event streams
/// ```
///
/// Install per session (``install(into:)``, ``makeConfiguration(from:)``) wherever you can: it is reliable on
/// every platform. ``installForSharedSession()`` reaches `URLSession.shared` through global registration and
/// reports when this process's shared session can no longer be intercepted.
///
/// An interceptor of your own (not ``shared``) serves the sessions whose configuration it installed into:
/// sessions from its ``makeSession(configuration:delegate:delegateQueue:)`` and sessions built from its
/// ``makeConfiguration(from:)`` or a configuration passed to its ``install(into:)`` alike.
/// On Linux a mark in the configuration names the interceptor. On Apple platforms, where a `URLProtocol` cannot
/// see the session's configuration, each such interceptor gets a `URLProtocol` class of its own in
/// `protocolClasses` (up to 256 at a time; freed by ``uninstall()`` or when the interceptor is released — keep a
/// reference while its sessions run), so the class the URL Loading System instantiates names it. When neither
/// works, ``shared`` serves, and NetTap says so once on standard error and notes it on the transaction
/// (annotation `interceptor`). The shortest call:
///
/// ```swift
/// let interceptor = NetTapInterceptor()
/// interceptor.handlers = [MyHeaderHandler()]
/// let session = interceptor.makeSession()      // not URLSession(configuration: interceptor.makeConfiguration())
/// ```
///
/// Thread safety: every member may be used from any thread; changes apply to the next request.
public final class NetTapInterceptor: Sendable {
    private struct Settings {
        var handlers: [any TransactionHandler] = []
        var transport: any Transport = NetTapInterceptor.platformTransport
        var bodyByteLimit = 1_048_576
        var isEnabled = true
        var clock: any Clock<Duration> = ContinuousClock()
        var trustRules: [TrustRule] = []
    }

    /// The default transport of new interceptors (see ``transport``).
    package static let platformTransport: any Transport = {
        let choice = ProcessInfo.processInfo.environment["NETTAP_TRANSPORT"]?.lowercased()
        if choice == "urlsession" || !CurlTransport.shared.isAvailable { return ForwardingTransport.shared }
        return CurlTransport.shared
    }()

    /// The process-wide interceptor that every installed session uses unless a session was made by another
    /// interceptor's ``makeSession(configuration:delegate:delegateQueue:)``.
    public static let shared = NetTapInterceptor()

    /// The in-memory record of recent transactions and the live event stream.
    public let captureLog: CaptureLog
    private let settings = Locked(Settings())
    /// The hosts this interceptor takes (``scope``).
    let scopeStorage = Locked(HostScope.everyHost)
    /// Decides whether installing does anything (release gating, ``Activation``).
    package let gate: ActivationGate

    /// Creates an interceptor with its own pipeline and capture log.
    ///
    /// It serves the sessions whose configuration it installed into (``makeSession(configuration:delegate:delegateQueue:)``,
    /// ``makeConfiguration(from:)``, ``install(into:)``); other installed sessions use ``shared`` (see the type's
    /// discussion). Call ``uninstall()`` when done with it, to free its protocol class at once.
    /// - Parameter captureCapacity: How many transactions the capture log keeps; 1,000 by default.
    public init(captureCapacity: Int = 1_000) {
        captureLog = CaptureLog(capacity: captureCapacity)
        gate = .process
    }

    /// Creates an interceptor whose installs ask `gate` instead of the process's gate (tests simulate a release
    /// build with it).
    package init(captureCapacity: Int = 1_000, gate: ActivationGate) {
        captureLog = CaptureLog(capacity: captureCapacity)
        self.gate = gate
    }

    /// The handlers every intercepted request runs through, outermost first.
    ///
    /// Empty by default: requests go straight to the ``transport`` and are captured.
    public var handlers: [any TransactionHandler] {
        get { settings.withLock { $0.handlers } }
        set { settings.withLock { $0.handlers = newValue } }
    }

    /// Where requests go after the last handler.
    ///
    /// By default ``CurlTransport/shared`` on Linux (NetTap's own libcurl client) and ``ForwardingTransport/shared``
    /// (a forwarding `URLSession`) on Apple platforms; the environment variable `NETTAP_TRANSPORT` (`libcurl` or
    /// `urlsession`) changes the default for the process, and `nettap.json`'s `transport` or this property for one
    /// interceptor.
    public var transport: any Transport {
        get { settings.withLock { $0.transport } }
        set { settings.withLock { $0.transport = newValue } }
    }

    /// Extra trust for named development hosts (a CA file, or a pinned public key); empty by default.
    ///
    /// Applied by the libcurl transport in debug builds only. See ``TrustRule``.
    public var trustRules: [TrustRule] {
        get { settings.withLock { $0.trustRules } }
        set { settings.withLock { $0.trustRules = newValue } }
    }

    /// The trust rules a request gets: none in a release build (said once on standard error when there are some).
    package var effectiveTrustRules: [TrustRule] {
        let rules = trustRules
        guard !rules.isEmpty, !gate.isDebugBuild else { return rules }
        gate.noteOnce(
            "NetTap: trust rules are ignored in release builds (\(rules.count) set); HTTPS is verified as usual."
        )
        return []
    }

    /// The most bytes of each request and response body kept in the capture, 1 MiB (1,048,576) by default.
    ///
    /// Larger bodies are truncated in the capture (never in traffic); their full size is still recorded.
    public var bodyByteLimit: Int {
        get { settings.withLock { $0.bodyByteLimit } }
        set { settings.withLock { $0.bodyByteLimit = max(0, newValue) } }
    }

    /// What is redacted in every transaction this interceptor captures: `Redactor.default` unless changed.
    ///
    /// Redaction applies to the record only — the capture log's transactions, its events and observers, and
    /// so everything exported from them (HAR, cassettes, reports) — never to the traffic: the app sends and
    /// receives its real requests and responses. Each transaction is redacted once per event as it is
    /// recorded, with the redactor in force when its request arrived; ``CapturedTransaction/redactions`` lists what
    /// was replaced. Set `Redactor.disabled` to capture secrets as they are (an explicit opt-out, which HAR
    /// exports of such a capture made with `Redactor.disabled` record as `"redaction": "off"`).
    public var redactor: Redactor {
        get { captureLog.redactor }
        set { captureLog.redactor = newValue }
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

    /// Puts NetTap's protocol first in a configuration's `protocolClasses`, keeping the others after it, and
    /// marks the configuration as served by this interceptor.
    ///
    /// Sessions created from the configuration afterwards are intercepted. Installing twice is harmless; the
    /// interceptor that installed last serves the sessions.
    ///
    /// An interceptor of your own leaves a mark in `connectionProxyDictionary` on Linux (which
    /// FoundationNetworking copies into every session and never reads, so nothing reaches the wire; the mark
    /// keeps this interceptor alive as long as a configuration or session holds it), and puts a protocol class of
    /// its own first on Apple platforms (see the type's discussion). The shortest call for an
    /// interceptor of your own is ``makeSession(configuration:delegate:delegateQueue:)``:
    ///
    /// ```swift
    /// let session = interceptor.makeSession(configuration: .ephemeral)
    /// ```
    ///
    /// When NetTap is off in this process (a release build that did not opt in, see ``Activation``), this does
    /// nothing and the configuration stays as it was.
    /// - Parameter configuration: The configuration to change.
    public func install(into configuration: URLSessionConfiguration) {
        install(into: configuration, usingProtocolSlot: ProtocolSlots.isDefault)
    }

    /// ``install(into:)``, choosing whether a private interceptor gets a protocol class of its own (the default
    /// on platforms where the configuration cannot be seen; tests of that path ask for it on Linux).
    func install(into configuration: URLSessionConfiguration, usingProtocolSlot: Bool) {
        guard gate.check().isActive else { return }
        let others = (configuration.protocolClasses ?? []).filter { !ProtocolSlots.isNetTap($0) }
        let slot = self === NetTapInterceptor.shared || !usingProtocolSlot ? nil : ProtocolSlots.slotClass(for: self)
        let ours: NetTapURLProtocol.Type = slot ?? NetTapURLProtocol.self
        configuration.protocolClasses = [ours] + others
        Self.setServingMark(self === NetTapInterceptor.shared ? nil : self, on: configuration)
        if self !== NetTapInterceptor.shared { Self.anyPrivateInstalled.withLock { $0 = true } }
        Self.anyEnabled.withLock { $0 = true }
    }

    /// Removes NetTap's protocol, and the mark naming the interceptor that serves it, from a configuration.
    /// - Parameter configuration: The configuration to change.
    public func uninstall(from configuration: URLSessionConfiguration) {
        configuration.protocolClasses = (configuration.protocolClasses ?? []).filter { !ProtocolSlots.isNetTap($0) }
        Self.setServingMark(nil, on: configuration)
    }

    /// A copy of `base` with NetTap installed, served by this interceptor.
    ///
    /// Sessions made from it are served by this interceptor (see ``install(into:)``):
    ///
    /// ```swift
    /// let session = URLSession(configuration: interceptor.makeConfiguration())   // or interceptor.makeSession()
    /// ```
    ///
    /// When NetTap is off in this process (see ``Activation``), the copy is returned as it is.
    /// - Parameter base: The configuration to start from; `.default` by default.
    /// - Returns: A new configuration; `base` is not changed.
    public func makeConfiguration(from base: URLSessionConfiguration = .default) -> URLSessionConfiguration {
        let copy = (base.copy() as? URLSessionConfiguration) ?? URLSessionConfiguration.default
        install(into: copy)
        return copy
    }

    /// Creates a session whose requests run through this interceptor's pipeline and land in its capture log.
    ///
    /// The protocol finds the interceptor from its protocol class and, on Linux, the session's configuration
    /// (see ``install(into:)``). When NetTap is off in this process (see ``Activation``), the session is a plain
    /// one that NetTap never touches.
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
        URLSession(
            configuration: makeConfiguration(from: configuration),
            delegate: delegate,
            delegateQueue: delegateQueue
        )
    }

    /// Installs NetTap for `URLSession.shared` (and every session whose configuration lists no protocol that
    /// accepts a request) by global registration, then checks that it worked.
    ///
    /// Call it as early as possible: on Linux, `URLSession.shared` copies the registered protocol list the
    /// first time it is touched, and a session created before that puts the platform's HTTP protocol ahead of
    /// ours. NetTap re-registers the built-in classes after its own to survive the second case; it cannot
    /// survive the first, and says so in the result. When NetTap is off in this process (a release build that did
    /// not opt in, see ``Activation``), nothing is registered and the result says why.
    /// - Returns: Whether `URLSession.shared` is intercepted, and why not when it is not.
    @discardableResult
    public func installForSharedSession() -> SharedSessionInstallation {
        let activation = gate.check()
        guard activation.isActive else { return .notInterceptable(reason: "NetTap is off: " + activation.reason) }
        Self.anyEnabled.withLock { $0 = true }
        let builtIns = (URLSessionConfiguration.default.protocolClasses ?? []).filter { !ProtocolSlots.isNetTap($0) }
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
        if self === NetTapInterceptor.shared {
            URLProtocol.unregisterClass(NetTapURLProtocol.self)
        } else {
            ProtocolSlots.release(self)
        }
        isEnabled = false
    }

    /// Whether `URLSession.shared` is intercepted right now.
    /// - Returns: `.intercepted`, or `.notInterceptable` with the reason.
    public static func sharedSessionStatus() -> SharedSessionInstallation {
        let activation = ActivationGate.process.decision
        guard activation.isActive else { return .notInterceptable(reason: "NetTap is off: " + activation.reason) }
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
            (type as? URLProtocol.Type)?.canInit(with: probe) == true && !ProtocolSlots.isNetTap(type)
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

    /// The `connectionProxyDictionary` key under which a configuration names the interceptor serving it.
    static let servingMarkKey = "NetTapInterceptor"

    /// What the mark holds: the interceptor itself, kept alive by the configurations and sessions holding it.
    final class ServingMark: Sendable {
        let interceptor: NetTapInterceptor
        init(_ interceptor: NetTapInterceptor) { self.interceptor = interceptor }
    }

    /// Whether an interceptor other than ``shared`` installed into a configuration in this process.
    static let anyPrivateInstalled = Locked(false)
    private static let hasWarnedAboutShared = Locked(false)

    private static func setServingMark(_ interceptor: NetTapInterceptor?, on configuration: URLSessionConfiguration) {
        #if canImport(FoundationNetworking)
        var proxies = configuration.connectionProxyDictionary ?? [:]
        if let interceptor {
            proxies[servingMarkKey] = ServingMark(interceptor)
        } else {
            guard proxies.removeValue(forKey: servingMarkKey) != nil else { return }
        }
        configuration.connectionProxyDictionary = proxies
        #endif
    }

    /// Who serves a request of a session, and the note to attach when that may not be who the app meant.
    struct Serving {
        var interceptor: NetTapInterceptor
        /// Set when ``shared`` serves a request whose session NetTap could not see while other interceptors exist.
        var fallbackNote: String?
    }

    /// The note (and the once-per-process standard error line) for a request served by ``shared`` because the
    /// session's configuration could not be seen.
    static let fallbackNote =
        "served by NetTapInterceptor.shared: NetTap cannot see this session's configuration on this platform, so an "
        + "interceptor of your own (NetTapInterceptor()) does not serve it; use NetTapInterceptor.shared here"

    /// The interceptor serving a session whose configuration is `configuration` (`nil` when it cannot be seen).
    ///
    /// In order: the mark in the configuration (Linux), the interceptor owning the protocol class the URL Loading
    /// System instantiated (every platform; ``ProtocolSlots``), else ``shared``.
    static func serving(configuration: URLSessionConfiguration?, protocolClass: AnyClass? = nil) -> Serving {
        if let mark = configuration?.connectionProxyDictionary?[servingMarkKey] as? ServingMark {
            return Serving(interceptor: mark.interceptor)
        }
        if let protocolClass, let owner = ProtocolSlots.interceptor(for: protocolClass) {
            return Serving(interceptor: owner)
        }
        if configuration != nil { return Serving(interceptor: .shared) }
        guard anyPrivateInstalled.current else { return Serving(interceptor: .shared) }
        return Serving(interceptor: .shared, fallbackNote: fallbackNote)
    }

    /// Writes ``fallbackNote`` to standard error the first time it is called in this process.
    static func warnOnceAboutSharedFallback() {
        let first = hasWarnedAboutShared.withLock { warned in
            defer { warned = true }
            return !warned
        }
        guard first else { return }
        FileHandle.standardError.write(Data("NetTap: a request was \(fallbackNote).\n".utf8))
    }
}

/// The outcome of ``NetTapInterceptor/installForSharedSession()``.
public enum SharedSessionInstallation: Sendable, Equatable {
    /// `URLSession.shared` runs through NetTap.
    case intercepted
    /// `URLSession.shared` cannot be intercepted in this process; the reason says why and what to do.
    case notInterceptable(reason: String)
}
