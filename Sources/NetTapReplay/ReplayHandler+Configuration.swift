import Foundation
import NetTapCore
import NetTapHAR

extension ReplayHandler {
    /// The keys of a cassette configuration object.
    public static let configurationKeys: Set<String> = [
        "path", "mode", "matching", "bodyByteLimit", "allowPlaybackRepeats", "reRecordIntervalDays",
    ]

    /// Creates the handler from configuration JSON: the `cassette` section of `nettap.json`.
    ///
    /// ```json
    /// {
    ///   "cassette": {
    ///     "path": "cassettes/login.har",
    ///     "mode": "newEpisodes",
    ///     "matching": {"ignoresQueryOrder": true, "ignoredQueryItems": ["_ts"], "headers": ["Accept"], "body": "json"},
    ///     "bodyByteLimit": "16 MiB",
    ///     "allowPlaybackRepeats": false,
    ///     "reRecordIntervalDays": 30
    ///   }
    /// }
    /// ```
    /// `path` (required) is the HAR 1.2 cassette file, relative to `baseDirectory` unless absolute (`~` is
    /// expanded); it is read now when it exists. `mode` is a ``RecordMode`` name (`once` by default). `matching`
    /// is read by ``CassetteMatching/init(configuration:)``. `bodyByteLimit` is the most bytes of each body a
    /// recording keeps: a number of bytes (≥ 0) or a string with a unit (`KB`, `MB`, `GB`, `KiB`, `MiB`, `GiB`);
    /// 16 MiB by default. `allowPlaybackRepeats` (a boolean, `true` by default) is ``allowPlaybackRepeats``;
    /// `reRecordIntervalDays` (a number of days above 0, fractions allowed; none by default) is
    /// ``reRecordInterval``.
    ///
    /// - Parameters:
    ///   - node: The cassette object, for example `$.cassette`.
    ///   - baseDirectory: The folder a relative `path` resolves against, normally the configuration file's
    ///     folder; `nil` for the current directory.
    ///   - redactor: What is redacted before writing and before matching; `Redactor.default` by default (the
    ///     `redaction` section of `nettap.json` when read through `NetTapConfiguration`).
    /// - Throws: `ConfigurationError` naming the file and JSON path of an unknown key (with a did-you-mean
    ///   suggestion), a wrong type, an unknown mode or body comparison, a size without a known unit, a
    ///   re-record interval not above 0 days, or (at `path`) a cassette file that exists but is not a HAR document.
    package init(configuration node: ConfigNode, baseDirectory: URL? = nil, redactor: Redactor = .default) throws {
        try node.rejectUnknownKeys(allowed: Self.configurationKeys)
        let pathNode = try node.requiredChild("path")
        let path = (try pathNode.stringValue() as NSString).expandingTildeInPath
        guard !path.isEmpty else { throw pathNode.error("expected a file path, found an empty string") }
        let base = baseDirectory ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        let url =
            path.hasPrefix("/")
            ? URL(fileURLWithPath: path) : base.appendingPathComponent(path).standardizedFileURL
        let mode = try Self.recordMode(node)
        let matching = try node.child("matching").flatMap { $0.value == .null ? nil : $0 }.map(
            CassetteMatching.init(configuration:)
        )
        let limit = try node.byteCount("bodyByteLimit") ?? Self.defaultBodyByteLimit
        let repeats = try node.bool("allowPlaybackRepeats") ?? true
        let interval = try Self.reRecordInterval(node)
        do {
            try self.init(
                cassette: url,
                mode: mode,
                matching: matching ?? .default,
                allowPlaybackRepeats: repeats,
                reRecordInterval: interval,
                redactor: redactor,
                bodyByteLimit: limit
            )
        } catch {
            throw pathNode.error("cannot read cassette \"\(path)\": \(error.description)")
        }
    }

