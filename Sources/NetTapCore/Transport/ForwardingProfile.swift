import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The caller-session settings a forwarding session must share so that forwarding changes nothing the
/// server or the app can see: which cookie jar is used and whether cookies are sent and stored, and the
/// session's request timeout.
///
/// Forwarding sessions are pooled by profile: apps with one cookie jar and one timeout get exactly one
/// forwarding session for the whole process.
package struct ForwardingProfile: Hashable, @unchecked Sendable {
    package var cookieStorage: HTTPCookieStorage?
    package var shouldSetCookies: Bool
    package var cookieAcceptPolicy: HTTPCookie.AcceptPolicy
    package var timeoutIntervalForRequest: TimeInterval

    /// The profile of a session built from `URLSessionConfiguration.default`.
    package static let standard = ForwardingProfile(configuration: .default)

    /// The profile matching a caller's configuration.
    package init(configuration: URLSessionConfiguration) {
        self.cookieStorage = configuration.httpCookieStorage
        self.shouldSetCookies = configuration.httpShouldSetCookies
        self.cookieAcceptPolicy = configuration.httpCookieAcceptPolicy
        self.timeoutIntervalForRequest = configuration.timeoutIntervalForRequest
    }

    package static func == (lhs: ForwardingProfile, rhs: ForwardingProfile) -> Bool {
        lhs.cookieStorage === rhs.cookieStorage && lhs.shouldSetCookies == rhs.shouldSetCookies
            && lhs.cookieAcceptPolicy == rhs.cookieAcceptPolicy
            && lhs.timeoutIntervalForRequest == rhs.timeoutIntervalForRequest
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(cookieStorage.map(ObjectIdentifier.init))
        hasher.combine(shouldSetCookies)
        hasher.combine(cookieAcceptPolicy.rawValue)
        hasher.combine(timeoutIntervalForRequest)
    }

    /// A configuration for the forwarding session of this profile.
    ///
    /// Built from `.default` and never touching `protocolClasses`, so the platform's HTTP protocol matches first and
    /// NetTap never sees its own forwarded requests (no loop, no marker header).
    func makeConfiguration() -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.default
        configuration.httpCookieStorage = cookieStorage
        configuration.httpShouldSetCookies = shouldSetCookies
        configuration.httpCookieAcceptPolicy = cookieAcceptPolicy
        configuration.timeoutIntervalForRequest = timeoutIntervalForRequest
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        return configuration
    }
}
