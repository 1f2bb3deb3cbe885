import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One forwarded request, across all of its redirect hops.
///
/// Runs a small state machine fed by the forwarding session's delegate: the first non-redirect response
/// head resumes the caller's continuation with a streamed body; redirects are refused inside the session
/// (`completionHandler(nil)`) and re-issued here as new inner tasks, so every hop is seen and recorded.
/// Inner tasks are created, resumed and cancelled on a global queue, never on the URLSession queue that
/// delivered a callback (doing so deadlocks or crashes FoundationNetworking on Linux).
package final class ForwardingExchange: @unchecked Sendable {
    private struct State {
        var request: URLRequest
        var onHead: (@Sendable (Result<HandlerResponse, any Error>) -> Void)?
        var innerTask: URLSessionTask?
        var pendingRedirect: URLRequest?
        var redirectError: URLError?
        var hops = 0
        var headDelivered = false
        var refusedChallenge = false
        var cancelled = false
        var pausedHandle: AnyObject?
        var pauseReasons: Set<PauseReason> = []
        var earlyData: [Data] = []
    }

    /// Bytes the app may lag behind the network before the transfer is paused, and the mark to resume at.
    static let pauseHighWater = 8 * 1_048_576
    static let pauseLowWater = 2 * 1_048_576

    private let context: TransactionContext
    private let forwarding: ForwardingSession
    private let sendsBodyAsStream: Bool
    private let channel = BodyChannel()
    private let state: Locked<State>

    init(request: URLRequest, context: TransactionContext, session: ForwardingSession, sendsBodyAsStream: Bool) {
        self.context = context
        self.forwarding = session
        self.sendsBodyAsStream = sendsBodyAsStream
        self.state = Locked(State(request: request))
        channel.onCancel { [weak self] in self?.cancel() }
        if session.workQueue != nil && TransferPause.isAvailable {
            channel.setPressureHandler(highWater: Self.pauseHighWater, lowWater: Self.pauseLowWater) {
                [weak self] pause in
                self?.setPaused(pause, for: .consumerBacklog)
            }
        }
    }

    /// Why receiving is paused: the app has not taken the bytes relayed so far, or the forwarding session's
    /// delegate queue holds more chunks than NetTap has relayed yet.
    enum PauseReason: Hashable {
        case consumerBacklog
        case forwardingBacklog
    }

    /// Adds or removes a reason to pause; the transfer is paused while any reason holds.
    ///
    /// Applied on the forwarding session's work queue, where libcurl is driven.
    func setPaused(_ active: Bool, for reason: PauseReason) {
        guard let workQueue = forwarding.workQueue else { return }
        let apply: @Sendable () -> Void = { [self] in
            enum Change {
                case pause(URLSessionTask)
                case resume(AnyObject)
                case none
            }
            // FoundationNetworking sets the task's response, on this queue, as soon as libcurl has read the whole
            // header, before it queues the delegate's callback; so this is known even while callbacks queue up.
            let headerRead = state.withLock({ $0.innerTask })?.response != nil
            let change: Change = state.withLock { state in
                let wasPaused = !state.pauseReasons.isEmpty
                if active { state.pauseReasons.insert(reason) } else { state.pauseReasons.remove(reason) }
                let isPaused = !state.pauseReasons.isEmpty
                // Only a transfer whose header has been read is paused: pausing libcurl while it still reads the
                // header makes FoundationNetworking take the rest for an HTTP/0.9 body and never report the head.
                if isPaused && state.pausedHandle == nil && (state.headDelivered || headerRead),
                    let task = state.innerTask
                {
                    return .pause(task)
                }
                if !isPaused && wasPaused, let handle = state.pausedHandle {
                    state.pausedHandle = nil
                    return .resume(handle)
                }
                return .none
            }
            switch change {
            case .pause(let task):
                guard let handle = TransferPause.easyHandle(of: task), TransferPause.setPaused(true, easyHandle: handle)
                else { return }
                state.withLock { $0.pausedHandle = handle }
            case .resume(let handle):
                TransferPause.setPaused(false, easyHandle: handle)
            case .none:
                break
            }
        }
        // Already on the work queue (the delegate queue runs there): act now, not behind the queued chunks.
        if DispatchQueue.getSpecific(key: ForwardingSession.workQueueKey) != nil {
            apply()
        } else {
            workQueue.async(execute: apply)
        }
    }

    /// Starts the request.
    ///
    /// - Parameters:
    ///   - onURLSessionQueue: Whether the caller runs on a URLSession work queue (see `launchCurrentRequest`).
    ///   - onHead: Called once: with the final response head (on the forwarding session's work queue; its body
    ///     streams through the response's channel afterwards, on the same queue) or with the error that ended
    ///     the request first.
    func start(onURLSessionQueue: Bool, _ onHead: @escaping @Sendable (Result<HandlerResponse, any Error>) -> Void) {
        let alreadyCancelled = state.withLock { state -> Bool in
            state.onHead = onHead
            return state.cancelled
        }
        if alreadyCancelled {
            resumeHead(throwing: URLError(.cancelled))
            return
        }
        launchCurrentRequest(onURLSessionQueue: onURLSessionQueue)
    }

    /// Cancels the inner task (from any thread); the caller's continuation ends with `URLError(.cancelled)`.
    func cancel() {
        let task = state.withLock { state -> URLSessionTask? in
            state.cancelled = true
            return state.innerTask
        }
        if let task {
            DispatchQueue.global().async { task.cancel() }
        }
        resumeHead(throwing: URLError(.cancelled))
        channel.finish(throwing: URLError(.cancelled))
    }

    /// Creates and resumes the inner task for the current request.
    ///
    /// Creating a task waits synchronously on URLSession's process-wide queue, so a caller on that queue (the
    /// protocol's `startLoading`, a redirect callback) must pass `onURLSessionQueue: true` to hop to a global
    /// queue first; from an async task it runs in place.
    private func launchCurrentRequest(onURLSessionQueue: Bool) {
        guard onURLSessionQueue else {
            launchNow()
            return
        }
        DispatchQueue.global().async { [self] in launchNow() }
    }

    private func launchNow() {
        var request = state.withLock { $0.request }
        if sendsBodyAsStream, let body = request.httpBody {
            request.httpBody = nil
            request.httpBodyStream = InputStream(data: body)
        }
        let task = forwarding.session.dataTask(with: request)
        forwarding.router.register(self, for: task)
        let cancelled = state.withLock { state -> Bool in
            state.innerTask = task
            return state.cancelled
        }
        if cancelled {
            task.cancel()
        } else {
            task.resume()
        }
    }

    // MARK: - Delegate callbacks (on the forwarding session's delegate queue)

    func didReceive(response: URLResponse, from task: URLSessionTask) {
        let (deliver, pauseNow) = state.withLock { state -> (Bool, Bool) in
            guard state.innerTask === task, state.pendingRedirect == nil, !state.headDelivered else {
                return (false, false)
            }
            state.headDelivered = true
            return (true, !state.pauseReasons.isEmpty && state.pausedHandle == nil)
        }
        guard deliver else { return }
        context.markFirstByte()
        context.wire = WireDetails(transport: WireDetails.urlSession)
        resumeHead(returning: makeResponse(response))
        if pauseNow, let handle = TransferPause.easyHandle(of: task), TransferPause.setPaused(true, easyHandle: handle)
        {
            state.withLock { $0.pausedHandle = handle }
        }
    }

    func didReceive(data: Data, from task: URLSessionTask) {
        enum Route {
            case relay
            case keep
            case drop
        }
        let route = state.withLock { state -> Route in
            guard state.innerTask === task, state.pendingRedirect == nil else { return .drop }
            if state.headDelivered { return .relay }
            // Body bytes before the head (FoundationNetworking reported no head): keep them for the late head.
            state.earlyData.append(data)
            return .keep
        }
        if case .relay = route { channel.send(data) }
    }

    func willRedirect(response: HTTPURLResponse, newRequest: URLRequest, from task: URLSessionTask) {
        let hop = RedirectHop(
            method: task.currentRequest?.httpMethod ?? "GET",
            url: response.url ?? task.currentRequest?.url ?? newRequest.url ?? URL(fileURLWithPath: "/"),
            statusCode: response.statusCode,
            headers: HeaderFields(response.allHeaderFields),
            elapsedMilliseconds: context.elapsedMilliseconds
        )
        context.recordRedirect(hop)
        state.withLock { state in
            state.hops += 1
            if state.hops > ForwardingTransport.redirectLimit {
                state.redirectError = URLError(
                    .httpTooManyRedirects,
                    userInfo: [NSURLErrorFailingURLErrorKey: newRequest.url as Any]
                )
            }
            state.pendingRedirect = Self.nextHop(
                from: state.request,
                suggested: newRequest,
                statusCode: response.statusCode
            )
        }
    }

    func refusedAuthenticationChallenge(from task: URLSessionTask) {
        state.withLock { state in
            if state.innerTask === task { state.refusedChallenge = true }
        }
    }

    func didComplete(task: URLSessionTask, error: (any Error)?) {
        enum Next {
            case ignore
            case redirect
            case fail(any Error)
            case finish(URLResponse?)
        }
        let next: Next = state.withLock { state in
            guard state.innerTask === task, !state.cancelled else { return .ignore }
            if let redirectError = state.redirectError {
                return .fail(redirectError)
            }
            if let redirect = state.pendingRedirect {
                state.request = redirect
                state.pendingRedirect = nil
                return .redirect
            }
            if let error, !(state.refusedChallenge && state.headDelivered) {
                return .fail(error)
            }
            return .finish(state.headDelivered ? nil : task.response)
        }
        switch next {
        case .ignore:
            break
        case .redirect:
            launchCurrentRequest(onURLSessionQueue: true)
        case .fail(let error):
            let mapped = Self.urlError(error)
            resumeHead(throwing: mapped)
            channel.finish(throwing: mapped)
        case .finish(let lateHead):
            if let lateHead {
                let early = state.withLock { state in
                    state.headDelivered = true
                    defer { state.earlyData = [] }
                    return state.earlyData
                }
                context.markFirstByte()
                resumeHead(returning: makeResponse(lateHead))
                for chunk in early { channel.send(chunk) }
            }
            channel.finish()
        }
    }

    // MARK: - Helpers

    private func resumeHead(returning response: HandlerResponse) {
        let onHead = state.withLock { state in
            defer { state.onHead = nil }
            return state.onHead
        }
        onHead?(.success(response))
    }

    private func resumeHead(throwing error: any Error) {
        let onHead = state.withLock { state in
            defer { state.onHead = nil }
            return state.onHead
        }
        onHead?(.failure(error))
    }

    private func makeResponse(_ response: URLResponse) -> HandlerResponse {
        let http = response as? HTTPURLResponse
        let length = response.expectedContentLength
        let headers = HeaderFields(http?.allHeaderFields ?? [:])
        var made = HandlerResponse(
            statusCode: http?.statusCode ?? 200,
            headers: headers,
            url: response.url,
            httpVersion: "HTTP/1.1",
            body: ResponseBody(channel: channel, expectedLength: length >= 0 ? length : nil)
        )
        if let http { made.origin = (http, made.statusCode, headers, made.url) }
        return made
    }

    /// The request for the next hop, per RFC 9110 §15.4: 301/302 turn POST into GET, 303 turns anything but HEAD into GET, 307/308 keep the method and the body.
    ///
    /// The `Cookie` header is dropped so the forwarding session rebuilds it from cookie storage for the new URL (fresh
    /// cookies set by the redirect itself are included; cookies of another host are not).
    static func nextHop(from previous: URLRequest, suggested: URLRequest, statusCode: Int) -> URLRequest {
        var next = suggested
        let previousMethod = previous.httpMethod ?? "GET"
        let method: String
        switch statusCode {
        case 301, 302:
            method = previousMethod == "POST" ? "GET" : previousMethod
        case 303:
            method = previousMethod == "HEAD" ? "HEAD" : "GET"
        default:
            method = previousMethod
        }
        next.httpMethod = method
        let keepsBody = method == previousMethod && statusCode != 303 && method != "GET" && method != "HEAD"
        if keepsBody {
            next.httpBody = previous.httpBody
        } else {
            next.httpBody = nil
            next.httpBodyStream = nil
            next.setValue(nil, forHTTPHeaderField: "Content-Type")
            next.setValue(nil, forHTTPHeaderField: "Content-Length")
        }
        next.setValue(nil, forHTTPHeaderField: "Cookie")
        next.timeoutInterval = previous.timeoutInterval
        return next
    }

    /// Errors from FoundationNetworking can arrive as `NSError` in `NSURLErrorDomain`, which does not
    /// bridge to `URLError` on Linux; callers should see a `URLError` with the same code either way.
    package static func urlError(_ error: any Error) -> any Error {
        if error is URLError { return error }
        let ns = error as NSError
        guard ns.domain == NSURLErrorDomain else { return error }
        // Failable on Linux, not on Apple platforms: through an optional, the same line compiles without
        // warnings on both.
        let code: URLError.Code? = URLError.Code(rawValue: ns.code)
        return URLError(code ?? .unknown, userInfo: ns.userInfo)
    }
}
