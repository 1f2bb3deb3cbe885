import Foundation

/// Asks ``Activation/decide(isDebugBuild:environmentValue:isEnabledInReleaseBuilds:)`` with this process's inputs
/// and writes each notice once.
///
/// ``process`` reads the real build configuration, environment and API flag and writes to standard error; tests
/// make their own gate to simulate a release build and capture the notices, without touching the process's.
///
/// Thread safety: every member may be used from any thread.
package final class ActivationGate: Sendable {
    /// The gate of this process: NetTapCore's build configuration, `NETTAP_ENABLE`, the API flag, standard error.
    package static let process = ActivationGate(
        isDebugBuild: compiledForDebugging,
        environmentValue: { ProcessInfo.processInfo.environment[Activation.environmentVariable] },
        isEnabledInReleaseBuilds: { NetTapInterceptor.isEnabledInReleaseBuilds },
        write: { line in FileHandle.standardError.write(Data((line + "\n").utf8)) }
    )

    /// Whether NetTapCore was compiled with `DEBUG` defined.
    #if DEBUG
    package static let compiledForDebugging = true
    #else
    package static let compiledForDebugging = false
    #endif

    /// Whether the build counts as a debug build (trust rules apply only then).
    package let isDebugBuild: Bool
    private let environmentValue: @Sendable () -> String?
    private let isEnabledInReleaseBuilds: @Sendable () -> Bool
    private let write: @Sendable (String) -> Void
    private let written = Locked<Set<String>>([])

    /// Creates a gate.
    ///
    /// - Parameters:
    ///   - isDebugBuild: The build configuration to assume.
    ///   - environmentValue: Reads `NETTAP_ENABLE` (`nil` when unset).
    ///   - isEnabledInReleaseBuilds: Reads the API flag.
    ///   - write: Writes one notice line (without a line break).
    package init(
        isDebugBuild: Bool,
        environmentValue: @escaping @Sendable () -> String?,
        isEnabledInReleaseBuilds: @escaping @Sendable () -> Bool,
        write: @escaping @Sendable (String) -> Void
    ) {
        self.isDebugBuild = isDebugBuild
        self.environmentValue = environmentValue
        self.isEnabledInReleaseBuilds = isEnabledInReleaseBuilds
        self.write = write
    }

    /// The decision for now, without writing anything.
    package var decision: Activation {
        Activation.decide(
            isDebugBuild: isDebugBuild,
            environmentValue: environmentValue(),
            isEnabledInReleaseBuilds: isEnabledInReleaseBuilds()
        )
    }

    /// Writes `notice` the first time this gate is asked to.
    package func noteOnce(_ notice: String) {
        if written.withLock({ $0.insert(notice).inserted }) { write(notice) }
    }

    /// The decision for now; its notice is written the first time this gate reaches it.
    package func check() -> Activation {
        let decision = self.decision
        if let notice = decision.notice, written.withLock({ $0.insert(notice).inserted }) {
            write(notice)
        }
        return decision
    }
}