    /// Reads `mode`: a ``RecordMode`` name, ``RecordMode/once`` when absent or `null`.
    private static func recordMode(_ node: ConfigNode) throws -> RecordMode {
        guard let modeNode = try node.child("mode"), modeNode.value != .null else { return .once }
        let name = try modeNode.stringValue()
        guard let value = RecordMode(rawValue: name) else {
            let names = Set(RecordMode.allCases.map(\.rawValue))
            throw modeNode.error(
                "unknown record mode \"\(name)\"; "
                    + (ConfigNode.suggestion(for: name, among: names).map { "did you mean \"\($0)\"?" }
                        ?? "expected one of: \(RecordMode.allCases.map(\.rawValue).joined(separator: ", "))")
            )
        }
        return value
    }

    /// Reads `reRecordIntervalDays`: a number of days above 0 (at most 365000), fractions allowed; `nil` when
    /// absent or `null`.
    private static func reRecordInterval(_ node: ConfigNode) throws -> Duration? {
        guard let daysNode = try node.child("reRecordIntervalDays"), daysNode.value != .null else { return nil }
        let days = try daysNode.doubleValue()
        guard days > 0, days <= 365_000 else {
            throw daysNode.error(
                "expected a number of days above 0 (at most 365000), found \(daysNode.value.messageText)"
            )
        }
        return .seconds((days * 86_400).rounded())
    }

    /// Reads the `cassette` section of a `nettap.json` file (or a file that is only that section).
    ///
    /// - Parameters:
    ///   - url: The file; a relative `path` resolves against its folder.
    ///   - redactor: What is redacted before writing and before matching; `Redactor.default` by default.
    /// - Returns: The handler.
    /// - Throws: `ConfigurationError` naming the file and the JSON path of the first problem (see
    ///   `init(configuration:baseDirectory:redactor:)`).
    public static func load(contentsOf url: URL, redactor: Redactor = .default) throws -> ReplayHandler {
        try loadSection(contentsOf: url, redactor: redactor)
    }
}

extension CassetteMatching {
    /// The keys of a matching configuration object.
    public static let configurationKeys: Set<String> = ["ignoresQueryOrder", "ignoredQueryItems", "headers", "body"]

    /// Reads matching options: `{"ignoresQueryOrder": true, "ignoredQueryItems": ["_ts"], "headers": ["Accept"],
    /// "body": "json"}`.
    ///
    /// Every key is optional and defaults as ``init(ignoresQueryOrder:ignoredQueryItems:headers:body:)`` does:
    /// `ignoresQueryOrder` a boolean, `ignoredQueryItems` query item names, `headers` header field names whose
    /// values must be equal, `body` one of `ignore`, `exact` or `json` (``BodyComparison``).
    ///
    /// - Parameter node: The matching object, for example `$.cassette.matching`.
    /// - Throws: `ConfigurationError` naming the file and JSON path of an unknown key (with a did-you-mean
    ///   suggestion), a wrong type or an unknown body comparison.
    package init(configuration node: ConfigNode) throws {
        try node.rejectUnknownKeys(allowed: Self.configurationKeys)
        var body = BodyComparison.ignore
        if let bodyNode = try node.child("body"), bodyNode.value != .null {
            let name = try bodyNode.stringValue()
            guard let value = BodyComparison(rawValue: name) else {
                throw bodyNode.error(
                    "unknown body comparison \"\(name)\"; expected one of: "
                        + BodyComparison.allCases.map(\.rawValue).joined(separator: ", ")
                )
            }
            body = value
        }
        self.init(
            ignoresQueryOrder: try node.bool("ignoresQueryOrder") ?? false,
            ignoredQueryItems: Set(try node.array("ignoredQueryItems").map { try $0.stringValue() }),
            headers: try node.array("headers").map { try $0.stringValue() },
            body: body
        )
    }
}

extension ReplayHandler: ConfigurationSection {
    /// `cassette`.
    package static let sectionName = "cassette"
    /// The section's keys: ``configurationKeys``.
    package static var sectionKeys: Set<String> { configurationKeys }
    /// The handler's place: `cassette`.
    package static var handlerLayer: HandlerLayer? { .cassette }

    /// Reads the `cassette` section.
    package static func read(section: ConfigNode, context: ConfigurationContext) throws -> ReplayHandler? {
        try ReplayHandler(
            configuration: section,
            baseDirectory: context.baseDirectory,
            redactor: context.redactor
        )
    }
}
