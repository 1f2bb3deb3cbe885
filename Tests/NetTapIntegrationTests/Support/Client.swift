import Foundation
import NetTapCore
import NetTapCrypto
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How the app consumes a response: the three caller shapes FoundationNetworking treats differently.
enum CallerStyle: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// `try await session.data(for:)` / `upload(for:from:)`.
    case async
    /// `session.dataTask(with:completionHandler:)` / `uploadTask(with:from:completionHandler:)`.
    case completionHandler
    /// A session whose `URLSessionDataDelegate` collects `didReceive data` chunks.
    case delegate

    var testDescription: String { rawValue }
}

/// The body of an upload task.
enum Upload: Sendable {
    case data(Data)
    case file(URL)
}

/// When the app cancels its task.
enum Cancellation: Sendable, Equatable {
    /// Never.
    case none
    /// Delegate style only: in the first `didReceive data`.
    case afterFirstChunk
    /// Right after `resume()` (for the async style: the Swift task is cancelled right after it starts).
    case immediately
}

/// What the app observed for one request: everything the fidelity suite compares.
struct Outcome: Sendable, CustomStringConvertible {
    var statusCode: Int?
    /// Response headers with lower-cased names.
    var headers: [String: String] = [:]
    /// The response's header names as `HTTPURLResponse.allHeaderFields` spells them, sorted (over HTTP/2 they
    /// arrive lower-case).
    var headerNames: [String] = []
    var body = Data()
    var url: URL?
    var expectedContentLength: Int64?
    /// The error, as `domain code`; `nil` when the request succeeded.
    var error: String?
    /// Whether the error arrived as a `URLError` (an `NSError` in `NSURLErrorDomain` does not bridge on Linux).
    var errorIsURLError = false
    /// The error's `localizedDescription`; `nil` when the request succeeded.
    var errorDescription: String?
    /// The keys of the error's `userInfo`, sorted.
    var errorUserInfoKeys: [String] = []
    /// The `didReceive data` calls a delegate saw (0 for other styles).
    var chunkCount = 0
    /// Delegate style with `digestingBody`: the SHA-256 of the body's bytes, which are then not kept in `body`.
    var bodyDigest: Data?
    /// Delegate style with `digestingBody`: how many body bytes arrived.
    var digestedByteCount: Int64 = 0

    var errorCode: Int? {
        guard let error, let code = error.split(separator: " ").last else { return nil }
        return Int(code)
    }

    var description: String {
        if let error { return "error \(error)" }
        return "\(statusCode ?? -1) \(body.count) bytes"
    }

    mutating func record(response: URLResponse?) {
        guard let http = response as? HTTPURLResponse else { return }
        statusCode = http.statusCode
        url = http.url
        expectedContentLength = http.expectedContentLength
        for (name, value) in http.allHeaderFields {
            guard let name = name as? String, let value = value as? String else { continue }
            headers[name.lowercased()] = value
            headerNames.append(name)
        }
        headerNames.sort()
    }

    mutating func record(error: (any Error)?) {
        guard let error else { return }
        errorIsURLError = error is URLError
        let ns = error as NSError
        self.error = "\(ns.domain) \(ns.code)"
        errorDescription = ns.localizedDescription
        errorUserInfoKeys = ns.userInfo.keys.sorted()
    }
}

/// A pair of sessions (plain and delegate-based) built from one configuration: the direct side or the NetTap
/// side of a differential test.
final class Client: Sendable {
    let name: String
    let plain: URLSession
    let delegating: URLSession
    private let recorder = DelegateRecorder()

    init(name: String, configuration: URLSessionConfiguration) {
        self.name = name
        plain = URLSession(configuration: configuration)
        delegating = URLSession(configuration: configuration, delegate: recorder, delegateQueue: nil)
    }

    /// Sessions made by `interceptor` (so they run through its own pipeline and capture log).
    init(name: String, interceptor: NetTapInterceptor, configuration: URLSessionConfiguration = .default) {
        self.name = name
        plain = interceptor.makeSession(configuration: configuration)
        delegating = interceptor.makeSession(configuration: configuration, delegate: recorder)
    }

    /// Plain `URLSession` with the default configuration.
    static let direct = Client(name: "direct", configuration: .default)
    /// A session from `NetTapInterceptor.shared.makeConfiguration()`.
    static let nettap = Client(name: "nettap", configuration: NetTapInterceptor.shared.makeConfiguration())

