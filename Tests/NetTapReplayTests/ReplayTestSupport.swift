import Foundation
import NetTapCore
import NetTapHAR
import NetTapReplay
import NetTapTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A temporary folder removed when the value is released.
final class TemporaryFolder: Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("nettap-replay-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    deinit { try? FileManager.default.removeItem(at: url) }
}

/// A transport answering `<method> <path>` with a numbered body, so each network answer is recognisable.
final class CountingTransport: Transport, Sendable {
    private let count = Locked(0)
    private let received = Locked<[URLRequest]>([])
    private let headers: HeaderFields

    init(headers: HeaderFields = ["Content-Type": "text/plain"]) {
        self.headers = headers
    }

    var requests: [URLRequest] { received.withLock { $0 } }

    func send(_ request: URLRequest, context: TransactionContext) async throws -> HandlerResponse {
        let number = count.withLock { count -> Int in
            count += 1
            return count
        }
        received.withLock { $0.append(request) }
        context.markRequestSent(request)
        context.markFirstByte()
        let text = "\(request.httpMethod ?? "GET") \(request.url?.path ?? "") #\(number)"
        return HandlerResponse(statusCode: 200, headers: headers, url: request.url, body: .string(text))
    }
}

/// Builds requests tersely.
func makeRequest(
    _ url: String,
    method: String = "GET",
    headers: [String: String] = [:],
    body: String? = nil
) throws -> URLRequest {
    var request = URLRequest(url: try #require(URL(string: url)))
    request.httpMethod = method
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    request.httpBody = body.map { Data($0.utf8) }
    return request
}

extension PipelineHarness.Result {
    var text: String { String(decoding: body, as: UTF8.self) }
}

/// Records `requests` into a new cassette at `file` (mode `.all`) and returns the flushed handler.
@discardableResult
func recordCassette(
    at file: URL,
    _ requests: [URLRequest],
    transport: any Transport = CountingTransport(),
    redactor: Redactor = .default
) async throws -> ReplayHandler {
    let handler = try ReplayHandler(cassette: file, mode: .all, redactor: redactor)
    let harness = PipelineHarness(handlers: [handler], transport: transport)
    for request in requests { _ = try await harness.send(request) }
    try await handler.flush()
    return handler
}
