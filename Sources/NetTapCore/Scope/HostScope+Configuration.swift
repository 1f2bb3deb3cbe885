import Foundation

extension HostScope {
    /// The keys of a scope configuration object.
    public static let configurationKeys: Set<String> = ["allowHosts", "denyHosts"]

    /// Reads a scope from configuration JSON, such as the `scope` section of `nettap.json`.
    ///
    /// ```json
    /// {
    ///   "scope": {
    ///     "allowHosts": ["*.example.com", "regex:^api[0-9]+\\.example\\.net$"],
    ///     "denyHosts": ["auth.example.com"]
    ///   }
    /// }
    /// ```
    /// Both keys are optional arrays of strings in the form ``HostPattern/init(_:)`` reads: a host, `*.` and a
    /// domain, or `regex:` and an ICU regular expression (a JSON string, so a backslash is written `\\`).
    ///
    /// - Parameter node: The scope object, for example `$.scope` of `nettap.json`.
    /// - Throws: ``ConfigurationError`` naming the file and JSON path of an unknown key, a value of the wrong
    ///   type, or a pattern that cannot be read (`nettap.json: $.scope.denyHosts[1]: invalid regular expression
    ///   "^(api": missing ")" to close "(" at character 2`).
    package init(configuration node: ConfigNode) throws {
        try node.rejectUnknownKeys(allowed: Self.configurationKeys)
        self.init(
            allowHosts: try node.each("allowHosts", Self.pattern(from:)),
            denyHosts: try node.each("denyHosts", Self.pattern(from:))
        )
    }

    /// Reads the `scope` section of a `nettap.json` file (or a file that is only that section).
    ///
    /// ```swift
    /// NetTapInterceptor.shared.scope = try HostScope.load(contentsOf: configurationURL)
    /// ```
    /// - Parameter url: The file.
    /// - Returns: The scope.
    /// - Throws: ``ConfigurationError`` naming the file and the JSON path of the first problem (see
    ///   `init(configuration:)`).
    public static func load(contentsOf url: URL) throws -> HostScope {
        try loadSection(contentsOf: url)
    }

    private static func pattern(from node: ConfigNode) throws -> HostPattern {
        let text = try node.stringValue()
        do {
            return try HostPattern(text)
        } catch let error as MatcherError {
            throw node.error(error.description)
        }
    }
}

extension HostScope: ConfigurationSection {
    /// `scope`.
    package static let sectionName = "scope"
    /// The section's keys: ``configurationKeys``.
    package static var sectionKeys: Set<String> { configurationKeys }

    /// Reads the `scope` section.
    package static func read(section: ConfigNode, context: ConfigurationContext) throws -> HostScope? {
        try HostScope(configuration: section)
    }
}
