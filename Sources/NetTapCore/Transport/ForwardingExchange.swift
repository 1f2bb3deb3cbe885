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
final class ForwardingExchange: @unchecked Sendable {
    private struct State {
        var request: URLRequest
        var continuation: CheckedContinuation<HTTPResponse, any Error>?
        var innerTask: URLSessionTask?
        var pendingRedirect: URLRequest?
        var redirectError: URLError?
        var hops = 0
        var headDelivered = false
        var refusedChallenge = false
        var cancelled = false
    }

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
    }

    func start(_ continuation: CheckedContinuation<HTTPResponse, any Error>) {
        let alreadyCancelled = state.withLock { state -> Bool in
            state.continuation = continuation
            return state.cancelled
        }
        if alreadyCancelled {
            resumeHead(throwing: URLError(.cancelled))
            return
        }
        launchCurrentRequest()
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

    private func launchCurrentRequest() {
        DispatchQueue.global().async { [self] in
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
    }

    // MARK: - Delegate callbacks (on the forwarding session's delegate queue)

    func didReceive(response: URLResponse, from task: URLSessionTask) {
        let deliver = state.withLock { state -> Bool in
            guard state.innerTask === task, state.pendingRedirect == nil, !state.headDelivered else { return false }
            state.headDelivered = true
            return true
        }
        guard deliver else { return }
        context.markFirstByte()
        resumeHead(returning: makeResponse(response))
    }

    func didReceive(data: Data, from task: URLSessionTask) {
        let relay = state.withLock { state in
            state.innerTask === task && state.pendingRedirect == nil && state.headDelivered
        }
        if relay { channel.send(data) }
    }

    func willRedirect(response: HTTPURLResponse, newRequest: URLRequest, from task: URLSessionTask) {
        let hop = RedirectHop(
            method: task.currentRequest?.httpMethod ?? "GET",
            url: response.url ?? task.currentRequest?.url ?? newRequest.url ?? URL(fileURLWithPath: "/"),
            statusCode: response.statusCode,
            headers: HTTPHeaders(response.allHeaderFields),
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
            launchCurrentRequest()
        case .fail(let error):
            let mapped = Self.urlError(error)
            resumeHead(throwing: mapped)
            channel.finish(throwing: mapped)
        case .finish(let lateHead):
            if let lateHead {
                state.withLock { $0.headDelivered = true }
                context.markFirstByte()
                resumeHead(returning: makeResponse(lateHead))
            }
            channel.finish()
        }
    }

    // MARK: - Helpers

    private func resumeHead(returning response: HTTPResponse) {
        let continuation = state.withLock { state in
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume(returning: response)
    }

    private func resumeHead(throwing error: any Error) {
        let continuation = state.withLock { state in
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume(throwing: error)
    }

    private func makeResponse(_ response: URLResponse) -> HTTPResponse {
        let http = response as? HTTPURLResponse
        let length = response.expectedContentLength
        return HTTPResponse(
            statusCode: http?.statusCode ?? 200,
            headers: HTTPHeaders(http?.allHeaderFields ?? [:]),
            url: response.url,
            httpVersion: "HTTP/1.1",
            body: ResponseBody(channel: channel, expectedLength: length >= 0 ? length : nil)
        )
    }

    /// The request for the next hop, per RFC 9110 §15.4: 301/302 turn POST into GET, 303 turns anything but HEAD into
    /// GET, 307/308 keep the method and the body.
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
        if method == previousMethod && (statusCode == 307 || statusCode == 308 || method != "GET") {
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
    static func urlError(_ error: any Error) -> any Error {
        if error is URLError { return error }
        let ns = error as NSError
        guard ns.domain == NSURLErrorDomain else { return error }
        return URLError(URLError.Code(rawValue: ns.code) ?? .unknown, userInfo: ns.userInfo)
    }
}
