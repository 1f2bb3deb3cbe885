import Foundation
import NetTapCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension StubResponse {
    /// Waits the latency, then fails or builds the `HandlerResponse` the app receives.
    ///
    /// - Throws: `URLError(failure)` for a failure; `URLError(.fileDoesNotExist)` for a missing body file;
    ///   `CancellationError` when cancelled during the latency; what a dynamic closure throws.
    func answer(_ request: URLRequest, clock: any Clock<Duration>) async throws -> HandlerResponse {
        if latency > .zero {
            try await clock.sleep(for: latency)
        }
        switch kind {
        case .failure(let code):
            throw SimulatedFailure.error(code, url: request.url)
        case .dynamic(let respond):
            // The app's closure may call URLSession, which traps on URLSession's own queue.
            await URLSessionQueueWindow.leave()
            var computed = try await respond(request)
            if computed.fault == nil { computed.fault = fault }
            return try await computed.answer(request, clock: clock)
        case .http:
            break
        }
        let source: BodySource
        var headers = self.headers
        switch body {
        case .data(let data):
            source = .memory(data)
        case .json(let value):
            source = .memory(try value.data())
            if !headers.contains(name: "Content-Type") {
                headers.add(name: "Content-Type", value: "application/json")
            }
        case .file(let url):
            source = try .opening(url)
        }
        headers.remove(name: "Content-Encoding")
        if !headers.contains(name: "Content-Length") && !Self.forbidsBody(statusCode) {
            headers.add(name: "Content-Length", value: String(source.byteCount))
        }
        let sendsBytes = request.httpMethod?.uppercased() != "HEAD" && !Self.forbidsBody(statusCode)
        guard sendsBytes else {
            // The interceptor never delivers the body of a HEAD, 1xx, 204 or 304 answer and cancels it at the
            // head (as libcurl does; platform-notes §10), so a body duration passes before the head instead:
            // the transaction still takes as long.
            try await PacedBody.waitForUndeliveredBody(pacing: pacing, clock: clock)
            return HandlerResponse(statusCode: statusCode, headers: headers, url: request.url, body: .empty)
        }
        let body = PacedBody.make(source: source, pacing: pacing, clock: clock)
        return HandlerResponse(
            statusCode: statusCode,
            headers: headers,
            url: request.url,
            body: fault.map(body.withFault) ?? body
        )
    }

    /// Whether a status never has a body (RFC 9110 §15.3.5, §15.4.5: 1xx, 204, 304).
    static func forbidsBody(_ statusCode: Int) -> Bool {
        (100..<200).contains(statusCode) || statusCode == 204 || statusCode == 304
    }
}
