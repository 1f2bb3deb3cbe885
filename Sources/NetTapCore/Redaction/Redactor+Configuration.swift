import Foundation

extension Redactor {
    /// The keys of a redaction configuration object.
    public static let configurationKeys: Set<String> = ["enabled", "defaults", "tokens", "add", "except"]

    /// Reads a redactor from configuration JSON, such as the `redaction` section of `nettap.json`.
    ///
    /// ```json
    /// {
    ///   "redaction": {
    ///     "enabled": true,
    ///     "defaults": true,
    ///     "tokens": true,
    ///     "add": [{"header": "X-Session"}, {"field": "regex:^pin[0-9]*$"}, {"parameter": ["sig", "*_key"]}],
    ///     "except": [{"cookie": "theme"}]
    ///   }
    /// }
    /// ```
    /// Every key is optional:
    /// - `enabled` (default `true`): `false` gives ``disabled``, which changes nothing; `add` and `except` are
    ///   then not allowed.
    /// - `defaults` (default `true`): whether the ``defaultRules`` apply; `false` keeps only the rules of `add`.
    /// - `tokens` (default `true`): ``redactsTokens``, whether values shaped like known tokens and keys are
    ///   replaced wherever they appear.
    /// - `add`: more rules (see ``RedactionRule/rules(configuration:)``), matched as secret.
    /// - `except`: exceptions, kept although a rule matches them.
    ///
    /// - Parameter node: The redaction object, for example `$.redaction` of `nettap.json`.
    /// - Throws: ``ConfigurationError`` naming the file and JSON path of an unknown key (with a did-you-mean
    ///   suggestion), a value of the wrong type, a rule without exactly one target, or a regular expression that
    ///   does not compile.
    package init(configuration node: ConfigNode) throws {
        try node.rejectUnknownKeys(allowed: Self.configurationKeys)
        let isEnabled = try node.bool("enabled") ?? true
        let usesDefaults = try node.bool("defaults") ?? true
        let redactsTokens = try node.bool("tokens") ?? true
        let added = try node.each("add", RedactionRule.rules(configuration:)).flatMap { $0 }
        let excepted = try node.each("except", RedactionRule.rules(configuration:)).flatMap { $0 }
        guard isEnabled else {
            for key in ["defaults", "tokens", "add", "except"] {
                if let member = try node.present(key) {
                    throw member.error("\"\(key)\" has no effect with \"enabled\": false; remove one of them")
                }
            }
            self = .disabled
            return
        }
        self.init(
            rules: (usesDefaults ? Self.defaultRules : []) + added,
            exceptions: excepted,
            redactsTokens: redactsTokens
        )
    }

    /// Reads the `redaction` section of a `nettap.json` file (or a file that is only that section).
    ///
    /// - Parameter url: The file.
    /// - Returns: The redactor; ``default`` when the file has an empty section.
    /// - Throws: ``ConfigurationError`` naming the file and the JSON path of the first problem (see
    ///   `init(configuration:)`).
    public static func load(contentsOf url: URL) throws -> Redactor {
        try loadSection(contentsOf: url)
    }
}

extension RedactionRule {
    /// The keys of a rule object, each naming a target: `header`, `cookie`, `query`, `field`, `parameter`.
    public static let configurationKeys: Set<String> = ["header", "cookie", "query", "field", "parameter"]

    /// Reads the rules of one configuration object: `{"header": "X-Session"}` or `{"field": ["pin", "regex:^otp"]}`.
    ///
    /// The object has exactly one key, the target: `header` (header fields), `cookie` (cookies in `Cookie` and
    /// `Set-Cookie`), `query` (URL query items), `field` (JSON members and form fields in bodies) or `parameter`
    /// (query items and body fields both). Its value is one pattern or an array of them. A pattern starting with
    /// `regex:` is a regular expression that must match the whole name (``RedactionPattern/regex(_:)``); one
    /// containing `*` is a wildcard; any other is an exact name. Names are compared case-insensitively.
    ///
    /// - Parameter node: The rule object, for example `$.redaction.add[0]`.
    /// - Returns: The rules: one per pattern (two for `parameter`).
    /// - Throws: ``ConfigurationError`` at the rule or pattern at fault: an unknown target key (with a
    ///   did-you-mean suggestion), not exactly one target, a value that is not a string or an array of strings,
    ///   an empty pattern, or a regular expression that does not compile.
    package static func rules(configuration node: ConfigNode) throws -> [RedactionRule] {
        try node.rejectUnknownKeys(allowed: configurationKeys)
        let targets = try node.keys
        guard targets.count == 1, let target = targets.first, let value = try node.child(target) else {
            throw node.error(
                "a rule has exactly one of \"header\", \"cookie\", \"query\", \"field\" or \"parameter\""
                    + (targets.isEmpty ? "" : "; found " + targets.map { "\"\($0)\"" }.joined(separator: " and "))
            )
        }
        let elements: [ConfigNode] = if case .array = value.value { try value.elements() } else { [value] }
        return try elements.flatMap { element -> [RedactionRule] in
            let pattern = try Self.pattern(element)
            switch target {
            case "header": return [.header(pattern)]
            case "cookie": return [.cookie(pattern)]
            case "query": return [.queryItem(pattern)]
            case "field": return [.bodyField(pattern)]
            default: return RedactionRule.parameter(pattern)
            }
        }
    }

    /// A pattern from its configuration text: `regex:…`, a wildcard with `*`, or an exact name.
    private static func pattern(_ node: ConfigNode) throws -> RedactionPattern {
        let text = try node.stringValue()
        guard !text.isEmpty else { throw node.error("expected a name or pattern, found an empty string") }
        guard text.hasPrefix("regex:") else { return RedactionPattern(stringLiteral: text) }
        let expression = String(text.dropFirst("regex:".count))
        guard !expression.isEmpty else { throw node.error("expected a regular expression after \"regex:\"") }
        do {
            return try RedactionPattern.regex(expression)
        } catch {
            throw node.error(error.description)
        }
    }
}

extension Redactor: ConfigurationSection {
    /// `redaction`.
    package static let sectionName = "redaction"
    /// The section's keys: ``configurationKeys``.
    package static var sectionKeys: Set<String> { configurationKeys }

    /// Reads the `redaction` section.
    package static func read(section: ConfigNode, context: ConfigurationContext) throws -> Redactor? {
        try Redactor(configuration: section)
    }
}
