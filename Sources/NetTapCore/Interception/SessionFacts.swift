import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What NetTap needs to know about an app's session, computed once per session and cached.
///
/// A session's configuration cannot change after the session is created, but `URLSession.configuration`
/// builds a new copy on every call; caching keeps that, and the delegate check, off the per-request path.
/// Entries of sessions that are gone are dropped as new sessions are seen.
package struct SessionFacts: @unchecked Sendable {
    /// A copy of the session's configuration.
    package let configuration: URLSessionConfiguration
    /// The forwarding profile matching the configuration.
    package let profile: ForwardingProfile
    /// Whether the session's delegate receives data callbacks (`URLSessionDataDelegate`).
    package let hasDataDelegate: Bool

    private struct Entry {
        weak var session: URLSession?
        let facts: SessionFacts
    }

    private static let cache = Locked<[ObjectIdentifier: Entry]>([:])

    /// The facts of `session`, from the cache when seen before.
    package static func of(_ session: URLSession) -> SessionFacts {
        let key = ObjectIdentifier(session)
        if let entry = cache.withLock({ $0[key] }), entry.session === session {
            return entry.facts
        }
        let configuration = session.configuration
        let facts = SessionFacts(
            configuration: configuration,
            profile: ForwardingProfile(configuration: configuration, owner: session),
            hasDataDelegate: session.delegate is any URLSessionDataDelegate
        )
        cache.withLock { cache in
            if cache.count > 64 { cache = cache.filter { $0.value.session != nil } }
            cache[key] = Entry(session: session, facts: facts)
        }
        return facts
    }
}
