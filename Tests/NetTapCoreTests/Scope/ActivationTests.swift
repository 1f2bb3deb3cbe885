import Foundation
import Testing

@testable import NetTapCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Release gating: NetTap installs in debug builds, and in release builds only when opted in")
struct ActivationTests {
    /// (debug build, NETTAP_ENABLE, API opt-in) → active.
    @Test(
        "the decision follows the table",
        arguments: [
            (true, nil, false, true),
            (true, "", false, true),
            (true, "1", false, true),
            (true, "0", false, false),
            (true, "0", true, false),
            (true, "maybe", false, true),
            (false, nil, false, false),
            (false, nil, true, true),
            (false, "1", false, true),
            (false, " TRUE ", false, true),
            (false, "yes", false, true),
            (false, "off", true, false),
            (false, "0", true, false),
            (false, "maybe", false, false),
            (false, "maybe", true, true),
        ] as [(Bool, String?, Bool, Bool)]
    )
    func table(isDebugBuild: Bool, environmentValue: String?, optedIn: Bool, isActive: Bool) {
        let decision = Activation.decide(
            isDebugBuild: isDebugBuild,
            environmentValue: environmentValue,
            isEnabledInReleaseBuilds: optedIn
        )
        #expect(decision.isActive == isActive)
    }

    @Test("reasons and notices name the way to opt in, or how NetTap was opted in")
    func wording() {
        let off = Activation.decide(isDebugBuild: false, environmentValue: nil, isEnabledInReleaseBuilds: false)
        #expect(
            off.reason
                == "release build; set NETTAP_ENABLE=1 in the environment or NetTapInterceptor.isEnabledInReleaseBuilds = true to opt in"
        )
        #expect(off.notice == "NetTap is off: \(off.reason).")
        let viaEnvironment = Activation.decide(
            isDebugBuild: false,
            environmentValue: "1",
            isEnabledInReleaseBuilds: false
        )
        #expect(
            viaEnvironment.notice
                == "NetTap is active in a release build (opted in via NETTAP_ENABLE=1 in the environment)."
        )
        let viaAPI = Activation.decide(isDebugBuild: false, environmentValue: nil, isEnabledInReleaseBuilds: true)
        #expect(
            viaAPI.notice
                == "NetTap is active in a release build (opted in via NetTapInterceptor.isEnabledInReleaseBuilds)."
        )
        let debug = Activation.decide(isDebugBuild: true, environmentValue: nil, isEnabledInReleaseBuilds: false)
        #expect(debug.notice == nil)
        let killed = Activation.decide(isDebugBuild: true, environmentValue: "0", isEnabledInReleaseBuilds: false)
        #expect(killed.notice == "NetTap is off: NETTAP_ENABLE=0 in the environment turns NetTap off.")
        let unknown = Activation.decide(isDebugBuild: true, environmentValue: "maybe", isEnabledInReleaseBuilds: false)
        #expect(unknown.notice == #"NetTap: NETTAP_ENABLE="maybe" is not understood (use 1 or 0) and was ignored."#)
    }

    @Test("this test build is a debug build, so NetTap is active here")
    func thisBuild() {
        #expect(ActivationGate.compiledForDebugging)
        #expect(NetTapInterceptor.activation.isActive || ProcessInfo.processInfo.environment["NETTAP_ENABLE"] != nil)
    }

    /// A gate simulating a release build, with its notices captured.
    private func releaseGate(
        environment: String? = nil,
        optedIn: Locked<Bool> = Locked(false)
    ) -> (
        ActivationGate, Locked<[String]>
    ) {
        let lines = Locked<[String]>([])
        let gate = ActivationGate(
            isDebugBuild: false,
            environmentValue: { environment },
            isEnabledInReleaseBuilds: { optedIn.current },
            write: { line in lines.withLock { $0.append(line) } }
        )
        return (gate, lines)
    }

    @Test("in a release build that did not opt in, installing does nothing and the log says so once")
    func gatedOff() {
        let (gate, lines) = releaseGate()
        let interceptor = NetTapInterceptor(gate: gate)

        let configuration = interceptor.makeConfiguration(from: .ephemeral)
        let session = interceptor.makeSession()
        let installed = URLSessionConfiguration.ephemeral
        let before = installed.protocolClasses?.count
        interceptor.install(into: installed)
        let shared = interceptor.installForSharedSession()

        #expect(!(configuration.protocolClasses ?? []).contains { ProtocolSlots.isNetTap($0) })
        #expect(!(session.configuration.protocolClasses ?? []).contains { ProtocolSlots.isNetTap($0) })
        #expect(installed.protocolClasses?.count == before)
        #expect(configuration.connectionProxyDictionary?[NetTapInterceptor.servingMarkKey] == nil)
        #expect(
            shared
                == .notInterceptable(
                    reason:
                        "NetTap is off: release build; set NETTAP_ENABLE=1 in the environment or NetTapInterceptor.isEnabledInReleaseBuilds = true to opt in"
                )
        )
        #expect(lines.current.count == 1)
        #expect(lines.current.first?.hasPrefix("NetTap is off: release build;") == true)
    }

    @Test("a release build that opts in installs, and says so once")
    func optedIn() {
        let optedIn = Locked(false)
        let (gate, lines) = releaseGate(optedIn: optedIn)
        let interceptor = NetTapInterceptor(gate: gate)
        _ = interceptor.makeConfiguration()
        optedIn.withLock { $0 = true }

        let first = interceptor.makeConfiguration()
        let second = interceptor.makeConfiguration()

        #expect((first.protocolClasses ?? []).first.map(ProtocolSlots.isNetTap) == true)
        #expect((second.protocolClasses ?? []).first.map(ProtocolSlots.isNetTap) == true)
        #expect(
            lines.current == [
                "NetTap is off: release build; set NETTAP_ENABLE=1 in the environment or NetTapInterceptor.isEnabledInReleaseBuilds = true to opt in.",
                "NetTap is active in a release build (opted in via NetTapInterceptor.isEnabledInReleaseBuilds).",
            ]
        )
    }

    @Test("NETTAP_ENABLE=1 opts a release build in; NETTAP_ENABLE=0 turns even a debug build off")
    func environment() {
        let (gate, lines) = releaseGate(environment: "1")
        #expect(
            (NetTapInterceptor(gate: gate).makeConfiguration().protocolClasses ?? []).first.map(ProtocolSlots.isNetTap)
                == true
        )
        #expect(
            lines.current == ["NetTap is active in a release build (opted in via NETTAP_ENABLE=1 in the environment)."]
        )

        let killed = Locked<[String]>([])
        let debugGate = ActivationGate(
            isDebugBuild: true,
            environmentValue: { "0" },
            isEnabledInReleaseBuilds: { true },
            write: { line in killed.withLock { $0.append(line) } }
        )
        let configuration = NetTapInterceptor(gate: debugGate).makeConfiguration()
        #expect(!(configuration.protocolClasses ?? []).contains { ProtocolSlots.isNetTap($0) })
        #expect(killed.current == ["NetTap is off: NETTAP_ENABLE=0 in the environment turns NetTap off."])
    }
}
