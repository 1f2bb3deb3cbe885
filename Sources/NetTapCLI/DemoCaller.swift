import Foundation
import NetTapCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The three ways an app asks URLSession for data; the demo uses each so every path through NetTap shows.
package enum DemoCaller: String, Sendable, Hashable, CaseIterable, Codable {
    /// `try await session.data(for:)`.
    case async
    /// `session.dataTask(with:completionHandler:)`.
    case completionHandler = "completion"
    /// A session delegate receiving `didReceive response`, `didReceive data` and `didCompleteWithError`.
    case delegate

    /// What the caller received.
    package struct Outcome: Sendable {
        /// The HTTP response, when one arrived.
        package var statusCode: Int?
        /// The `Location` field of the response, when present.
        package var location: String?
        /// The body bytes the caller received.
        package var data: Data
        /// The error the caller received, when the request failed.
        package var error: URLError?
    }

    /// Sends one request in this caller's style through a session made by `interceptor`.
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - interceptor: The interceptor whose session carries the request.
    /// - Returns: What the caller received; failures are in ``Outcome/error``, never thrown.
    package func send(_ request: URLRequest, through interceptor: NetTapInterceptor) async -> Outcome {
        switch self {
        case .async:
            let session = interceptor.makeSession()
            defer { session.finishTasksAndInvalidate() }
            do {
                let (data, response) = try await session.data(for: request)
                return Self.outcome(response: response, data: data, error: nil)
            } catch {
                return Self.outcome(response: nil, data: Data(), error: error)
            }
        case .completionHandler:
            let session = interceptor.makeSession()
            defer { session.finishTasksAndInvalidate() }
            return await withCheckedContinuation { continuation in
                let task = session.dataTask(with: request) { data, response, error in
                    continuation.resume(returning: Self.outcome(response: response, data: data ?? Data(), error: error))
                }
                task.resume()
            }
        case .delegate:
            return await withCheckedContinuation { continuation in
                let collector = DelegateCollector { continuation.resume(returning: $0) }
                let session = interceptor.makeSession(delegate: collector)
                session.dataTask(with: request).resume()
                session.finishTasksAndInvalidate()
            }
        }
    }

    fileprivate static func outcome(response: URLResponse?, data: Data, error: (any Error)?) -> Outcome {
        let http = response as? HTTPURLResponse
        let urlError = error.map { ($0 as? URLError) ?? URLError(.unknown, userInfo: [NSUnderlyingErrorKey: $0]) }
        return Outcome(
            statusCode: http?.statusCode,
            location: http?.value(forHTTPHeaderField: "Location"),
            data: data,
            error: urlError
        )
    }
}

/// A data delegate that gathers one task's response and body chunks and reports them when the task completes.
private final class DelegateCollector: NSObject, URLSessionDataDelegate, Sendable {
    private struct State {
        var response: URLResponse?
        var data = Data()
        var report: (@Sendable (DemoCaller.Outcome) -> Void)?
    }

    private let state: Locked<State>

    init(report: @escaping @Sendable (DemoCaller.Outcome) -> Void) {
        state = Locked(State(report: report))
    }

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        state.withLock { $0.response = response }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        state.withLock { $0.data.append(data) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (response, data, report) = state.withLock { state in
            defer { state.report = nil }
            return (state.response, state.data, state.report)
        }
        report?(DemoCaller.outcome(response: response, data: data, error: error))
    }
}
