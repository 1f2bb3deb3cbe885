#if canImport(CNetTapCurl)
import CNetTapCurl
import Foundation
import FoundationNetworking

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The `URLError` a plain URLSession on Linux gives for a libcurl failure, reproduced field by field.
///
/// FoundationNetworking 6.3.1 picks the code from libcurl's result and the socket's `errno`
/// (`_EasyHandle.urlErrorCode(for:)` in `MultiHandle.swift`): a refused connection is `-1004` whatever curl
/// says, an unresolvable host `-1003`, a reset while sending or receiving `-1005`, nothing received `-1011`,
/// a timeout `-1001`, a bad URL `-1000`, an unsupported protocol (also HTTP/0.9) `-1002`, everything else
/// `-1`. The description is libcurl's error buffer, or `curl_easy_strerror` when the buffer is empty; the
/// error carries the underlying `NSError`, both failing-URL keys and the description
/// (`_NativeProtocol.failWith(error:request:)`), naming the URL the transport was first asked for.
enum CurlFailure {
    /// The platform's `NSURLErrorDomain` code for a libcurl result, or `nil` for success.
    static func code(for result: CURLcode, osErrno: Int) -> Int? {
        if result == CURLE_OK { return nil }
        if osErrno == Int(ECONNREFUSED) { return NSURLErrorCannotConnectToHost }
        switch result {
        case CURLE_UNSUPPORTED_PROTOCOL: return NSURLErrorUnsupportedURL
        case CURLE_URL_MALFORMAT: return NSURLErrorBadURL
        case CURLE_COULDNT_RESOLVE_HOST: return NSURLErrorCannotFindHost
        case CURLE_RECV_ERROR where osErrno == Int(ECONNRESET): return NSURLErrorNetworkConnectionLost
        case CURLE_SEND_ERROR where osErrno == Int(ECONNRESET): return NSURLErrorNetworkConnectionLost
        case CURLE_GOT_NOTHING: return NSURLErrorBadServerResponse
        case CURLE_COULDNT_CONNECT where osErrno == Int(ETIMEDOUT): return NSURLErrorTimedOut
        case CURLE_OPERATION_TIMEDOUT: return NSURLErrorTimedOut
        default: return NSURLErrorUnknown
        }
    }

    /// The text of a failure: what libcurl wrote into the error buffer, else its generic text for the code.
    static func description(for result: CURLcode, buffer: UnsafePointer<CChar>) -> String {
        if buffer.pointee != 0 {
            return String(validatingCString: buffer) ?? ""
        }
        guard let generic = curl_easy_strerror(result) else { return "" }
        return String(cString: generic)
    }

    /// The error the app gets, as `_NativeProtocol.failWith(error:request:)` builds it.
    /// - Parameters:
    ///   - code: An `NSURLErrorDomain` code.
    ///   - description: The underlying error's description.
    ///   - url: The URL the failing request was first sent to.
    /// - Returns: The error, with no userInfo when there is no URL (as the platform).
    static func urlError(code: Int, description: String, url: URL?) -> URLError {
        let underlying = NSError(
            domain: NSURLErrorDomain,
            code: code,
            userInfo: [NSLocalizedDescriptionKey: description]
        )
        let platformCode: URLError.Code? = URLError.Code(rawValue: code)
        guard let url else { return URLError(platformCode ?? .unknown) }
        return URLError(
            platformCode ?? .unknown,
            userInfo: [
                NSUnderlyingErrorKey: underlying,
                NSURLErrorFailingURLErrorKey: url,
                "NSErrorFailingURLStringKey": url.absoluteString,
                NSLocalizedDescriptionKey: underlying.localizedDescription,
            ]
        )
    }

    /// The bare `-1001` of the platform's idle timer: no userInfo at all (`_HTTPURLProtocol.configureEasyHandle`).
    static var idleTimeout: URLError { URLError(.timedOut) }
}
#endif
