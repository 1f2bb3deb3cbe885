import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The one table of network failures NetTap simulates, each worded as the platform words the real one.
///
/// Mocks (a stub's failure, an unmatched request), shaping (conditions, loss), cassettes (a recorded failure, an
/// unmatched request), local files and stub files (a body cut short) and body faults all build their `URLError`
/// here, and the interceptor words a bare `URLError` a handler throws with it (``HandlerAnswers``), so an app that
/// shows or logs the error sees what the network would have given it (platform-notes §10, §12):
///
/// | failure | code | FoundationNetworking (libcurl's error buffer) | Apple platforms (CFNetwork) |
/// | --- | --- | --- | --- |
/// | offline | `-1009` | no libcurl counterpart: CFNetwork's text | "The Internet connection appears to be offline." |
/// | DNS failure | `-1003` | "Could not resolve host: HOST" | "A server with the specified hostname could not be found." |
/// | refused | `-1004` | "Failed to connect to HOST port PORT after 0 ms: Couldn't connect to server" | "Could not connect to the server." |
/// | reset | `-1005` | "Recv failure: Connection reset by peer" | "The network connection was lost." |
/// | empty reply | `-1011` | "Empty reply from server" | the system's own text |
/// | unsupported URL | `-1002` | "unsupported URL", no underlying error (Foundation's own check) | "unsupported URL" |
/// | HTTP/0.9 answer | `-1002` | "Received HTTP/0.9 when not allowed" (a cassette replaying one that recorded it) | "unsupported URL" |
/// | body cut short | `-1` (Linux), `-1005` | "transfer closed with N bytes remaining to read", or "… outstanding read data remaining" without a length | "The network connection was lost." |
/// | timeout | `-1001` | no userInfo at all (the platform's idle timer) | "The request timed out." |
/// | cancelled | `-999` | "cancelled", no underlying error | "cancelled" |
///
/// A worded failure carries `NSLocalizedDescription`, `NSUnderlyingError` (the same code, with only the
/// description; `kCFErrorDomainCFNetwork` on Apple platforms) and, given a URL, `NSErrorFailingURLKey` and
/// `NSErrorFailingURLStringKey`: the keys `_NativeProtocol.failWith` gives a real one. Another code keeps the
/// description it is given, if any, with the same keys.
package enum SimulatedFailure {
    /// `NSErrorFailingURLStringKey`, which the platform sets beside `NSErrorFailingURLKey`.
    package static let failingURLStringKey = "NSErrorFailingURLStringKey"

    /// The `URLError` a request to `url` gets when the network fails with `code`.
    ///
    /// - Parameters:
    ///   - code: The failure's code.
    ///   - url: The request's URL; its host and port appear in libcurl's wording, and it fills the failing-URL
    ///     keys. `nil` leaves the keys to the interceptor (``HandlerAnswers/appError(_:requestURL:)``).
    ///   - description: The description for a code the table does not word (an explanation NetTap gives, such as
    ///     why no stub matched); ignored for a worded code.
    /// - Returns: The error; a bare `URLError(.timedOut)` on FoundationNetworking, as its idle timer gives.
    package static func error(_ code: URLError.Code, url: URL?, description: String? = nil) -> URLError {
        #if canImport(FoundationNetworking)
        if code == .timedOut { return URLError(.timedOut) }
        #endif
        let text = wording(for: code, url: url) ?? description
        return make(code, description: text, underlying: code != .cancelled && code != .unsupportedURL, url: url)
    }

    /// The `URLError` a replayed recording of a failure gets: as ``error(_:url:description:)``, but with the other
    /// wording the platform has for the same code when the recording holds it (a server's HTTP/0.9 answer, `-1002`,
    /// that libcurl words otherwise than an unsupported URL).
    ///
    /// - Parameters:
    ///   - code: The recorded code.
    ///   - url: The request's URL.
    ///   - recordedMessage: The message the recording kept, if any.
    /// - Returns: The error.
    package static func replayedError(_ code: URLError.Code, url: URL?, recordedMessage: String?) -> URLError {
        #if canImport(FoundationNetworking)
        if code == .unsupportedURL, recordedMessage == http09Wording {
            return make(code, description: http09Wording, underlying: true, url: url)
        }
        #endif
        return error(code, url: url)
    }

    /// libcurl's words for an answer without a status line, which FoundationNetworking gives as `-1002`.
    private static let http09Wording = "Received HTTP/0.9 when not allowed"

    /// The error of a body cut short: the server closed the connection (a normal close, not a reset) before the
    /// body's end.
    ///
    /// - Parameters:
    ///   - remainingBytes: The bytes the head promised that never came; `nil` when the body's length was unknown
    ///     (chunked): libcurl then says "outstanding read data remaining".
    ///   - url: The request's URL, or `nil` to leave the failing-URL keys to the interceptor.
    ///   - reason: Why NetTap's own body ended early (a file that changed while it was served), kept as the
    ///     underlying error's `NSLocalizedFailureReason`; the description stays the platform's.
    /// - Returns: `-1` with libcurl's words on FoundationNetworking, `-1005` elsewhere.
    package static func truncatedBody(remainingBytes: Int64?, url: URL?, reason: String? = nil) -> URLError {
        #if canImport(FoundationNetworking)
        let code = URLError.Code.unknown
        let text =
            remainingBytes.map { "transfer closed with \($0) bytes remaining to read" }
            ?? "transfer closed with outstanding read data remaining"
        #else
        let code = URLError.Code.networkConnectionLost
        let text = "The network connection was lost."
        #endif
        return make(code, description: text, underlying: true, url: url, reason: reason)
    }

    /// The platform's wording of the real failure with `code` (see the table above), or `nil` when the table has
    /// none for it.
    ///
    /// - Parameters:
    ///   - code: The failure's code.
    ///   - url: The request's URL, for the host and port libcurl names.
    /// - Returns: The description.
    package static func wording(for code: URLError.Code, url: URL?) -> String? {
        switch code {
        case .notConnectedToInternet: return "The Internet connection appears to be offline."
        case .cancelled: return "cancelled"
        default: return platformWording(for: code, url: url)
        }
    }

    #if canImport(FoundationNetworking)
    /// libcurl's text, as FoundationNetworking copies it from the error buffer (`MultiHandle.completedTransfer`).
    private static func platformWording(for code: URLError.Code, url: URL?) -> String? {
        let host = url?.host ?? ""
        switch code {
        case .cannotFindHost: return "Could not resolve host: \(host)"
        case .cannotConnectToHost:
            let port = url?.port ?? (url?.scheme?.lowercased() == "https" ? 443 : 80)
            return "Failed to connect to \(host) port \(port) after 0 ms: Couldn't connect to server"
        case .networkConnectionLost: return "Recv failure: Connection reset by peer"
        case .badServerResponse: return "Empty reply from server"
        case .unsupportedURL: return "unsupported URL"
        default: return nil
        }
    }
    #else
    /// CFNetwork's text.
    private static func platformWording(for code: URLError.Code, url: URL?) -> String? {
        switch code {
        case .cannotFindHost: return "A server with the specified hostname could not be found."
        case .cannotConnectToHost: return "Could not connect to the server."
        case .networkConnectionLost: return "The network connection was lost."
        case .timedOut: return "The request timed out."
        case .unsupportedURL: return "unsupported URL"
        default: return nil
        }
    }
    #endif

    /// The underlying error's domain: the platform's own.
    private static var underlyingDomain: String {
        #if canImport(FoundationNetworking)
        NSURLErrorDomain
        #else
        "kCFErrorDomainCFNetwork"
        #endif
    }

    private static func make(
        _ code: URLError.Code,
        description: String?,
        underlying: Bool,
        url: URL?,
        reason: String? = nil
    ) -> URLError {
        var info: [String: Any] = [:]
        if let description {
            info[NSLocalizedDescriptionKey] = description
            if underlying {
                var inner: [String: Any] = [NSLocalizedDescriptionKey: description]
                if let reason { inner[NSLocalizedFailureReasonErrorKey] = reason }
                info[NSUnderlyingErrorKey] = NSError(domain: underlyingDomain, code: code.rawValue, userInfo: inner)
            }
        }
        if let url {
            info[NSURLErrorFailingURLErrorKey] = url
            info[failingURLStringKey] = url.absoluteString
        }
        return URLError(code, userInfo: info)
    }
}
