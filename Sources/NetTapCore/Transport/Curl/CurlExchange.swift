#if canImport(CNetTapCurl)
import CNetTapCurl
import Foundation
import FoundationNetworking

/// One request on the libcurl transport, across its redirect hops.
///
/// Everything but ``start(_:)``, ``cancel()`` and the back-pressure flag runs on the loop thread, inside
/// libcurl's callbacks or the loop's commands. The first final response head resumes the caller with a
/// streamed body; redirects are followed here with the URLSession transport's rules, on the same easy handle
/// (its connection is reused), every hop recorded.
final class CurlExchange: @unchecked Sendable {
    enum Phase {
        case idle
        case awaitingHead
        case redirecting(URLRequest)
        case streaming
        case ended
    }

    private struct Shared {
        var onHead: (@Sendable (Result<HandlerResponse, any Error>) -> Void)?
        var isCancelled = false
        var isPauseRequested = false
    }

    let context: TransactionContext
    let profile: ForwardingProfile
    let body: CurlRequestBody
    let channel = BodyChannel()
    /// The URL the transport was asked for: the platform names it in every failure.
    let firstURL: URL?
    /// The platform's idle timeout in milliseconds, `nil` for none.
    let idleMilliseconds: UInt64?
    private let loop: CurlEventLoop
    private let shared = Locked(Shared())

