import Foundation
import NetTapCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Answers every request itself: JSON echoing the path, a PNG under `/image`, and a login answer holding a secret.
struct AppServer: TransactionHandler {
    let name = "mock"
    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0xFF, 0x10])
    /// `/hang` waits for an element of this stream before answering.
    var release: AsyncStream<Void>?

    func handle(_ request: URLRequest, context: TransactionContext, next: Next) async throws -> HandlerResponse {
        let path = request.url?.path ?? "/"
        if path == "/hang", let release {
            for await _ in release { break }
        }
        context.answer(by: name)
        if path == "/image" {
            return HandlerResponse(statusCode: 200, headers: ["Content-Type": "image/png"], body: .data(Self.png))
        }
        let body = path == "/login" ? #"{"token":"s3cr3t-token-value","user":"ann"}"# : #"{"path":"\#(path)"}"#
        return HandlerResponse(statusCode: 200, headers: ["Content-Type": "application/json"], body: .string(body))
    }
}
