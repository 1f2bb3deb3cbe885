import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Which hosts NetTap intercepts at all: an allow list and a deny list of ``HostPattern``s.
///
/// A request to a host outside the scope is not NetTap's: it passes through exactly as without NetTap — no
/// handler sees it, nothing is captured (see ``NetTapInterceptor/scope``). The deny list wins over the allow list, and
/// an empty allow list allows every host:
///
/// | Allow list | Host on the allow list | Host on the deny list | The request                  |
/// |------------|------------------------|-----------------------|------------------------------|
/// | empty      | —                      | no                    | is intercepted               |
/// | empty      | —                      | yes                   | passes through, not captured |
/// | not empty  | yes                    | no                    | is intercepted               |
/// | not empty  | no                     | no                    | passes through, not captured |
/// | not empty  | yes                    | yes                   | passes through, not captured |
///
/// Only the URL's host is compared, never its scheme, port or path (see ``HostPattern``). A request without a
/// host matches no pattern.
///
/// ```swift
/// NetTapInterceptor.shared.scope = try .parsing(
///     allowHosts: ["*.example.com", "regex:^api[0-9]+\\.example\\.net$"],
///     denyHosts: ["auth.example.com"]
/// )
/// ```
public struct HostScope: Sendable, Equatable, Hashable {
    /// The hosts NetTap intercepts; empty means every host not denied.
    public var allowHosts: [HostPattern]
    /// The hosts NetTap never intercepts, whatever the allow list says.
    public var denyHosts: [HostPattern]

    /// The scope that intercepts every host: both lists empty (the default).
    public static let everyHost = HostScope()

    /// Creates a scope from patterns.
    ///
    /// - Parameters:
    ///   - allowHosts: The allow list; empty (the default) allows every host.
    ///   - denyHosts: The deny list; empty by default.
    public init(allowHosts: [HostPattern] = [], denyHosts: [HostPattern] = []) {
        self.allowHosts = allowHosts
        self.denyHosts = denyHosts
    }

    /// A scope from patterns in string form (see ``HostPattern/init(_:)``).
    ///
    /// - Parameters:
    ///   - allowHosts: The allow list, such as `["*.example.com"]`; empty allows every host.
    ///   - denyHosts: The deny list, such as `["regex:^tracker[0-9]*\\.example\\.com$"]`.
    /// - Returns: The scope.
    /// - Throws: ``MatcherError`` naming the first pattern that cannot be read and what is wrong with it.
    public static func parsing(allowHosts: [String] = [], denyHosts: [String] = []) throws -> HostScope {
        HostScope(allowHosts: try allowHosts.map(HostPattern.init), denyHosts: try denyHosts.map(HostPattern.init))
    }

    /// Whether both lists are empty, so every host is intercepted.
    public var includesEveryHost: Bool { allowHosts.isEmpty && denyHosts.isEmpty }

    /// Whether NetTap intercepts requests to a host: not denied, and allowed (or the allow list is empty).
    ///
    /// - Parameter host: The host as in a URL, such as `api.example.com` or `127.0.0.1`.
    /// - Returns: `true` when NetTap intercepts it.
    /// - Complexity: O(*a* + *d*) pattern matches for allow and deny lists of *a* and *d* patterns.
    public func includes(host: String) -> Bool {
        if includesEveryHost { return true }
        let normalized = HostPattern.normalized(host)
        if denyHosts.contains(where: { $0.matches(normalizedHost: normalized) }) { return false }
        return allowHosts.isEmpty || allowHosts.contains { $0.matches(normalizedHost: normalized) }
    }

    /// Whether NetTap intercepts a request to a URL, judged by its host alone.
    ///
    /// - Parameter url: The request's URL; `nil` or a URL without a host matches no pattern.
    /// - Returns: `true` when NetTap intercepts it.
    /// - Complexity: As ``includes(host:)``.
    public func includes(_ url: URL?) -> Bool {
        if includesEveryHost { return true }
        return includes(host: url?.host ?? "")
    }
}
