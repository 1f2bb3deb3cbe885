import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension NetTapInterceptor {
    /// Which hosts this interceptor takes at all; every host by default.
    ///
    /// A request to a host outside the scope (denied, or not on a non-empty allow list; see ``HostScope``)
    /// passes through exactly as without NetTap: no handler sees it and it is not captured. Where NetTap's
    /// protocol can tell which interceptor serves a request before taking it (``shared`` while no other
    /// interceptor has installed on Linux; every interceptor on Apple platforms), it declines the request and
    /// the platform's own HTTP protocol loads it; otherwise it hands the request untouched to that protocol
    /// itself, without recording it (platform-notes §14).
    ///
    /// The scope decides on the URL the app's task starts with. A redirect is followed by whoever took the first
    /// request: a denied host redirecting to an allowed one stays untouched, and an allowed host redirecting to a
    /// denied one is captured with its redirect hops.
    ///
    /// ```swift
    /// NetTapInterceptor.shared.scope = try .parsing(denyHosts: ["auth.example.com", "*.analytics.example"])
    /// ```
    /// Changes apply to the next request.
    public var scope: HostScope {
        get { scopeStorage.current }
        set { scopeStorage.withLock { $0 = newValue } }
    }

    /// Whether a release build installs NetTap; `false` by default, so only debug builds do.
    ///
    /// Set it before the first install call. `NETTAP_ENABLE=0` in the environment still turns NetTap off (see
    /// ``Activation``). When `true` in a release build, NetTap writes one line to standard error
    /// (`NetTap is active in a release build (opted in via NetTapInterceptor.isEnabledInReleaseBuilds).`).
    public static var isEnabledInReleaseBuilds: Bool {
        get { releaseOptIn.current }
        set { releaseOptIn.withLock { $0 = newValue } }
    }

    private static let releaseOptIn = Locked(false)

    /// Whether NetTap installs in this process right now, and why (see ``Activation``).
    public static var activation: Activation {
        ActivationGate.process.decision
    }

    /// The interceptor whose scope decides for a request reaching `protocolClass`'s `canInit`, or `nil` when
    /// the request alone cannot tell (then `startLoading` decides).
    ///
    /// A slot class names its interceptor. The base class is ``shared``'s on Apple platforms (where no
    /// configuration carries a mark); on Linux, once an interceptor of one's own installed into a configuration,
    /// the base class may serve it through the configuration's mark, which `canInit` cannot see.
    static func scopeOwner(forProtocolClass protocolClass: AnyClass) -> NetTapInterceptor? {
        if protocolClass != NetTapURLProtocol.self {
            return ProtocolSlots.interceptor(for: protocolClass)
        }
        #if canImport(FoundationNetworking)
        return anyPrivateInstalled.current ? nil : .shared
        #else
        return .shared
        #endif
    }
}
