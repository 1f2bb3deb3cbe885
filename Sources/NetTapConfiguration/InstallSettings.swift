import Foundation
import NetTapCore

/// How NetTap installs itself, as the `install` section of `nettap.json` says.
///
/// ```json
/// {"install": {"sharedSession": true, "enabledInReleaseBuilds": false, "transport": "libcurl"}}
/// ```
/// `sharedSession` (default `false`): ``NetTapConfiguration/apply(to:)`` calls
/// `NetTapInterceptor.installForSharedSession()`, so `URLSession.shared` is intercepted too (served by
/// `NetTapInterceptor.shared`). `enabledInReleaseBuilds` (default: left as it is, `false` unless the app set it): sets
/// `NetTapInterceptor.isEnabledInReleaseBuilds`, the opt-in that lets a release build install NetTap at all.
/// `transport` (default: left as it is, libcurl on Linux): `libcurl` (`CurlTransport.shared`) or `urlsession`
/// (`ForwardingTransport.shared`), the interceptor's transport.
public struct InstallSettings: Sendable, Hashable {
    /// The keys of the `install` object.
    public static let configurationKeys: Set<String> = ["sharedSession", "enabledInReleaseBuilds", "transport"]

    /// The transports `transport` names.
    public enum TransportChoice: String, Sendable, Hashable, CaseIterable {
        /// NetTap's libcurl client, `CurlTransport` (Linux; the URLSession transport elsewhere).
        case libcurl
        /// The forwarding `URLSession`, `ForwardingTransport`.
        case urlsession

        /// The shared transport of this choice.
        public var transport: any Transport {
            switch self {
            case .libcurl: CurlTransport.shared
            case .urlsession: ForwardingTransport.shared
            }
        }
    }

    /// Whether applying installs NetTap for `URLSession.shared`.
    public var sharedSession: Bool
    /// The value for `NetTapInterceptor.isEnabledInReleaseBuilds`, or `nil` to leave it as it is.
    public var enabledInReleaseBuilds: Bool?
    /// The interceptor's transport, or `nil` to leave it as it is.
    public var transport: TransportChoice?

    /// Creates settings.
    ///
    /// - Parameters:
    ///   - sharedSession: Whether to install for `URLSession.shared`; `false` by default.
    ///   - enabledInReleaseBuilds: The release-build opt-in, or `nil` to leave it; `nil` by default.
    ///   - transport: The transport, or `nil` to leave it; `nil` by default.
    public init(sharedSession: Bool = false, enabledInReleaseBuilds: Bool? = nil, transport: TransportChoice? = nil) {
        self.sharedSession = sharedSession
        self.enabledInReleaseBuilds = enabledInReleaseBuilds
        self.transport = transport
    }

    /// Reads the `install` section.
    ///
    /// - Parameter node: The install object, for example `$.install`.
    /// - Throws: `ConfigurationError` naming the file and JSON path of an unknown key (with a did-you-mean
    ///   suggestion), a value that is not a boolean, or a `transport` other than `libcurl` and `urlsession`.
    package init(configuration node: ConfigNode) throws {
        try node.rejectUnknownKeys(allowed: Self.configurationKeys)
        var transport: TransportChoice?
        if let member = try node.child("transport") {
            let name = try member.stringValue()
            guard let choice = TransportChoice(rawValue: name) else {
                throw member.error("unknown transport \"\(name)\"; use \"libcurl\" or \"urlsession\"")
            }
            transport = choice
        }
        self.init(
            sharedSession: try node.bool("sharedSession") ?? false,
            enabledInReleaseBuilds: try node.bool("enabledInReleaseBuilds"),
            transport: transport
        )
    }
}

extension InstallSettings: ConfigurationSection {
    /// `install`.
    package static let sectionName = "install"
    /// The section's keys: ``configurationKeys``.
    package static var sectionKeys: Set<String> { configurationKeys }

    /// Reads the `install` section.
    package static func read(section: ConfigNode, context: ConfigurationContext) throws -> InstallSettings? {
        try InstallSettings(configuration: section)
    }
}