    /// Sends one request in the given caller style and reports what the app saw.
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - style: The caller style.
    ///   - upload: When set, the request is an upload task with this body.
    ///   - cancellation: When the app cancels the task.
    ///   - digestingBody: Delegate style only: hash and count the body's chunks (`bodyDigest`,
    ///     `digestedByteCount`) instead of keeping them, for bodies too large to hold.
    /// - Returns: What the app saw.
    func send(
        _ request: URLRequest,
        style: CallerStyle,
        upload: Upload? = nil,
        cancellation: Cancellation = .none,
        digestingBody: Bool = false
    ) async -> Outcome {
        switch style {
        case .async:
            let work = Task { [plain] in
                var outcome = Outcome()
                do {
                    let (data, response): (Data, URLResponse)
                    switch upload {
                    case .data(let body)?: (data, response) = try await plain.upload(for: request, from: body)
                    case .file(let file)?: (data, response) = try await plain.upload(for: request, fromFile: file)
                    case nil: (data, response) = try await plain.data(for: request)
                    }
                    outcome.record(response: response)
                    outcome.body = data
                } catch {
                    outcome.record(error: error)
                }
                return outcome
            }
            if case .immediately = cancellation { work.cancel() }
            return await work.value
        case .completionHandler:
            return await sendWithCompletionHandler(request, on: plain, upload: upload, cancellation: cancellation)
        case .delegate:
            return await withCheckedContinuation { continuation in
                let task: URLSessionTask
                switch upload {
                case .data(let body)?: task = delegating.uploadTask(with: request, from: body)
                case .file(let file)?: task = delegating.uploadTask(with: request, fromFile: file)
                case nil: task = delegating.dataTask(with: request)
                }
                recorder.register(
                    task,
                    cancelAfterFirstChunk: cancellation == .afterFirstChunk,
                    digestingBody: digestingBody,
                    continuation: continuation
                )
                task.resume()
                if case .immediately = cancellation { task.cancel() }
            }
        }
    }

    /// Sends with a completion handler; `session` may be the delegate-based one (mixed use).
    ///
    /// - Returns: What the app saw.
    func sendWithCompletionHandler(
        _ request: URLRequest,
        on session: URLSession,
        upload: Upload? = nil,
        cancellation: Cancellation = .none
    ) async -> Outcome {
        await withCheckedContinuation { continuation in
            let handler: @Sendable (Data?, URLResponse?, (any Error)?) -> Void = { data, response, error in
                var outcome = Outcome()
                outcome.record(response: response)
                outcome.record(error: error)
                outcome.body = data ?? Data()
                continuation.resume(returning: outcome)
            }
            let task: URLSessionTask
            switch upload {
            case .data(let body)?:
                task = session.uploadTask(with: request, from: body, completionHandler: handler)
            case .file(let file)?:
                task = session.uploadTask(with: request, fromFile: file, completionHandler: handler)
            case nil:
                task = session.dataTask(with: request, completionHandler: handler)
            }
            task.resume()
            if case .immediately = cancellation { task.cancel() }
        }
    }
}

/// The delegate of the delegate-style sessions: collects each task's response, chunks and error.
final class DelegateRecorder: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private struct Entry {
        var outcome = Outcome()
        var cancelAfterFirstChunk: Bool
        var digest: StreamingDigest?
        var continuation: CheckedContinuation<Outcome, Never>
    }

    private let entries = Locked<[Int: Entry]>([:])

    func register(
        _ task: URLSessionTask,
        cancelAfterFirstChunk: Bool,
        digestingBody: Bool = false,
        continuation: CheckedContinuation<Outcome, Never>
    ) {
        let digest = digestingBody ? try? StreamingDigest(.sha256) : nil
        entries.withLock {
            $0[task.taskIdentifier] = Entry(
                cancelAfterFirstChunk: cancelAfterFirstChunk,
                digest: digest,
                continuation: continuation
            )
        }
    }

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        entries.withLock { $0[dataTask.taskIdentifier]?.outcome.record(response: response) }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let cancel = entries.withLock { entries -> Bool in
            guard var entry = entries[dataTask.taskIdentifier] else { return false }
            if let digest = entry.digest {
                digest.update(data)
                entry.outcome.digestedByteCount += Int64(data.count)
            } else {
                entry.outcome.body.append(data)
            }
            entry.outcome.chunkCount += 1
            let cancel = entry.cancelAfterFirstChunk && entry.outcome.chunkCount == 1
            entries[dataTask.taskIdentifier] = entry
            return cancel
        }
        if cancel { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let entry = entries.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        var outcome = entry.outcome
        if outcome.statusCode == nil { outcome.record(response: task.response) }
        outcome.record(error: error)
        outcome.bodyDigest = try? entry.digest?.finalize()
        entry.continuation.resume(returning: outcome)
    }
}
