import Foundation
import NetTapCore

extension NetworkShaper {
    /// The keys of a shaping configuration object.
    public static let configurationKeys: Set<String> = ["profile", "rules"]

    /// Creates a shaper from configuration JSON.
    ///
    /// ```json
    /// {
    ///   "profile": "3g",
    ///   "rules": [
    ///     {"match": {"host": "cdn.example.com"}, "profile": "edge"},
    ///     {"match": {"path": "/upload"}, "profile": {"latencyMs": 100, "uploadBandwidth": "330 kbit/s"}}
    ///   ]
    /// }
    /// ```
    /// `profile` (optional) applies to requests no rule matches; `rules` (optional) are tried in order, `match`
    /// being a `RequestMatcher` configuration. Profiles are read by ``NetworkProfile/init(configuration:)``.
    ///
    /// - Parameter node: The shaping object, for example `$.shaping` of `nettap.json`.
    /// - Throws: `ConfigurationError` naming the file and JSON path of an unknown key, a wrong type, an unknown
    ///   preset or unit, or an invalid matcher.
    package convenience init(configuration node: ConfigNode) throws {
        try node.rejectUnknownKeys(allowed: Self.configurationKeys)
        let profile = try node.presentMember("profile").map(NetworkProfile.init(configuration:))
        let rules = try node.each("rules", ShapingRule.init(configuration:))
        self.init(profile: profile, rules: rules)
    }

    /// Reads the `shaping` section of a `nettap.json` file (or a file that is only that section).
    ///
    /// ```swift
    /// let shaper = try NetworkShaper.load(contentsOf: Bundle.main.url(forResource: "nettap", withExtension: "json")!)
    /// ```
    /// - Parameter url: The file.
    /// - Returns: The shaper.
    /// - Throws: `ConfigurationError` naming the file and the JSON path of the first problem (see
    ///   `init(configuration:)`).
    public static func load(contentsOf url: URL) throws -> NetworkShaper {
        try loadSection(contentsOf: url)
    }
}

extension ShapingRule {
    /// Reads a rule: `{"match": {…matcher…}, "profile": "edge" | {…}}`.
    ///
    /// - Parameter node: The rule object.
    /// - Throws: `ConfigurationError` naming the file and JSON path when `match` or `profile` is missing or
    ///   invalid, or another key is present.
    package init(configuration node: ConfigNode) throws {
        try node.rejectUnknownKeys(allowed: ["match", "profile"])
        let matcher = try RequestMatcher(configuration: node.requiredChild("match"))
        let profile = try NetworkProfile(configuration: node.requiredChild("profile"))
        self.init(matcher, profile: profile)
    }
}

extension NetworkProfile {
    /// The keys of a profile object.
    public static let configurationKeys: Set<String> = [
        "preset", "latencyMs", "jitterMs", "downloadBandwidth", "uploadBandwidth", "loss", "condition", "fault",
    ]

    /// Reads a profile: a preset name (a key of ``presets``, such as `"3g"`) or an object.
    ///
    /// ```json
    /// {"latencyMs": 100, "jitterMs": 20, "downloadBandwidth": "780 kbit/s", "uploadBandwidth": "330 kbit/s",
    ///  "loss": 0.1, "condition": "offline"}
    /// ```
    /// In an object every key is optional: `preset` names a starting point the other keys change; `latencyMs`
    /// and `jitterMs` are milliseconds (non-negative numbers); bandwidths are strings with the unit spelled out
    /// (see ``bytesPerSecond(parsing:)``) or `"unlimited"`; `loss` is a probability `0...1`; `condition` is
    /// `offline`, `dns-failure`, `timeout` or `server-down`; `fault` is a body fault,
    /// `{"type": "drop-connection" | "truncate" | "stall", "afterBytes": 400}` (see ``fault``).
    ///
    /// - Parameter node: The string or object.
    /// - Throws: `ConfigurationError` naming the file and JSON path of an unknown preset, key, unit or
    ///   condition, a wrong type, or a value out of range.
    package init(configuration node: ConfigNode) throws {
        if case .string(let name) = node.value {
            self = try Self.preset(configuration: node, name: name)
            return
        }
        guard case .object = node.value else {
            throw node.typeMismatch(
                expected: "a preset name (\(Self.presets.keys.sorted().joined(separator: ", "))) or a profile object"
            )
        }
        try node.rejectUnknownKeys(allowed: Self.configurationKeys)
        var profile = NetworkProfile()
        if let preset = try node.presentMember("preset") {
            profile = try Self.preset(configuration: preset, name: preset.stringValue())
        }
        if let latency = try node.presentMember("latencyMs") {
            profile.latency = try Self.milliseconds(latency)
        }
        if let jitter = try node.presentMember("jitterMs") {
            profile.jitter = try Self.milliseconds(jitter)
        }
        if let download = try node.presentMember("downloadBandwidth") {
            profile.downloadBytesPerSecond = try Self.bandwidth(download)
        }
        if let upload = try node.presentMember("uploadBandwidth") {
            profile.uploadBytesPerSecond = try Self.bandwidth(upload)
        }
        if let loss = try node.presentMember("loss") {
            let rate = try loss.doubleValue()
            guard (0...1).contains(rate) else {
                throw loss.error("loss must be between 0 and 1, found \(loss.value.messageText)")
            }
            profile.failureRate = rate
        }
        if let condition = try node.presentMember("condition") {
            let name = try condition.stringValue()
            guard let value = Self.conditionNames[name] else {
                throw condition.error(
                    "unknown condition \"\(name)\"; expected one of offline, dns-failure (or dnsFailure), timeout, "
                        + "server-down (or serverDown)"
                )
            }
            profile.condition = value
        }
        if let fault = try node.presentMember("fault") {
            profile.fault = try BodyFault(configuration: fault)
        }
        self = profile
    }

