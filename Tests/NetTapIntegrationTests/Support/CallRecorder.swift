import Foundation
import NetTapCore
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Everything the app saw for one request, with the error object itself (for its `userInfo`).
struct Observed: @unchecked Sendable, CustomStringConvertible {
    var response: HTTPURLResponse?
    var body = Data()
    var error: (any Error)?
    /// The `didReceive data` calls a delegate saw (0 for other styles).
    var chunkCount = 0

    var nsError: NSError? { error.map { $0 as NSError } }

    /// The error's `userInfo` keys, sorted.
    var errorKeys: [String] { (nsError?.userInfo.keys.map { $0 } ?? []).sorted() }

    var description: String {
        if let nsError { return "error \(nsError.domain) \(nsError.code) \(errorKeys)" }
        return "\(response?.statusCode ?? -1) \(body.count) bytes"
    }
}

/// One delegate callback, as the recording delegate saw it.
enum Callback: Sendable, Equatable, CustomStringConvertible {
    case response(Int)
    case data(Int)
    case complete(Int)

    var description: String {
        switch self {
        case .response(let status): "response \(status)"
        case .data(let count): "data \(count)"
        case .complete(let code): "complete \(code)"
        }
    }
}

/// A session delegate that records every callback of every task, in order, and reports each task's end.
final class RecordingDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private struct Entry {
        var callbacks: [Callback] = []
        var observed = Observed()
        var onComplete: (@Sendable (Observed) -> Void)?
        var firstChunk: CheckedContinuation<Void, Never>?
        var byteWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let entries = Locked<[Int: Entry]>([:])

    /// Registers a task before it is resumed.
    func register(_ task: URLSessionTask, onComplete: @escaping @Sendable (Observed) -> Void) {
        entries.withLock { $0[task.taskIdentifier, default: Entry()].onComplete = onComplete }
    }

    /// Every callback the task got so far.
    func callbacks(of task: URLSessionTask) -> [Callback] {
        entries.withLock { $0[task.taskIdentifier]?.callbacks ?? [] }
    }

    /// Waits until the task's first `didReceive data`.
    func firstChunk(of task: URLSessionTask) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let arrived = entries.withLock { entries -> Bool in
                if entries[task.taskIdentifier]?.callbacks.contains(where: {
                    if case .data = $0 { true } else { false }
                })
                    == true
                {
                    return true
                }
                entries[task.taskIdentifier, default: Entry()].firstChunk = continuation
                return false
            }
            if arrived { continuation.resume() }
        }
    }

    /// Waits until the task's delegate has received at least `count` body bytes.
    func bytes(of task: URLSessionTask, atLeast count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let arrived = entries.withLock { entries -> Bool in
                if (entries[task.taskIdentifier]?.observed.body.count ?? 0) >= count { return true }
                entries[task.taskIdentifier, default: Entry()].byteWaiters.append((count, continuation))
                return false
            }
            if arrived { continuation.resume() }
        }
    }

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        entries.withLock { entries in
            let status = (response as? HTTPURLResponse)?.statusCode ?? -1
            entries[dataTask.taskIdentifier, default: Entry()].callbacks.append(.response(status))
            entries[dataTask.taskIdentifier, default: Entry()].observed.response = response as? HTTPURLResponse
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let waiters = entries.withLock { entries -> [CheckedContinuation<Void, Never>] in
            var entry = entries[dataTask.taskIdentifier, default: Entry()]
            entry.callbacks.append(.data(data.count))
            entry.observed.body.append(data)
            entry.observed.chunkCount += 1
            var waiters = entry.firstChunk.map { [$0] } ?? []
            entry.firstChunk = nil
            let received = entry.observed.body.count
            waiters += entry.byteWaiters.filter { $0.count <= received }.map(\.continuation)
            entry.byteWaiters.removeAll { $0.count <= received }
            entries[dataTask.taskIdentifier] = entry
            return waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (onComplete, observed) = entries.withLock { entries in
            var entry = entries[task.taskIdentifier, default: Entry()]
            entry.callbacks.append(.complete((error as NSError?)?.code ?? 0))
            entry.observed.error = error
            entries[task.taskIdentifier] = entry
            return (entry.onComplete, entry.observed)
        }
        onComplete?(observed)
    }
}

