import Dispatch
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The thin shim between the URL Loading System and NetTap's pipeline: the one `URLProtocol` subclass.
///
/// You do not use this class directly: ``NetTapInterceptor/install(into:)`` puts it in a configuration and
/// ``NetTapInterceptor/installForSharedSession()`` registers it globally.
///
/// What it does for each HTTP(S) request:
/// 1. Looks at the app's task (`CallerInfo`). Download tasks, and upload tasks whose body cannot be read
///    for sure, are handed untouched to the platform's own HTTP protocol (still captured).
/// 2. Makes the body visible, merges the caller session's additional headers, starts the capture record and runs
///    the pipeline: inline on the task's queue until the first stage that is not NetTap's own (a stream or file
///    body is read on a global queue first), so an answer made without waiting reaches the client at once.
/// 3. Relays the response head, the body (chunks to delegate callers, one buffer to completion-handler and
///    async callers) and the end through a `ClientRelay` that never calls the client after finish or stop.
///
/// Thread safety: the URL Loading System calls `startLoading` and `stopLoading` on the task's serial queue;
/// everything else happens on other queues and reaches the client only through the relay.
public class NetTapURLProtocol: URLProtocol {
    // Set in startLoading and read in stopLoading, both on the task's serial work queue.
    nonisolated(unsafe) private var relay: ClientRelay?
    nonisolated(unsafe) private var platformProtocol: URLProtocol?

    /// Accepts `http` and `https` requests while any interceptor is enabled, except those outside the serving
    /// interceptor's ``NetTapInterceptor/scope`` when this class can tell which interceptor serves them.
    ///
    /// A declined request goes to the next protocol class, the platform's own HTTP protocol, as without NetTap.
    /// - Parameter request: The request the URL Loading System asks about.
    /// - Returns: `true` when NetTap handles it.
    public override class func canInit(with request: URLRequest) -> Bool {
        guard let scheme = request.url?.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            return false
        }
        guard NetTapInterceptor.anyEnabled.current else { return false }
        guard let owner = NetTapInterceptor.scopeOwner(forProtocolClass: self) else { return true }
        return owner.scope.includes(request.url)
    }

    /// Returns the request unchanged (NetTap never changes what the cache would key on).
    /// - Parameter request: The request.
    /// - Returns: The same request.
    public override class func canonicalRequest(for request: URLRequest) -> URLRequest {
        request
    }

    /// Two requests are cache-equivalent when they are equal.
    /// - Parameters:
    ///   - a: One request.
    ///   - b: The other request.
    /// - Returns: `a == b`.
    public override class func requestIsCacheEquivalent(_ a: URLRequest, to b: URLRequest) -> Bool {
        a == b
    }

    /// Starts the request: hands it to the pipeline, or untouched to the platform protocol.
    public override func startLoading() {
        guard let client else { return }
        let info = CallerInspector.inspect(task)
        let serving = NetTapInterceptor.serving(configuration: info.configuration, protocolClass: type(of: self))
        let interceptor = serving.interceptor
        if serving.fallbackNote != nil, interceptor.isEnabled, interceptor.scope.includes(request.url) {
            NetTapInterceptor.warnOnceAboutSharedFallback()
        }
        let uploadUnreadable: Bool
        if case .unknown = info.uploadBody { uploadUnreadable = true } else { uploadUnreadable = false }
        let isInScope = interceptor.scope.includes(request.url)
        if !interceptor.isEnabled || !isInScope || info.isDownload || uploadUnreadable {
            startPlatformProtocol(
                client: client,
                interceptor: interceptor,
                capture: interceptor.isEnabled && isInScope,
                fallbackNote: serving.fallbackNote
            )
            return
        }
        let queue = info.workQueue ?? DispatchQueue(label: "NetTap.relay")
        let relay = ClientRelay(
            owner: self,
            client: client,
            queue: queue,
            delivery: info.delivery,
            delegateQueue: info.session?.delegateQueue
        )
        self.relay = relay
        let context = TransactionContext(id: .random(), clock: interceptor.clock)
        context.forwardingProfile = info.profile
        context.trustRules = interceptor.effectiveTrustRules
        if let note = serving.fallbackNote { context.annotate("interceptor", note) }
        let job = Job(
            original: request,
            upload: info.uploadBody,
            additionalHeaders: info.configuration?.httpAdditionalHeaders,
            pipeline: interceptor.pipeline,
            context: context,
            log: interceptor.captureLog,
            bodyByteLimit: interceptor.bodyByteLimit,
            relay: relay
        )
        if job.mayBlockReadingBody {
            // Reading a body stream or file may block: never on URLSession's queue.
            DispatchQueue.global().async { job.run() }
        } else {
            URLSessionQueueWindow.run { job.run() }
        }
    }

    /// Stops the request: no client call happens afterwards, and the pipeline and network task are cancelled on another queue.
    ///
    /// The URL Loading System reports the cancellation to the app itself.
    public override func stopLoading() {
        if let platformProtocol {
            platformProtocol.stopLoading()
            return
        }
        relay?.stop()
    }

    // MARK: - Platform path

    private func startPlatformProtocol(
        client: any URLProtocolClient,
        interceptor: NetTapInterceptor,
        capture: Bool,
        fallbackNote: String?
    ) {
        guard let task, let type = PlatformProtocol.builtInClass(for: request) else {
            client.urlProtocol(self, didFailWithError: URLError(.unsupportedURL))
            return
        }
        var target: any URLProtocolClient = client
        if capture {
            let context = TransactionContext()
            context.answer(by: CapturedTransaction.answeredByPassthrough)
            if let fallbackNote { context.annotate("interceptor", fallbackNote) }
            if task is URLSessionDownloadTask {
                context.annotate("passthrough", "download task: the platform writes the body to a file; not kept")
            }
            let recorder = TransactionRecorder(
                request: request,
                body: request.httpBody,
                context: context,
                log: interceptor.captureLog,
                bodyByteLimit: interceptor.bodyByteLimit
            )
            context.markRequestSent(request)
            target = ObservingClient(
                target: client,
                recorder: recorder,
                requestURL: request.url ?? URL(fileURLWithPath: "/")
            )
        }
        let platform = type.init(task: task, cachedResponse: cachedResponse, client: target)
        platformProtocol = platform
        platform.startLoading()
    }
}
