import Foundation
import NetTapCore
import NetTapMocking
import NetTapShaping

/// What the control page shows: the running app's switches as they are now, as `GET /control/state` sends them
/// (JSON) and every change answers.
///
/// For recorded traffic (`nettap inspect`) only the counts and the DevTools link are present: there is nothing to
/// switch.
struct ControlState: Encodable {
    /// One mock set (a `MockHandler` among the app's handlers).
    struct Mocks: Encodable {
        var handler: String
        var activeScenario: String?
        var scenarios: [String]
        var stubs: [StubState]
    }

    /// One stub of a mock set.
    struct StubState: Encodable {
        var name: String
        /// `nil` for a base stub.
        var scenario: String?
        var alternatives: [String]
        var activeAlternative: String?
        var hits: Int
    }

    /// The shaper's profile and rules.
    struct Network: Encodable {
        /// The profile every request gets, in words (`unthrottled`, `3g: latency 400 ms, …`).
        var profile: String
        /// Who set it: a preset's name, `DevTools`, or `nil` for the app's own.
        var source: String?
        var presets: [String]
        var rules: [Rule]
    }

    /// One shaping rule; the control page's own can be removed by host.
    struct Rule: Encodable {
        var matcher: String
        var profile: String
        /// The host of a control page rule; `nil` for DevTools' and the app's.
        var pageHost: String?
    }

    /// `NetTapInterceptor.scope` in its string form.
    struct Scope: Encodable {
        var allowHosts: [String]
        var denyHosts: [String]
    }

    var title: String
    var devToolsURL: String
    var discoveryAddress: String
    /// Whether this is a running app (else recorded traffic).
    var isLive: Bool
    /// Requests that reached the inspector since it started (recorded traffic: the transactions held).
    var requestCount: Int
    /// Transactions the capture holds now, and how many it keeps at most.
    var captured: Int
    var capacity: Int?
    var isCapturing: Bool?
    var network: Network?
    var scope: Scope?
    var mocks: [Mocks]

    /// The state of recorded traffic.
    init(recorded traffic: any InspectedTraffic, title: String, devToolsURL: String, discoveryAddress: String) {
        let count = traffic.transactions.count
        self.init(
            title: title,
            devToolsURL: devToolsURL,
            discoveryAddress: discoveryAddress,
            isLive: false,
            requestCount: count,
            captured: count,
            mocks: []
        )
    }

    /// The state of a running app.
    init(app: ControlledApp, title: String, devToolsURL: String, discoveryAddress: String) {
        let log = app.interceptor.captureLog
        self.init(
            title: title,
            devToolsURL: devToolsURL,
            discoveryAddress: discoveryAddress,
            isLive: true,
            requestCount: app.controls.requestCount,
            captured: log.transactions.count,
            capacity: log.capacity,
            isCapturing: log.isCapturing,
            network: Self.network(of: app.controls),
            scope: Scope(
                allowHosts: app.interceptor.scope.allowHosts.map(\.description),
                denyHosts: app.interceptor.scope.denyHosts.map(\.description)
            ),
            mocks: app.mockSets.map(Self.mocks)
        )
    }

    private init(
        title: String,
        devToolsURL: String,
        discoveryAddress: String,
        isLive: Bool,
        requestCount: Int,
        captured: Int,
        capacity: Int? = nil,
        isCapturing: Bool? = nil,
        network: Network? = nil,
        scope: Scope? = nil,
        mocks: [Mocks]
    ) {
        self.title = title
        self.devToolsURL = devToolsURL
        self.discoveryAddress = discoveryAddress
        self.isLive = isLive
        self.requestCount = requestCount
        self.captured = captured
        self.capacity = capacity
        self.isCapturing = isCapturing
        self.network = network
        self.scope = scope
        self.mocks = mocks
    }

    private static func network(of controls: InspectorControls) -> Network {
        let pageRules = controls.hostRules
        let rules = controls.shaper.rules.enumerated().map { index, rule in
            Rule(
                matcher: rule.matcher.description,
                profile: NetworkProfileWords.describe(rule.profile),
                pageHost: index < pageRules.count ? pageRules[index].host : nil
            )
        }
        return Network(
            profile: NetworkProfileWords.describe(controls.shaper.profile),
            source: controls.overallSource,
            presets: NetworkProfileWords.presetOrder,
            rules: rules
        )
    }

    private static func mocks(_ set: (handler: String, mocks: MockSet)) -> Mocks {
        let mocks = set.mocks
        func state(_ stub: Stub, scenario: String?) -> StubState {
            StubState(
                name: stub.name,
                scenario: scenario,
                alternatives: stub.alternativeNames,
                activeAlternative: mocks.activeAlternative(for: stub.name, in: scenario),
                hits: mocks.hitCount(for: stub.name, in: scenario)
            )
        }
        let scenarios = mocks.scenarios
        let base = mocks.stubs.map { state($0, scenario: nil) }
        let inScenarios = scenarios.flatMap { scenario in scenario.stubs.map { state($0, scenario: scenario.name) } }
        return Mocks(
            handler: set.handler,
            activeScenario: mocks.activeScenario,
            scenarios: scenarios.map(\.name),
            stubs: base + inScenarios
        )
    }
}
