import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The caller-session settings a forwarding session must share so that forwarding changes nothing the
/// server or the app can see: which cookie jar is used and whether cookies are sent and stored, the
/// session's request timeout and per-host connection limit — and which app session it stands for.
///
/// Forwarding sessions are pooled by profile. A profile read from an app session names that session
/// (``owner``), so each app session gets its own forwarding session, reused by all its requests and released
/// once the app session is gone: connections, and libcurl's per-host connection limit
/// (`httpMaximumConnectionsPerHost`, applied per `URLSession`), are then per app session as they are without
/// NetTap, and a server holding one session's connections cannot starve another's (platform-notes §15). A
/// typical app with one session gets one forwarding session.
package struct ForwardingProfile: Hashable, @unchecked Sendable {
    package var cookieStorage: HTTPCookieStorage?
    package var shouldSetCookies: Bool
    package var cookieAcceptPolicy: HTTPCookie.AcceptPolicy
    package var timeoutIntervalForRequest: TimeInterval
    package var maximumConnectionsPerHost: Int
    /// The app session this profile stands for, or `nil` for the shared profile of requests whose session is
    /// unknown (``standard``).
    package weak var owner: URLSession?
    /// ``owner``'s identity, kept for hashing and equality after the session is gone.
    package let ownerIdentity: ObjectIdentifier?

    /// The profile of a session built from `URLSessionConfiguration.default`, owned by no app session.
    package static let standard = ForwardingProfile(configuration: .default)

    /// The profile matching a caller's configuration.
    ///
    /// - Parameters:
    ///   - configuration: The app session's configuration.
    ///   - owner: The app session, when known.
    package init(configuration: URLSessionConfiguration, owner: URLSession? = nil) {
        self.cookieStorage = configuration.httpCookieStorage
        self.shouldSetCookies = configuration.httpShouldSetCookies
        self.cookieAcceptPolicy = configuration.httpCookieAcceptPolicy
        self.timeoutIntervalForRequest = configuration.timeoutIntervalForRequest
        self.maximumConnectionsPerHost = configuration.httpMaximumConnectionsPerHost
        self.owner = owner
        self.ownerIdentity = owner.map(ObjectIdentifier.init)
    }

    /// Whether the profile names an app session that no longer exists.
    package var isOrphaned: Bool { ownerIdentity != nil && owner == nil }

    package static func == (lhs: ForwardingProfile, rhs: ForwardingProfile) -> Bool {
        lhs.cookieStorage === rhs.cookieStorage && lhs.shouldSetCookies == rhs.shouldSetCookies
            && lhs.cookieAcceptPolicy == rhs.cookieAcceptPolicy
            && lhs.timeoutIntervalForRequest == rhs.timeoutIntervalForRequest
            && lhs.maximumConnectionsPerHost == rhs.maximumConnectionsPerHost
            && lhs.ownerIdentity == rhs.ownerIdentity
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(cookieStorage.map(ObjectIdentifier.init))
        hasher.combine(shouldSetCookies)
        hasher.combine(cookieAcceptPolicy.rawValue)
        hasher.combine(timeoutIntervalForRequest)
        hasher.combine(maximumConnectionsPerHost)
        hasher.combine(ownerIdentity)
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
        configuration.httpMaximumConnectionsPerHost = maximumConnectionsPerHost
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        return configuration
    }
}