    /// Reads a bandwidth with its unit spelled out and returns it in bytes per second.
    ///
    /// Units (1 kbit = 1,000 bits, 1 KiB = 1,024 bytes; case is ignored): `bytes/s` (or `B/s`), `kbit/s`,
    /// `Mbit/s`, `KiB/s`, `MiB/s`. A space between number and unit is optional: `780 kbit/s`, `1.5Mbit/s`.
    ///
    /// - Parameter text: The bandwidth, for example `780 kbit/s`.
    /// - Returns: Bytes per second, rounded to the nearest byte; `nil` when the text is not a positive number
    ///   followed by a known unit.
    public static func bytesPerSecond(parsing text: String) -> Int? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let unitStart = trimmed.firstIndex(where: { !($0.isNumber || $0 == ".") }) else { return nil }
        guard let number = Double(trimmed[..<unitStart]), number > 0, number.isFinite else { return nil }
        let unit = trimmed[unitStart...].trimmingCharacters(in: .whitespaces).lowercased()
        let factors: [String: Double] = [
            "bytes/s": 1, "b/s": 1, "kbit/s": 125, "mbit/s": 125_000, "kib/s": 1024, "mib/s": 1_048_576,
        ]
        guard let factor = factors[unit] else { return nil }
        let bytes = (number * factor).rounded()
        guard bytes >= 1, bytes < Double(Int.max) else { return nil }
        return Int(bytes)
    }

    private static let conditionNames: [String: Condition] = [
        "offline": .offline, "dns-failure": .dnsFailure, "dnsFailure": .dnsFailure, "timeout": .timeout,
        "server-down": .serverDown, "serverDown": .serverDown,
    ]

    private static func preset(configuration node: ConfigNode, name: String) throws -> NetworkProfile {
        guard let profile = preset(named: name) else {
            throw node.error(
                "unknown network profile preset \"\(name)\"; expected one of \(presets.keys.sorted().joined(separator: ", "))"
            )
        }
        return profile
    }

    private static func milliseconds(_ node: ConfigNode) throws -> Duration {
        let value = try node.doubleValue()
        guard value >= 0, value.isFinite else {
            throw node.error("expected milliseconds ≥ 0, found \(node.value.messageText)")
        }
        return .microseconds((value * 1000).rounded())
    }

    private static func bandwidth(_ node: ConfigNode) throws -> Int? {
        let bare: String? =
            switch node.value {
            case .integer(let integer): "\(integer)"
            case .number(let number): "\(number)"
            default: nil
            }
        if let bare {
            throw node.error(
                "a bandwidth needs its unit: write it as a string such as \"\(bare) kbit/s\" "
                    + "(units: bytes/s, kbit/s, Mbit/s, KiB/s, MiB/s) or \"unlimited\""
            )
        }
        let text = try node.stringValue()
        if text.lowercased() == "unlimited" { return nil }
        guard let bytes = bytesPerSecond(parsing: text) else {
            throw node.error(
                "invalid bandwidth \"\(text)\"; expected a positive number and a unit: bytes/s, kbit/s, Mbit/s, "
                    + "KiB/s, MiB/s (for example \"780 kbit/s\"), or \"unlimited\""
            )
        }
        return bytes
    }
}

extension ConfigNode {
    /// The member, or `nil` when it is absent or `null`.
    fileprivate func presentMember(_ key: String) throws -> ConfigNode? {
        guard let node = try child(key), node.value != .null else { return nil }
        return node
    }
}

extension NetworkShaper: ConfigurationSection {
    /// `shaping`.
    package static let sectionName = "shaping"
    /// The section's keys: ``configurationKeys``.
    package static var sectionKeys: Set<String> { configurationKeys }
    /// The handler's place: `shaping`.
    package static var handlerLayer: HandlerLayer? { .shaping }

    /// Reads the `shaping` section.
    package static func read(section: ConfigNode, context: ConfigurationContext) throws -> NetworkShaper? {
        try NetworkShaper(configuration: section)
    }
}