/// One request in flight in some caller style: cancel it, or await what the app saw.
final class Call: Sendable {
    /// The URLSession task (`nil` for the async style, whose task URLSession keeps to itself).
    let task: URLSessionTask?
    private let cancelAction: @Sendable () -> Void
    private let result: Task<Observed, Never>
    private let completions: Locked<Int>

    fileprivate init(
        task: URLSessionTask?,
        completions: Locked<Int>,
        cancel: @escaping @Sendable () -> Void,
        result: Task<Observed, Never>
    ) {
        self.task = task
        self.completions = completions
        self.cancelAction = cancel
        self.result = result
    }

    /// Cancels the app's task (`URLSessionTask.cancel()`, or the Swift task around `data(for:)`).
    func cancel() { cancelAction() }

    /// What the app saw.
    var value: Observed { get async { await result.value } }

    /// How many times the completion handler (or `data(for:)`) returned, or the delegate's `didComplete` ran.
    var completionCount: Int { completions.current }
}

/// Sessions made by an interceptor (or plain ones), with the full record of what the app saw.
final class CallRecorder: Sendable {
    let plain: URLSession
    let delegating: URLSession
    let delegate = RecordingDelegate()

    /// Sessions made by `interceptor`; plain sessions when it is `nil` (the direct side).
    init(interceptor: NetTapInterceptor?, configuration: URLSessionConfiguration = .default) {
        if let interceptor {
            plain = interceptor.makeSession(configuration: configuration)
            delegating = interceptor.makeSession(configuration: configuration, delegate: delegate)
        } else {
            plain = URLSession(configuration: configuration)
            delegating = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
        }
    }

    /// Lets the sessions go once their tasks are done: a URLSession keeps itself, its delegate and its queue
    /// alive until it is invalidated.
    deinit {
        plain.finishTasksAndInvalidate()
        delegating.finishTasksAndInvalidate()
    }

    /// Sends a request and waits for the outcome.
    func send(_ request: URLRequest, style: CallerStyle) async -> Observed {
        await start(request, style: style).value
    }

    /// Starts a request in the given caller style.
    func start(_ request: URLRequest, style: CallerStyle) -> Call {
        let completions = Locked(0)
        switch style {
        case .async:
            let work = Task { [plain] in
                var observed = Observed()
                do {
                    let (data, response) = try await plain.data(for: request)
                    observed.response = response as? HTTPURLResponse
                    observed.body = data
                } catch {
                    observed.error = error
                }
                completions.withLock { $0 += 1 }
                return observed
            }
            return Call(task: nil, completions: completions, cancel: { work.cancel() }, result: work)
        case .completionHandler:
            let (stream, continuation) = AsyncStream.makeStream(of: Observed.self)
            let task = plain.dataTask(with: request) { data, response, error in
                completions.withLock { $0 += 1 }
                var observed = Observed()
                observed.response = response as? HTTPURLResponse
                observed.body = data ?? Data()
                observed.error = error
                continuation.yield(observed)
            }
            task.resume()
            let result = Task {
                var first = Observed()
                for await observed in stream {
                    first = observed
                    break
                }
                return first
            }
            return Call(task: task, completions: completions, cancel: { task.cancel() }, result: result)
        case .delegate:
            let task = delegating.dataTask(with: request)
            let (stream, continuation) = AsyncStream.makeStream(of: Observed.self)
            delegate.register(task) { observed in
                completions.withLock { $0 += 1 }
                continuation.yield(observed)
            }
            task.resume()
            let result = Task {
                var first = Observed()
                for await observed in stream {
                    first = observed
                    break
                }
                return first
            }
            return Call(task: task, completions: completions, cancel: { task.cancel() }, result: result)
        }
    }
}
