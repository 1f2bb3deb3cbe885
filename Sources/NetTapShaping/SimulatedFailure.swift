import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The `URLError`s the shaper fails requests with, worded as the platform words the real failure.
///
/// The code and domain are what a real network failure gives; the description (and, where the platform adds one,
/// the underlying error) follow the platform too, so an app that shows or logs `localizedDescription` sees what it
/// would see on a real bad network:
///
/// | failure | code | FoundationNetworking (libcurl's error buffer) | Apple platforms (CFNetwork) |
/// | --- | --- | --- | --- |
/// | offline | `-1009` | no libcurl counterpart: CFNetwork's text | "The Internet connection appears to be offline." |
/// | DNS failure | `-1003` | "Could not resolve host: HOST" | "A server with the specified hostname could not be found." |
/// | server down | `-1004` | "Failed to connect to HOST port PORT after 0 ms: Couldn't connect to server" | "Could not connect to the server." |
/// | loss | `-1005` | "Recv failure: Connection reset by peer" | "The network connection was lost." |
///
/// The interceptor adds the failing-URL keys (`NSErrorFailingURLKey`, `NSErrorFailingURLStringKey`) as the
/// platform does. A timeout is not made here: the interceptor's own request timeout fails a hanging request with
/// the platform's `-1001`.
enum SimulatedFailure {
    /// The error for a condition, or for simulated loss when `condition` is `nil`.
    ///
    /// - Parameters:
    ///   - condition: The failing condition, or `nil` for a lost connection.
    ///   - url: The request's URL; its host and port appear in libcurl's wording.
    /// - Returns: A `URLError` in `NSURLErrorDomain` with the platform's description and underlying error.
    static func error(for condition: NetworkProfile.Condition?, url: URL?) -> URLError {
        let code = condition?.errorCode ?? .networkConnectionLost
        let description = description(for: condition, url: url)
        let underlying = NSError(
            domain: NSURLErrorDomain,
            code: code.rawValue,
            userInfo: [NSLocalizedDescriptionKey: description]
        )
        return URLError(code, userInfo: [NSLocalizedDescriptionKey: description, NSUnderlyingErrorKey: underlying])
    }

    /// The platform's wording of the failure (see the table above).
    private static func description(for condition: NetworkProfile.Condition?, url: URL?) -> String {
        let host = url?.host ?? ""
        #if canImport(FoundationNetworking)
        switch condition {
        case .offline: return "The Internet connection appears to be offline."
        case .dnsFailure: return "Could not resolve host: \(host)"
        case .serverDown:
            let port = url?.port ?? (url?.scheme?.lowercased() == "https" ? 443 : 80)
            return "Failed to connect to \(host) port \(port) after 0 ms: Couldn't connect to server"
        case .timeout: return "The request timed out."
        case nil: return "Recv failure: Connection reset by peer"
        }
        #else
        switch condition {
        case .offline: return "The Internet connection appears to be offline."
        case .dnsFailure: return "A server with the specified hostname could not be found."
        case .serverDown: return "Could not connect to the server."
        case .timeout: return "The request timed out."
        case nil: return "The network connection was lost."
        }
        #endif
    }
}
