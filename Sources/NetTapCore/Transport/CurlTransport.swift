import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

#if canImport(CNetTapCurl)
import CNetTapCurl
#endif

/// The transport that sends requests with NetTap's own HTTP client on libcurl: the default on Linux.
///
/// It drives the same `libcurl.so.4` FoundationNetworking loads, with the options a plain `URLSession` sets,
/// so the server sees the same bytes and the app the same answers, without a second `URLSession` task per
/// request. One multi handle per app session keeps connections and the per-host connection limit per session;
/// HTTPS negotiates HTTP/2 when the server offers it; a slow app pauses the transfer (`curl_easy_pause`).
/// Cookies go to and come from the app session's cookie storage; its request timeout applies as the platform
/// applies it; redirects are followed like on ``ForwardingTransport``. On Apple platforms, and when libcurl
/// cannot be set up, every request goes through ``ForwardingTransport/shared`` instead.
///
/// Thread safety: the shared instance may be used from any thread.
public final class CurlTransport: Transport {
    /// The process-wide libcurl transport.
    public static let shared = CurlTransport()

    private init() {}

    /// Whether requests really go through libcurl here (Linux, with libcurl set up).
    public var isAvailable: Bool {
        #if canImport(CNetTapCurl)
        return CurlEventLoop.shared != nil
        #else
        return false
        #endif
    }

    /// The libcurl this transport drives and its TLS library, for example `libcurl 7.88.1 (OpenSSL/3.0.17)`;
    /// `nil` where there is none (Apple platforms).
    package static var libraryVersion: String? {
        #if canImport(CNetTapCurl)
        guard let info = nettap_curl_version(), let version = info.pointee.version else { return nil }
        let tls = info.pointee.ssl_version.map { " (\(String(cString: $0)))" } ?? ""
        return "libcurl \(String(cString: version))\(tls)"
        #else
        return nil
        #endif
    }

    /// Sends the request and returns once the final response head arrives.
    /// - Parameters:
    ///   - request: The request to send.
    ///   - context: The transaction's context; redirect hops and milestones are recorded there.
    /// - Returns: The final response; its body streams as bytes arrive.
    /// - Throws: The `URLError` a plain URLSession would give, or `URLError(.cancelled)` when cancelled.
    public func send(_ request: URLRequest, context: TransactionContext) async throws -> HandlerResponse {
        #if canImport(CNetTapCurl)
        if let exchange = makeExchange(for: request, context: context) {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    exchange.start { continuation.resume(with: $0) }
                }
            } onCancel: {
                exchange.cancel()
            }
        }
        #endif
        return try await ForwardingTransport.shared.send(request, context: context)
    }

    #if canImport(CNetTapCurl)
    /// The exchange for a request, or `nil` when libcurl cannot serve it as the platform would (it then goes
    /// through the URLSession transport).
    func makeExchange(for request: URLRequest, context: TransactionContext) -> CurlExchange? {
        guard let loop = CurlEventLoop.shared, let scheme = request.url?.scheme?.lowercased(),
            scheme == "http" || scheme == "https"
        else { return nil }
        let body = CurlRequestBody(
            body: request.httpBody,
            wasStream: context.requestBodyWasStream,
            fromUploadTask: context.requestBodyWasUpload
        )
        return CurlExchange(
            request: request,
            body: body,
            context: context,
            profile: context.forwardingProfile ?? .standard,
            loop: loop
        )
    }
    #endif
}

/// Starts on URLSession's queue: its synchronous part neither calls URLSession nor blocks.
extension CurlTransport: StartsInline {}
