import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension NetTapURLProtocol {
    /// One intercepted request from the moment its body is known to the last client call.
    ///
    /// Two paths:
    /// - **Forwarding fast path** (no handlers, the forwarding transport): the forwarding exchange reports the
    ///   head and body on URLSession's serial queue and the relay hands them to the app's client right there,
    ///   with no task hop. This is the common "capture everything" setup, and it costs about as much as the
    ///   forwarded request itself.
    /// - **Pipeline path** (any handler, or another transport): the pipeline runs in a Swift task, with
    ///   handler-answered redirects followed (``HandlerRedirects``).
    struct Job: @unchecked Sendable {
        let original: URLRequest
        let upload: CallerInfo.UploadBody
        let additionalHeaders: [AnyHashable: Any]?
        let pipeline: Pipeline
        let context: TransactionContext
        let log: CaptureLog
        let bodyByteLimit: Int
        let relay: ClientRelay

        /// Whether resolving the body reads a stream or a file (and so must not run on URLSession's queue).
        var mayBlockReadingBody: Bool {
            switch upload {
            case .file, .stream: return true
            case .data: return false
            case .none, .unknown: return original.httpBody == nil && original.httpBodyStream != nil
            }
        }

        /// Runs the request, inline where `startLoading` runs it on URLSession's work queue
        /// (``URLSessionQueueWindow``).
        func run() {
            let onURLSessionQueue = URLSessionQueueWindow.isCurrent
            guard let resolved = resolveBody() else { return }
            let request = resolved.request
            let recorder = TransactionRecorder(
                request: request,
                body: resolved.body,
                context: context,
                log: log,
                bodyByteLimit: bodyByteLimit
            )
            guard pipeline.handlers.isEmpty else {
                // In `startLoading`, an answer the handlers make without waiting (a stub, a cassette entry) reaches
                // the client right here, as a protocol answering inline does: no hop to a task, none back.
                if onURLSessionQueue {
                    relay.deliveringInline { runPipeline(request, recorder: recorder) }
                } else {
                    runPipeline(request, recorder: recorder)
                }
                return
            }
            runWithoutHandlers(request, recorder: recorder, onURLSessionQueue: onURLSessionQueue)
        }

        /// The request with its body read and the app's headers added, noting on the context how the app sent the
        /// body; `nil` when the body could not be read (the failure is already reported).
        private func resolveBody() -> RequestBodyResolver.Resolved? {
            let resolved: RequestBodyResolver.Resolved
            do {
                resolved = try RequestBodyResolver.resolve(
                    original,
                    upload: upload,
                    additionalHeaders: additionalHeaders
                )
            } catch {
                fail(readingBody: error)
                return nil
            }
            context.requestBodyWasStream = resolved.bodyWasStream
            switch upload {
            case .data, .file, .stream: context.requestBodyWasUpload = true
            case .none, .unknown: break
            }
            return resolved
        }

        /// No handlers: the transport's own exchange serves the request on the fast path
        /// (``forward(_:recorder:start:cancel:)``), or, for a transport without one, the empty pipeline runs.
        private func runWithoutHandlers(_ request: URLRequest, recorder: TransactionRecorder, onURLSessionQueue: Bool) {
            #if canImport(CNetTapCurl)
            if pipeline.transport is CurlTransport,
                let exchange = CurlTransport.shared.makeExchange(for: request, context: context)
            {
                context.markRequestSent(request)
                forward(request, recorder: recorder, start: exchange.start, cancel: exchange.cancel)
                return
            }
            #endif
            if let forwarding = forwardingTransport {
                context.markRequestSent(request)
                let exchange = ForwardingExchange(
                    request: request,
                    context: context,
                    session: forwarding.forwardingSession(for: context.forwardingProfile ?? .standard),
                    sendsBodyAsStream: context.requestBodyWasStream
                )
                forward(
                    request,
                    recorder: recorder,
                    start: { exchange.start(onURLSessionQueue: onURLSessionQueue, $0) },
                    cancel: exchange.cancel
                )
            } else {
                runPipeline(request, recorder: recorder)
            }
        }

        /// The URLSession transport when it serves the request directly: set as the transport, or as the fallback
        /// of a libcurl transport that cannot serve it.
        private var forwardingTransport: ForwardingTransport? {
            if let forwarding = pipeline.transport as? ForwardingTransport { return forwarding }
            return pipeline.transport is CurlTransport ? ForwardingTransport.shared : nil
        }

        /// The fast path: the transport's exchange reports the head and body, and the relay hands them to the app's
        /// client without a task hop.
        /// - Parameters:
        ///   - request: The request as forwarded.
        ///   - recorder: The transaction's recorder.
        ///   - start: Starts the exchange; its callback gets the final head or the error.
        ///   - cancel: Cancels the exchange (the app stopped the task).
        private func forward(
            _ request: URLRequest,
            recorder: TransactionRecorder,
            start: (@escaping @Sendable (Result<HandlerResponse, any Error>) -> Void) -> Void,
            cancel: @escaping @Sendable () -> Void
        ) {
            let requestURL = request.url ?? URL(fileURLWithPath: "/")
            let relay = relay
            relay.setStopAction {
                recorder.finish(error: URLError(.cancelled))
                cancel()
            }
            start { result in
                switch result {
                case .success(let response):
                    deliver(response, requestURL: requestURL, recorder: recorder)
                case .failure(let error):
                    recorder.finish(error: error)
                    relay.fail(error)
                }
            }
        }

        /// The pipeline task, and whether it must be cancelled as soon as it exists (a timeout came first).
        private typealias PipelineTaskBox = Locked<(task: Task<Void, Never>?, isCancelled: Bool)>

        /// Runs the handlers in a Swift task and relays their answer the way the platform would relay a network
        /// answer: cookies stored, no body where there may be none, the platform's error keys, and the request's
        /// idle timeout measured on the injected clock (``HandlerAnswers``, ``IdleTimeout``).
        private func runPipeline(_ request: URLRequest, recorder: TransactionRecorder) {
            let requestURL = request.url ?? URL(fileURLWithPath: "/")
            let channelBox = Locked<BodyChannel?>(nil)
            let taskBox = PipelineTaskBox((nil, false))
            let pipeline = pipeline
            let context = context
            let relay = relay
            let profile = context.forwardingProfile ?? .standard
            let idle = Self.startIdleTimeout(
                for: request,
                sessionTimeout: profile.timeoutIntervalForRequest,
                context: context,
                relay: relay,
                recorder: recorder,
                taskBox: taskBox,
                channelBox: channelBox
            )
            let pipelineTask = Self.startTask {
                do {
                    let (answer, finalRequest) = try await HandlerRedirects.send(
                        request,
                        through: pipeline,
                        context: context
                    )
                    relayAnswer(
                        answer,
                        to: finalRequest,
                        requestURL: requestURL,
                        profile: profile,
                        recorder: recorder,
                        idle: idle,
                        channelBox: channelBox
                    )
                } catch {
                    // After a timeout or a stop the outcome is already reported.
                    guard idle?.stop() ?? true else { return }
                    let failure = HandlerAnswers.appError(error, requestURL: requestURL)
                    recorder.finish(error: failure)
                    relay.fail(failure)
                }
            }
            if taskBox.withLock({ box -> Bool in
                box.task = pipelineTask
                return box.isCancelled
            }) {
                pipelineTask.cancel()
            }
            relay.setStopAction {
                idle?.stop()
                pipelineTask.cancel()
                channelBox.withLock { $0 }?.cancel()
                recorder.finish(error: URLError(.cancelled))
            }
        }

        /// Starts the pipeline path's idle watch, or returns `nil` when the request has no timeout.
        ///
        /// When the watch comes due it fails the request with `URLError(.timedOut)` and cancels the pipeline's task
        /// (at once, or as soon as it exists: `taskBox`) and the answer's body channel.
        private static func startIdleTimeout(
            for request: URLRequest,
            sessionTimeout: TimeInterval,
            context: TransactionContext,
            relay: ClientRelay,
            recorder: TransactionRecorder,
            taskBox: PipelineTaskBox,
            channelBox: Locked<BodyChannel?>
        ) -> IdleTimeout? {
            RequestTimeout.interval(for: request, sessionTimeout: sessionTimeout).map { interval in
                // While the forwarding transport waits for a response head, its own session times the request out
                // with the platform's rules (its timer started when the request reached it, and upload progress
                // resets it), and the handlers above it see that `URLError(.timedOut)`, so an offline cache can
                // answer it. Until then this watch only looks again every interval.
                IdleTimeout.start(
                    after: interval,
                    on: context.clock,
                    grace: { context.isAwaitingTransportHead ? interval : nil }
                ) {
                    let error = SimulatedFailure.error(.timedOut, url: request.url)
                    recorder.finish(error: error)
                    relay.fail(error)
                    taskBox.withLock { box -> Task<Void, Never>? in
                        box.isCancelled = true
                        return box.task
                    }?
                    .cancel()
                    channelBox.withLock { $0 }?.cancel()
                }
            }
        }

        /// Relays the pipeline's answer to `finalRequest` (the last of any redirects the handlers answered): no body
        /// where the method or status allows none, `Content-Length` from a body of known length, its cookies stored
        /// while the app still waits.
        private func relayAnswer(
            _ answer: HandlerResponse,
            to finalRequest: URLRequest,
            requestURL: URL,
            profile: ForwardingProfile,
            recorder: TransactionRecorder,
            idle: IdleTimeout?,
            channelBox: Locked<BodyChannel?>
        ) {
            let answerURL = finalRequest.url ?? requestURL
            let method = finalRequest.httpMethod ?? "GET"
            let response = HandlerAnswers.framed(
                HandlerAnswers.withoutForbiddenBody(answer, method: method, context: context),
                method: method
            )
            channelBox.withLock { $0 = response.body.channel }
            if relay.isRunning {
                HandlerAnswers.storeCookies(of: response, for: response.url ?? answerURL, profile: profile)
            }
            deliver(response, requestURL: answerURL, recorder: recorder, idle: idle, isPipelinePath: true)
        }

        /// Starts the pipeline's task on the current thread.
        ///
        /// The task runs here until its first suspension (`Task.immediate`, Swift 6.2 runtimes): the handlers start
        /// at once, and an answer made without waiting is relayed before this returns. Older Apple runtimes start
        /// an ordinary task.
        private static func startTask(_ operation: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
            #if compiler(>=6.2)
            if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) {
                return Task.immediate(operation: operation)
            }
            #endif
            return Task(operation: operation)
        }

        /// Relays the head, then every body chunk and the end, recording them on the way.
        /// - Parameters:
        ///   - response: The response to relay.
        ///   - requestURL: The URL the head names when the response has none.
        ///   - recorder: The transaction's recorder.
        ///   - idle: The pipeline path's idle timeout, touched by the head and every chunk; `nil` on the fast path
        ///     (the forwarding session's own timer runs there).
        ///   - isPipelinePath: Whether body errors get the pipeline path's error rules (``HandlerAnswers``).
        private func deliver(
            _ response: HandlerResponse,
            requestURL: URL,
            recorder: TransactionRecorder,
            idle: IdleTimeout? = nil,
            isPipelinePath: Bool = false
        ) {
            let channel = response.body.channel
            guard relay.isRunning else {
                channel.cancel()
                return
            }
            guard let head = response.urlResponse(requestURL: requestURL) else {
                channel.cancel()
                guard idle?.stop() ?? true else { return }
                let error = URLError(.badServerResponse)
                recorder.finish(error: error)
                relay.fail(error)
                return
            }
            // Touch before marking the head: the idle watch's grace ends with the first byte, and a watch that came
            // due meanwhile (a transport's own timeout answered by a handler as the watch's interval ran out) must
            // see either the grace or the new deadline, never neither.
            idle?.touch()
            context.markFirstByte()
            recorder.responseHead(response, requestURL: requestURL)
            let relayAll = {
                relay.head(head)
                relayBody(
                    of: channel,
                    requestURL: requestURL,
                    recorder: recorder,
                    idle: idle,
                    isPipelinePath: isPipelinePath
                )
            }
            // A body already complete in memory (a stub's, a cassette entry's) goes with its head in one hop to the
            // task's work queue; no other thread can relay for this request meanwhile.
            if channel.isFinished {
                ClientCallBatch.collecting(relayAll)
            } else {
                relayAll()
            }
        }

        /// Relays every body chunk and the end, recording them on the way (``deliver(_:requestURL:recorder:idle:isPipelinePath:)``).
        private func relayBody(
            of channel: BodyChannel,
            requestURL: URL,
            recorder: TransactionRecorder,
            idle: IdleTimeout?,
            isPipelinePath: Bool
        ) {
            let relay = relay
            channel.setSink { event in
                switch event {
                case .chunk(let data):
                    idle?.touch()
                    recorder.responseChunk(data)
                    relay.chunk(data) { count in channel.acknowledge(count) }
                case .end(nil):
                    guard idle?.stop() ?? true else { return }
                    recorder.finish(error: nil)
                    relay.finish()
                case .end(let error?):
                    guard idle?.stop() ?? true else { return }
                    let failure = isPipelinePath ? HandlerAnswers.appError(error, requestURL: requestURL) : error
                    recorder.finish(error: failure)
                    relay.fail(failure)
                }
            }
        }

        private func fail(readingBody error: any Error) {
            let recorder = TransactionRecorder(
                request: original,
                body: nil,
                context: context,
                log: log,
                bodyByteLimit: bodyByteLimit
            )
            let underlying = (error as? RequestBodyResolver.ReadFailure)?.underlying ?? error
            let failure = URLError(
                .cannotDecodeRawData,
                userInfo: [
                    NSLocalizedDescriptionKey: "NetTap could not read the request body: \(underlying)",
                    NSUnderlyingErrorKey: underlying,
                ]
            )
            recorder.finish(error: failure)
            relay.fail(failure)
        }
    }
}
