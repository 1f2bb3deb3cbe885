import Foundation
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A minimal custom protocol: answers 200 with a fixed body inline in `startLoading`.
///
/// The floor of any custom `URLProtocol` in FoundationNetworking: the `breakdown` and `mock` scenarios subtract
/// it from NetTap's time to find NetTap's own part. Set ``body`` before the first request.
final class BareProtocol: URLProtocol {
    /// The body every request gets (the same bytes as the small file).
    static let body = Mutex(Data())

    /// Creates a session whose requests this protocol answers (it comes first in `protocolClasses`).
    /// - Returns: The session, with a default configuration otherwise.
    static func makeSession() -> URLSession {
        let configuration = URLSessionConfiguration.default
        configuration.protocolClasses = [BareProtocol.self] + (configuration.protocolClasses ?? [])
        return URLSession(configuration: configuration)
    }

    override class func canInit(with request: URLRequest) -> Bool { true }

    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
        guard let client, let url = request.url else { return }
        let body = Self.body.withLock { $0 }
        let headers = ["Content-Type": "text/plain", "Content-Length": String(body.count)]
        guard let response = HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: headers)
        else {
            client.urlProtocol(self, didFailWithError: URLError(.badServerResponse))
            return
        }
        client.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
        client.urlProtocol(self, didLoad: body)
        client.urlProtocolDidFinishLoading(self)
    }

    override func stopLoading() {}
}
