import Foundation

/// Whether NetTap installs in this process, and why: release gating.
///
/// NetTap installs only in debug builds unless a release build opts in. The build configuration is the one
/// NetTapCore was compiled with (`#if DEBUG`: SwiftPM and Xcode define `DEBUG` for the Debug configuration of
/// a package and of its dependencies). On Linux, as everywhere, a release build opts in through the
/// environment or the API:
///
/// | `NETTAP_ENABLE`                       | ``NetTapInterceptor/isEnabledInReleaseBuilds`` | Debug build | Release build |
/// |---------------------------------------|------------------------------------------|-------------|---------------|
/// | unset, empty or not understood        | `false`                                  | active      | off           |
/// | unset, empty or not understood        | `true`                                   | active      | active        |
/// | `1`, `true`, `yes`, `on`              | either                                   | active      | active        |
/// | `0`, `false`, `no`, `off`             | either                                   | off         | off           |
///
/// Values are read case-insensitively, without surrounding white space. `NETTAP_ENABLE=0` is a kill switch: it
/// turns NetTap off even in a debug build and even when the app opted in by API.
///
/// When NetTap is off, installing does nothing: ``NetTapInterceptor/installForSharedSession()`` returns
/// ``SharedSessionInstallation/notInterceptable(reason:)`` with ``reason``,
/// ``NetTapInterceptor/makeConfiguration(from:)`` returns a plain copy and
/// ``NetTapInterceptor/makeSession(configuration:delegate:delegateQueue:)`` a plain session, which NetTap never
/// touches. NetTap writes ``notice`` to standard error once per process when it is off or active in a release
/// build (and when `NETTAP_ENABLE` holds a value it does not understand).
public struct Activation: Sendable, Equatable {
    /// The environment variable that opts a release build in (`1`) or turns NetTap off (`0`).
    public static let environmentVariable = "NETTAP_ENABLE"

    /// Whether NetTap installs.
    public var isActive: Bool
    /// Why, as a sentence: for example `release build; set NETTAP_ENABLE=1 in the environment or
    /// NetTapInterceptor.isEnabledInReleaseBuilds = true to opt in`.
    public var reason: String
    /// The line NetTap writes once to standard error, or `nil` when there is nothing to say (a debug build with
    /// `NETTAP_ENABLE` unset).
    public var notice: String?

    /// Creates a decision.
    ///
    /// - Parameters:
    ///   - isActive: Whether NetTap installs.
    ///   - reason: Why.
    ///   - notice: The line to log once, or `nil`.
    public init(isActive: Bool, reason: String, notice: String? = nil) {
        self.isActive = isActive
        self.reason = reason
        self.notice = notice
    }

    /// Decides whether NetTap installs, from the build configuration, the environment and the API flag (the table
    /// in the type's discussion).
    ///
    /// A pure function: the same inputs give the same decision.
    /// - Parameters:
    ///   - isDebugBuild: Whether NetTapCore was compiled for debugging (`#if DEBUG`).
    ///   - environmentValue: The value of `NETTAP_ENABLE`, or `nil` when it is not set.
    ///   - isEnabledInReleaseBuilds: Whether the app opted in by API (``NetTapInterceptor/isEnabledInReleaseBuilds``).
    /// - Returns: The decision, with its reason and the line to log once.
    public static func decide(
        isDebugBuild: Bool,
        environmentValue: String?,
        isEnabledInReleaseBuilds: Bool
    ) -> Activation {
        let variable = environmentVariable
        let word = environmentValue?.trimmingCharacters(in: .whitespacesAndNewlines).lowercased() ?? ""
        var ignored: String?
        switch word {
        case "0", "false", "no", "off":
            let reason = "\(variable)=\(environmentValue ?? "") in the environment turns NetTap off"
            return Activation(isActive: false, reason: reason, notice: "NetTap is off: \(reason).")
        case "1", "true", "yes", "on":
            if isDebugBuild { return Activation(isActive: true, reason: "debug build") }
            let reason = "opted in via \(variable)=\(environmentValue ?? "") in the environment"
            return Activation(
                isActive: true,
                reason: reason,
                notice: "NetTap is active in a release build (\(reason))."
            )
        case "":
            break
        default:
            ignored = "\(variable)=\"\(environmentValue ?? "")\" is not understood (use 1 or 0) and was ignored"
        }
        if isDebugBuild {
            return Activation(isActive: true, reason: "debug build", notice: ignored.map { "NetTap: \($0)." })
        }
        if isEnabledInReleaseBuilds {
            let reason = "opted in via NetTapInterceptor.isEnabledInReleaseBuilds"
            let note = ignored.map { "; \($0)" } ?? ""
            return Activation(
                isActive: true,
                reason: reason,
                notice: "NetTap is active in a release build (\(reason))\(note)."
            )
        }
        let reason =
            "release build; set \(variable)=1 in the environment or NetTapInterceptor.isEnabledInReleaseBuilds = true "
            + "to opt in" + (ignored.map { " (\($0))" } ?? "")
        return Activation(isActive: false, reason: reason, notice: "NetTap is off: \(reason).")
    }
}
