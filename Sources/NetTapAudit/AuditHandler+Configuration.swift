import Foundation
import NetTapCore

extension AuditHandler {
    /// The keys of the `audit` configuration object.
    public static let configurationKeys: Set<String> = [
        "imageSizeLimit", "firstPartyHosts", "disabledRules", "bodyScanLimit",
    ]

    /// Creates the handler from the `audit` section of `nettap.json`.
    ///
    /// ```json
    /// {
    ///   "imageSizeLimit": "500 KiB",
    ///   "bodyScanLimit": "1 MiB",
    ///   "firstPartyHosts": ["example.com", "*.example.com"],
    ///   "disabledRules": ["pii.email"]
    /// }
    /// ```
    /// Every key is optional. `imageSizeLimit` and `bodyScanLimit` are a number of bytes (≥ 0) or a string with
    /// a unit (see ``byteCount(parsing:)``); they default to ``defaultImageSizeLimit`` and
    /// ``defaultBodyScanLimit``. `firstPartyHosts` lists host names or `*.`-prefixed domains. `disabledRules`
    /// lists rule identifiers (``AuditRule``).
    ///
    /// - Parameter node: The section, for example `$.audit`.
    /// - Throws: `ConfigurationError` naming the file and JSON path of an unknown key (with a did-you-mean
    ///   suggestion), a wrong type, a size without a known unit or below 0, an invalid host entry or an unknown
    ///   rule identifier.
    package init(configuration node: ConfigNode) throws {
        try node.rejectUnknownKeys(allowed: Self.configurationKeys)
        let imageSizeLimit = try Self.byteCount(node, "imageSizeLimit") ?? Self.defaultImageSizeLimit
        let bodyScanLimit = try Self.byteCount(node, "bodyScanLimit") ?? Self.defaultBodyScanLimit
        let hosts = try node.each("firstPartyHosts") { element in
            let host = try element.stringValue()
            do {
                _ = try HostPattern(host)
            } catch {
                throw element.error("\(error)")
            }
            return host
        }
        let known = Set(AuditRule.allCases.map(\.id))
        let disabled = try node.each("disabledRules") { element in
            let id = try element.stringValue()
            guard let rule = AuditRule(rawValue: id) else {
                let suggestion = ConfigNode.suggestion(for: id, among: known)
                throw element.error(
                    "unknown rule \"\(id)\"; "
                        + (suggestion.map { "did you mean \"\($0)\"?" }
                            ?? "expected one of: \(known.sorted().joined(separator: ", "))")
                )
            }
            return rule
        }
        self.init(
            firstPartyHosts: hosts,
            imageSizeLimit: imageSizeLimit,
            bodyScanLimit: bodyScanLimit,
            disabledRules: Set(disabled)
        )
    }

    /// Reads the `audit` section of a `nettap.json` file (or a file that is only that section).
    ///
    /// A document whose top level has an `audit` member is read as `nettap.json` (other sections are ignored);
    /// any other document is read as the section itself.
    ///
    /// - Parameter url: The file.
    /// - Returns: The handler.
    /// - Throws: `ConfigurationError` naming the file and the JSON path of the first problem (see
    ///   `init(configuration:)`).
    public static func load(contentsOf url: URL) throws -> AuditHandler {
        try loadSection(contentsOf: url)
    }

    /// Reads a size with an optional unit and returns it in bytes.
    ///
    /// Units (case is ignored; 1 KB = 1,000 bytes, 1 KiB = 1,024 bytes, IEC 80000-13): `bytes` (or `B`), `KB`,
    /// `MB`, `GB`, `KiB`, `MiB`, `GiB`; a space between number and unit is optional (`500 KiB`, `1.5MB`). A bare
    /// number is bytes.
    ///
    /// - Parameter text: The size, for example `500 KiB` (512,000 bytes).
    /// - Returns: Bytes, rounded to the nearest byte; `nil` when the text is not a non-negative number followed by
    ///   a known unit.
    public static func byteCount(parsing text: String) -> Int? {
        ConfigNode.bytes(parsing: text)
    }

    /// Reads a byte count member: a whole number of bytes (≥ 0) or a string with a unit.
    private static func byteCount(_ node: ConfigNode, _ key: String) throws -> Int? {
        guard let member = try node.child(key), member.value != .null else { return nil }
        if case .string(let text) = member.value {
            guard let bytes = byteCount(parsing: text) else {
                throw member.error(
                    "invalid size \"\(text)\"; expected a number and a unit: bytes, KB, MB, GB, KiB, MiB, GiB "
                        + "(for example \"500 KiB\"), or a number of bytes"
                )
            }
            return bytes
        }
        let bytes = try member.intValue()
        guard bytes >= 0 else { throw member.error("expected a size of at least 0 bytes, found \(bytes)") }
        return bytes
    }
}

extension AuditHandler: ConfigurationSection {
    /// `audit`.
    package static let sectionName = "audit"
    /// The section's keys: ``configurationKeys``.
    package static var sectionKeys: Set<String> { configurationKeys }
    /// The handler's place: `audit`.
    package static var handlerLayer: HandlerLayer? { .audit }

    /// Reads the `audit` section.
    package static func read(section: ConfigNode, context: ConfigurationContext) throws -> AuditHandler? {
        let audit = try AuditHandler(configuration: section)
        return AuditHandler(
            firstPartyHosts: audit.firstPartyHosts,
            imageSizeLimit: audit.imageSizeLimit,
            bodyScanLimit: audit.bodyScanLimit,
            disabledRules: audit.disabledRules,
            secrets: context.redactor,
            name: audit.name
        )
    }
}
