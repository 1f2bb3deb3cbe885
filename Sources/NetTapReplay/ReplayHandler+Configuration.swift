import Foundation
import NetTapCore
import NetTapHAR

extension ReplayHandler {
    /// The keys of a cassette configuration object.
    public static let configurationKeys: Set<String> = ["path", "mode", "matching", "bodyByteLimit"]

    /// Creates the handler from configuration JSON: the `cassette` section of `nettap.json`.
    ///
    /// ```json
    /// {
    ///   "cassette": {
    ///     "path": "cassettes/login.har",
    ///     "mode": "newEpisodes",
    ///     "matching": {"ignoresQueryOrder": true, "ignoredQueryItems": ["_ts"], "headers": ["Accept"], "body": "json"},
    ///     "bodyByteLimit": "16 MiB"
    ///   }
    /// }
    /// ```
    /// `path` (required) is the HAR 1.2 cassette file, relative to `baseDirectory` unless absolute (`~` is
    /// expanded); it is read now when it exists. `mode` is a ``RecordMode`` name (`once` by default). `matching`
    /// is read by ``CassetteMatching/init(configuration:)``. `bodyByteLimit` is the most bytes of each body a
    /// recording keeps: a number of bytes (≥ 0) or a string with a unit (`KB`, `MB`, `GB`, `KiB`, `MiB`, `GiB`);
    /// 16 MiB by default.
    ///
    /// - Parameters:
    ///   - node: The cassette object, for example `$.cassette`.
    ///   - baseDirectory: The folder a relative `path` resolves against, normally the configuration file's
    ///     folder; `nil` for the current directory.
    ///   - redactor: What is redacted before writing and before matching; `Redactor.default` by default (the
    ///     `redaction` section of `nettap.json` when read through `NetTapConfiguration`).
    /// - Throws: `ConfigurationError` naming the file and JSON path of an unknown key (with a did-you-mean
    ///   suggestion), a wrong type, an unknown mode or body comparison, a size without a known unit, or (at
    ///   `path`) a cassette file that exists but is not a HAR document.
    package init(configuration node: ConfigNode, baseDirectory: URL? = nil, redactor: Redactor = .default) throws {
        try node.rejectUnknownKeys(allowed: Self.configurationKeys)
        let pathNode = try node.requiredChild("path")
        let path = (try pathNode.stringValue() as NSString).expandingTildeInPath
        guard !path.isEmpty else { throw pathNode.error("expected a file path, found an empty string") }
        let base = baseDirectory ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        let url =
            path.hasPrefix("/")
            ? URL(fileURLWithPath: path) : base.appendingPathComponent(path).standardizedFileURL
        var mode = RecordMode.once
        if let modeNode = try node.child("mode"), modeNode.value != .null {
            let name = try modeNode.stringValue()
            guard let value = RecordMode(rawValue: name) else {
                let names = Set(RecordMode.allCases.map(\.rawValue))
                throw modeNode.error(
                    "unknown record mode \"\(name)\"; "
                        + (ConfigNode.suggestion(for: name, among: names).map { "did you mean \"\($0)\"?" }
                            ?? "expected one of: \(RecordMode.allCases.map(\.rawValue).joined(separator: ", "))")
                )
            }
            mode = value
        }
        let matching = try node.child("matching").flatMap { $0.value == .null ? nil : $0 }.map(
            CassetteMatching.init(configuration:)
        )
        let limit = try node.byteCount("bodyByteLimit") ?? Self.defaultBodyByteLimit
        do {
            try self.init(
                cassette: url,
                mode: mode,
                matching: matching ?? .default,
                redactor: redactor,
                bodyByteLimit: limit
            )
        } catch {
            throw pathNode.error("cannot read cassette \"\(path)\": \(error.description)")
        }
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
