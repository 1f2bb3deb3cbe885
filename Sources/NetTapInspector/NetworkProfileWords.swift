import Foundation
import NetTapShaping

/// A network profile in words, for the control page: its preset's name when it is one, and what it does.
enum NetworkProfileWords {
    /// The presets in the order the control page offers them: fastest to slowest, then the failure conditions.
    static let presetOrder: [String] = {
        let ordered = [
            "none", "wifi", "dsl", "lte", "fast-3g", "3g", "slow-3g", "edge", "very-bad-network", "100%-loss",
            "offline", "dns-failure", "timeout", "server-down",
        ]
        let known = Set(NetworkProfile.presets.keys)
        return ordered.filter(known.contains) + known.subtracting(ordered).sorted()
    }()

    /// `unthrottled` for `nil`, else `name: what it does` for a preset (`3g: latency 400 ms, down 96,000 B/s`) or
    /// what it does.
    static func describe(_ profile: NetworkProfile?) -> String {
        guard let profile else { return "unthrottled" }
        let effect = effect(of: profile)
        guard let name = presetOrder.first(where: { NetworkProfile.presets[$0] == profile }) else { return effect }
        return name == effect ? name : "\(name): \(effect)"
    }

    private static func effect(of profile: NetworkProfile) -> String {
        if let condition = profile.condition { return conditionName(condition) }
        var parts: [String] = []
        if profile.latency > .zero {
            let jitter = profile.jitter > .zero ? " ± \(milliseconds(profile.jitter)) ms" : ""
            parts.append("latency \(milliseconds(profile.latency)) ms\(jitter)")
        }
        if let down = profile.downloadBytesPerSecond { parts.append("down \(grouped(down)) B/s") }
        if let up = profile.uploadBytesPerSecond { parts.append("up \(grouped(up)) B/s") }
        if profile.failureRate > 0 {
            parts.append("\((profile.failureRate * 100).formatted(.number.precision(.fractionLength(0...1))))% fail")
        }
        if let fault = profile.fault { parts.append("bodies: \(fault)") }
        return parts.isEmpty ? "unthrottled" : parts.joined(separator: ", ")
    }

    private static func conditionName(_ condition: NetworkProfile.Condition) -> String {
        switch condition {
        case .offline: "offline"
        case .dnsFailure: "dns-failure"
        case .timeout: "timeout"
        case .serverDown: "server-down"
        }
    }

    private static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return Int(seconds) * 1_000 + Int(attoseconds / 1_000_000_000_000_000)
    }

    private static func grouped(_ value: Int) -> String {
        value.formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US")))
    }
}
