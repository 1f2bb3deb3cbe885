import Foundation
import NetTapCore

/// How NetTap installs itself, as the `install` section of `nettap.json` says.
///
/// ```json
/// {"install": {"sharedSession": true, "enabledInReleaseBuilds": false}}
/// ```
/// `sharedSession` (default `false`): ``NetTapConfiguration/apply(to:)`` calls
/// `Interceptor.installForSharedSession()`, so `URLSession.shared` is intercepted too (served by
/// `Interceptor.shared`). `enabledInReleaseBuilds` (default: left as it is, `false` unless the app set it): sets
/// `Interceptor.isEnabledInReleaseBuilds`, the opt-in that lets a release build install NetTap at all.
public struct InstallSettings: Sendable, Hashable {
    /// The keys of the `install` object.
    public static let configurationKeys: Set<String> = ["sharedSession", "enabledInReleaseBuilds"]

    /// Whether applying installs NetTap for `URLSession.shared`.
    public var sharedSession: Bool
    /// The value for `Interceptor.isEnabledInReleaseBuilds`, or `nil` to leave it as it is.
    public var enabledInReleaseBuilds: Bool?

    /// Creates settings.
    ///
    /// - Parameters:
    ///   - sharedSession: Whether to install for `URLSession.shared`; `false` by default.
    ///   - enabledInReleaseBuilds: The release-build opt-in, or `nil` to leave it; `nil` by default.
    public init(sharedSession: Bool = false, enabledInReleaseBuilds: Bool? = nil) {
        self.sharedSession = sharedSession
        self.enabledInReleaseBuilds = enabledInReleaseBuilds
    }

    /// Reads the `install` section.
    ///
    /// - Parameter node: The install object, for example `$.install`.
    /// - Throws: `ConfigurationError` naming the file and JSON path of an unknown key (with a did-you-mean
    ///   suggestion) or a value that is not a boolean.
    public init(configuration node: ConfigNode) throws {
        try node.rejectUnknownKeys(allowed: Self.configurationKeys)
        self.init(
            sharedSession: try node.bool("sharedSession") ?? false,
            enabledInReleaseBuilds: try node.bool("enabledInReleaseBuilds")
        )
    }
}