    // Loop-thread state.
    var request: URLRequest
    var phase = Phase.idle
    var pool: CurlConnectionPool?
    var handle: UnsafeMutableRawPointer?
    var headerList: UnsafeMutablePointer<curl_slist>?
    var bodyOffset = 0
    let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))
    var head = CurlResponseHead()
    var hops = 0
    var earlyBody: [Data] = []
    var isReceivePaused = false
    /// When the idle timer fires (monotonic nanoseconds); `nil` while no timer runs.
    var idleDeadline: UInt64?

    static let pauseHighWater = 8 * 1_048_576
    static let pauseLowWater = 2 * 1_048_576

    init(
        request: URLRequest,
        body: CurlRequestBody,
        context: TransactionContext,
        profile: ForwardingProfile,
        loop: CurlEventLoop
    ) {
        self.request = request
        self.body = body
        self.context = context
        self.profile = profile
        self.loop = loop
        self.firstURL = request.url
        let interval = RequestTimeout.interval(for: request, sessionTimeout: profile.timeoutIntervalForRequest)
        self.idleMilliseconds = interval.map { UInt64(max(1, $0.components.seconds * 1000 - 1)) }
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        channel.onCancel { [weak self] in self?.cancel() }
        channel.setPressureHandler(highWater: Self.pauseHighWater, lowWater: Self.pauseLowWater) { [weak self] pause in
            self?.setPauseRequested(pause)
        }
    }

    deinit {
        errorBuffer.deallocate()
    }

    /// Starts the request; `onHead` is called once, with the final head (its body then streams through its
    /// channel) or with the error that ended the request first.
    func start(_ onHead: @escaping @Sendable (Result<HandlerResponse, any Error>) -> Void) {
        let cancelled = shared.withLock { shared -> Bool in
            shared.onHead = onHead
            return shared.isCancelled
        }
        if cancelled {
            resumeHead(.failure(URLError(.cancelled)))
            return
        }
        loop.submit { [self] loop in begin(on: loop) }
    }

    /// Cancels the request from any thread: the caller gets `URLError(.cancelled)`, the transfer is dropped.
    func cancel() {
        let first = shared.withLock { shared -> Bool in
            defer { shared.isCancelled = true }
            return !shared.isCancelled
        }
        guard first else { return }
        resumeHead(.failure(URLError(.cancelled)))
        channel.finish(throwing: URLError(.cancelled))
        loop.submit { [self] _ in end() }
    }

    var isCancelled: Bool { shared.withLock { $0.isCancelled } }

    /// The body of the current hop: the app's on the first, what
    /// ``ForwardingExchange/nextHop(from:suggested:statusCode:)`` kept (307/308) on a redirect.
    var currentBody: CurlRequestBody {
        guard hops > 0 else { return body }
        guard let data = request.httpBody, !data.isEmpty else { return .none }
        return .data(data, fromUploadTask: false)
    }

    // MARK: - Loop thread

    private func begin(on loop: CurlEventLoop) {
        guard !isCancelled else { return }
        guard let pool = loop.pool(for: profile) else {
            fail(CurlFailure.urlError(code: NSURLErrorUnknown, description: "libcurl is not available", url: firstURL))
            return
        }
        self.pool = pool
        loop.track(self)
        startTransfer()
    }

    /// Configures the handle for the current request and hands it to libcurl.
    func startTransfer() {
        if let failure = CurlTransferOptions.refusal(for: request, body: currentBody) {
            fail(CurlFailure.urlError(code: failure.code, description: failure.description, url: firstURL))
            return
        }
        guard let pool, let handle = handle ?? pool.makeHandle() else {
            fail(CurlFailure.urlError(code: NSURLErrorUnknown, description: "libcurl is not available", url: firstURL))
            return
        }
        self.handle = handle
        head.reset()
        earlyBody = []
        bodyOffset = 0
        errorBuffer.pointee = 0
        phase = .awaitingHead
        CurlTransferOptions.configure(self, handle: handle)
        touch()
        guard pool.add(handle, for: self) else {
            fail(
                CurlFailure.urlError(
                    code: NSURLErrorUnknown,
                    description: "libcurl refused the transfer",
                    url: firstURL
                )
            )
            return
        }
    }

    /// Restarts the idle timer (any byte in or out, as the platform's `resetTimer()`).
    func touch() {
        guard let idleMilliseconds, !isReceivePaused else { return }
        idleDeadline = CurlClock.now + idleMilliseconds * 1_000_000
    }

    func isIdleDeadlinePassed(at now: UInt64) -> Bool { idleDeadline.map { $0 <= now } ?? false }

    /// The idle timer fired: the platform's bare `-1001`.
    func idleTimedOut() {
        if case .ended = phase { return }
        fail(CurlFailure.idleTimeout)
    }

    /// libcurl finished the current transfer.
    func transferEnded(_ result: CURLcode) {
        guard !isCancelled else {
            end()
            return
        }
        if result != CURLE_OK {
            failTransfer(result)
            return
        }
        switch phase {
        case .redirecting(let next):
            followRedirect(to: next)
        case .awaitingHead:
            finishWithoutHead()
        case .streaming:
            end()
            channel.finish()
        case .idle, .ended:
            end()
        }
    }

    private func failTransfer(_ result: CURLcode) {
        var osErrno = 0
        if let handle { _ = nettap_easy_get_long(handle, CURLINFO_OS_ERRNO, &osErrno) }
        let code = CurlFailure.code(for: result, osErrno: osErrno) ?? NSURLErrorUnknown
        let description = CurlFailure.description(for: result, buffer: errorBuffer)
        fail(CurlFailure.urlError(code: code, description: description, url: firstURL))
    }

    private func followRedirect(to next: URLRequest) {
        hops += 1
        guard hops <= ForwardingTransport.redirectLimit else {
            fail(
                CurlFailure.urlError(
                    code: NSURLErrorHTTPTooManyRedirects,
                    description: "too many HTTP redirects",
                    url: request.url
                )
            )
            return
        }
        if let handle { pool?.remove(handle, keepsHandle: true) }
        freeHeaderList()
        request = CurlRedirect.addingCookies(to: next, profile: profile)
        startTransfer()
    }

    /// The transfer ended without a head: body bytes alone are an HTTP/0.9 answer for the platform
    /// (`validateHeaderComplete`), nothing at all is a bad server response.
    private func finishWithoutHead() {
        guard let url = request.url, !earlyBody.isEmpty,
            let response = HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/0.9", headerFields: [:])
        else {
            fail(CurlFailure.urlError(code: NSURLErrorBadServerResponse, description: "no response", url: firstURL))
            return
        }
        let early = earlyBody
        deliver(HandlerResponse(platform: response, version: "HTTP/0.9", fields: [], channel: channel))
        for chunk in early { channel.send(chunk) }
        end()
        channel.finish()
    }

    /// Ends the request with an error (before or after the head).
    func fail(_ error: any Error) {
        end()
        resumeHead(.failure(error))
        channel.finish(throwing: error)
    }

    /// Releases the transfer; nothing more happens on it.
    func end() {
        if case .ended = phase { return }
        phase = .ended
        idleDeadline = nil
        loop.untrack(self)
        if let handle {
            var wire = context.wire ?? WireDetails(transport: WireDetails.libcurl)
            wire.phases = CurlWireFacts.phases(of: handle, reusedConnection: wire.isNewConnection == false)
            context.wire = wire
            pool?.remove(handle)
            self.handle = nil
        }
        freeHeaderList()
    }

    private func freeHeaderList() {
        if let headerList { curl_slist_free_all(headerList) }
        headerList = nil
    }

    /// Hands the final head to the caller.
    func deliver(_ response: HandlerResponse) {
        phase = .streaming
        resumeHead(.success(response))
    }

    private func resumeHead(_ result: Result<HandlerResponse, any Error>) {
        let onHead = shared.withLock { shared in
            defer { shared.onHead = nil }
            return shared.onHead
        }
        onHead?(result)
    }

    // MARK: - Back-pressure

    var isPauseRequested: Bool { shared.withLock { $0.isPauseRequested } }

    /// The app fell behind (pause) or caught up (resume); a pause takes effect at the next chunk, a resume is
    /// applied on the loop thread.
    private func setPauseRequested(_ pause: Bool) {
        shared.withLock { $0.isPauseRequested = pause }
        guard !pause else { return }
        loop.submit { [self] _ in
            guard isReceivePaused, !isPauseRequested, let handle, case .streaming = phase else { return }
            isReceivePaused = false
            touch()
            curl_easy_pause(handle, CURLPAUSE_CONT)
        }
    }
}
#endif
