import Foundation
import NetTapCore
import NetTapShaping

/// What DevTools' own controls and the control page set on the running app: the throttling menu (a network
/// profile, "Offline" included), request blocking, and the control page's profile and per-host rules.
///
/// Throttling drives a ``NetworkShaper``: the app's own (from a `ShapingHandler` it installed; its profile and
/// rules are put back when the inspector stops) or one of the inspector's, applied by ``InspectorControlHandler``.
/// Three commands set it, as frontends of different ages send them:
/// - `Network.emulateNetworkConditions` (older frontends) and `Network.overrideNetworkState` (Chromium 156): one
///   state for every request (`offline`, `latency` in ms, `downloadThroughput`/`uploadThroughput` in bytes per
///   second, `-1` or `0` for unlimited);
/// - `Network.emulateNetworkConditionsByRule` (Chromium 156): conditions per URL pattern (an empty pattern is every
///   request), and `offline` for all; answered with one rule id per condition.
///
/// The control page sets the same overall profile (a preset by name; the last of DevTools and the page wins) and
/// adds rules by host, which go ahead of DevTools' and the app's own rules.
///
/// Thread safety: every member may be used from any thread.
package final class InspectorControls: Sendable {
    private struct Rule {
        var pattern: DevToolsURLPattern
        var profile: NetworkProfile
    }

    private struct Blocking {
        var pattern: DevToolsURLPattern
        var block: Bool
    }

    /// A rule the control page added: a preset for one host pattern.
    package struct HostRule: Sendable, Equatable {
        /// The requests' hosts, as the host scope matches them.
        package var pattern: HostPattern
        /// The preset's configuration name (`NetworkProfile.presets`).
        package var preset: String
        /// That preset.
        package var profile: NetworkProfile
        /// The pattern in its string form.
        package var host: String { pattern.description }
    }

    private struct State {
        var blocking: [Blocking] = []
        var overall: NetworkProfile?
        /// Who set ``overall`` last, for the control page: a preset's name, or `DevTools`.
        var overallSource: String?
        var hostRules: [HostRule] = []
        var requestCount = 0
        var rules: [Rule] = []
        var rulesOffline = false
        var nextRuleID = 1
    }

    /// The shaper the throttling menu sets.
    package let shaper: NetworkShaper
    /// The inspector's own shaping stage, when the app has none; `nil` when throttling sets the app's shaper.
    package let ownShaping: ShapingHandler?
    private let original: (profile: NetworkProfile?, rules: [ShapingRule])
    private let state = Locked(State())

    /// Controls that set `appShaper` (the app's, found among its handlers), or a new shaper of their own.
    package init(appShaper: NetworkShaper?) {
        if let appShaper {
            shaper = appShaper
            ownShaping = nil
        } else {
            shaper = NetworkShaper()
            ownShaping = ShapingHandler(shaper: shaper)
        }
        original = (shaper.profile, shaper.rules)
    }

    /// The pattern that blocks `url`, or `nil`: the first pattern that matches decides (`block: false` lets the
    /// URL through).
    package func blockingPattern(for url: URL) -> String? {
        let blocking = state.withLock { $0.blocking }
        guard let first = blocking.first(where: { $0.pattern.matches(url) }), first.block else { return nil }
        return first.pattern.text
    }

    /// `Network.setBlockedURLs`: `urlPatterns` (`[{urlPattern, block}]`) first, then the legacy `urls`.
    package func setBlockedURLs(_ params: [String: Any]) {
        var blocking: [Blocking] = []
        for item in params["urlPatterns"] as? [[String: Any]] ?? [] {
            guard let text = item["urlPattern"] as? String else { continue }
            blocking.append(
                Blocking(pattern: DevToolsURLPattern(urlPattern: text), block: item["block"] as? Bool ?? true)
            )
        }
        for text in params["urls"] as? [String] ?? [] {
            blocking.append(Blocking(pattern: DevToolsURLPattern(legacy: text), block: true))
        }
        state.withLock { $0.blocking = blocking }
    }

    /// `Network.emulateNetworkConditions` and `Network.overrideNetworkState`: one state for every request.
    package func setOverallConditions(_ params: [String: Any]) {
        let profile = Self.profile(from: params)
        state.withLock { state in
            state.overall = profile
            state.overallSource = profile == nil ? nil : "DevTools"
        }
        applyShaping()
    }

    /// The control page's profile for every request: a preset by its configuration name, or `nil` for the app's
    /// own (what it had before the inspector, or nothing).
    ///
    /// - Throws: ``InspectorError`` naming the preset and the known ones when there is no preset of that name.
    package func setPreset(_ name: String?) throws(InspectorError) {
        let profile = try name.map { name throws(InspectorError) in try Self.preset(name) }
        state.withLock { state in
            state.overall = profile
            state.overallSource = name?.lowercased()
        }
        applyShaping()
    }

    /// Adds (or replaces, for the same pattern) a control page rule.
    ///
    /// - Parameters:
    ///   - host: A host pattern as the host scope reads it (`HostPattern`: a host, `*.domain`, `regex:…`).
    ///   - preset: A preset's configuration name (`NetworkProfile.presets`).
    /// - Throws: ``InspectorError`` with `HostPattern`'s reason for a pattern it refuses, or for an unknown preset.
    package func addHostRule(host: String, preset: String) throws(InspectorError) {
        let pattern: HostPattern
        do {
            pattern = try HostPattern(host.trimmingCharacters(in: .whitespaces))
        } catch {
            throw InspectorError("\(error)")
        }
        let rule = HostRule(pattern: pattern, preset: preset.lowercased(), profile: try Self.preset(preset))
        let host = rule.host
        state.withLock { state in
            state.hostRules.removeAll { $0.host == host }
            state.hostRules.append(rule)
        }
        applyShaping()
    }

    /// Removes the control page rule for `host`; returns whether there was one.
    @discardableResult
    package func removeHostRule(host: String) -> Bool {
        let removed = state.withLock { state -> Bool in
            let count = state.hostRules.count
            state.hostRules.removeAll { $0.host == host.lowercased() }
            return state.hostRules.count != count
        }
        applyShaping()
        return removed
    }

    /// The control page's rules, oldest first.
    package var hostRules: [HostRule] { state.withLock { $0.hostRules } }

    /// Who set the overall profile last: a preset's name, `DevTools`, or `nil` (the app's own).
    package var overallSource: String? { state.withLock { $0.overallSource } }

    /// Counts a request that reached the inspector's stage.
    package func noteRequest() {
        state.withLock { $0.requestCount += 1 }
    }

    /// How many requests reached the inspector's stage since it started.
    package var requestCount: Int { state.withLock { $0.requestCount } }

    private static func preset(_ name: String) throws(InspectorError) -> NetworkProfile {
        guard let profile = NetworkProfile.preset(named: name) else {
            let known = NetworkProfile.presets.keys.sorted().joined(separator: ", ")
            throw InspectorError("no network preset \"\(name)\"; the presets are \(known)")
        }
        return profile
    }

    /// `Network.emulateNetworkConditionsByRule`: returns the new rules' ids.
    package func setConditionsByRule(_ params: [String: Any]) -> [String] {
        let conditions = params["matchedNetworkConditions"] as? [[String: Any]] ?? []
        let ids = state.withLock { state -> [String] in
            state.rulesOffline = params["offline"] as? Bool ?? false
            state.rules = conditions.compactMap { condition in
                let pattern = DevToolsURLPattern(urlPattern: condition["urlPattern"] as? String ?? "")
                return Self.profile(from: condition).map { Rule(pattern: pattern, profile: $0) }
            }
            defer { state.nextRuleID += conditions.count }
            return conditions.indices.map { "nettap-rule-\(state.nextRuleID + $0)" }
        }
        applyShaping()
        return ids
    }

    /// The profile the shaper gives every request now (`nil`: unthrottled), for the control page and tests.
    package var overallProfile: NetworkProfile? { shaper.profile }

    /// Puts the app's shaper back as it was before DevTools set it; clears blocking.
    package func restore() {
        state.withLock { $0 = State() }
        if ownShaping == nil {
            shaper.setRules(original.rules)
            shaper.setProfile(original.profile)
        }
    }

    /// The network profile of one set of DevTools conditions; `nil` when they throttle nothing.
    static func profile(from params: [String: Any]) -> NetworkProfile? {
        if params["offline"] as? Bool == true { return NetworkProfile(condition: .offline) }
        let latency = max(0, number(params["latency"]))
        let download = number(params["downloadThroughput"])
        let upload = number(params["uploadThroughput"])
        guard latency > 0 || download > 0 || upload > 0 else { return nil }
        return NetworkProfile(
            latency: .milliseconds(latency),
            downloadBytesPerSecond: download > 0 ? Int(download.rounded()) : nil,
            uploadBytesPerSecond: upload > 0 ? Int(upload.rounded()) : nil
        )
    }

    private static func number(_ value: Any?) -> Double {
        guard let number = value as? NSNumber, number.doubleValue.isFinite else { return 0 }
        return number.doubleValue
    }

    /// Sets the shaper from the overall state and the rules: offline anywhere wins; a rule with an empty
    /// pattern is the overall profile; the others become shaping rules, ahead of it.
    private func applyShaping() {
        let (overall, rules, offline, hostRules) = state.withLock {
            ($0.overall, $0.rules, $0.rulesOffline, $0.hostRules)
        }
        if offline || overall?.condition == .offline {
            shaper.setRules([])
            shaper.setProfile(NetworkProfile(condition: .offline))
            return
        }
        let everything = rules.last { $0.pattern.text.isEmpty }?.profile
        let specific = rules.filter { !$0.pattern.text.isEmpty }.map { rule in
            ShapingRule(
                RequestMatcher(description: "DevTools pattern \(rule.pattern.text)", specificity: 1) { request in
                    guard let url = request.url, rule.pattern.matches(url) else {
                        return .missed("URL outside DevTools pattern \(rule.pattern.text)")
                    }
                    return .matched
                },
                profile: rule.profile
            )
        }
        let byHost = hostRules.map { rule in
            ShapingRule(
                RequestMatcher(description: "host \(rule.host)", specificity: 10) { request in
                    rule.pattern.matches(host: request.url?.host ?? "")
                        ? .matched : .missed("host outside \(rule.host)")
                },
                profile: rule.profile
            )
        }
        shaper.setRules(byHost + specific + (ownShaping == nil ? original.rules : []))
        shaper.setProfile(overall ?? everything ?? (ownShaping == nil ? original.profile : nil))
    }
}
