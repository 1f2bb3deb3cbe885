import Foundation
import NetTapAudit
import NetTapCache
import NetTapCore
import NetTapFiles
import NetTapInspector
import NetTapIntegrity
import NetTapMocking
import NetTapReplay
import NetTapRewrite
import NetTapShaping
import NetTapStore

/// One section of `nettap.json` as the configuration layer uses it: read into its property of
/// ``NetTapConfiguration``.
struct SectionEntry {
    /// The section's key.
    let name: String
    /// The keys its object may have.
    let keys: Set<String>
    /// Where its handler goes, or `nil`.
    let layer: HandlerLayer?
    /// Reads the section's node into the configuration.
    let read: (ConfigNode, ConfigurationContext, inout NetTapConfiguration) throws -> Void
    /// Whether the configuration has the section.
    let isPresent: (NetTapConfiguration) -> Bool

    /// The entry of a capability's section, stored at `property`.
    init<Section: ConfigurationSection>(
        _ section: Section.Type,
        _ property: WritableKeyPath<NetTapConfiguration, Section.Value?>
    ) {
        name = Section.sectionName
        keys = Section.sectionKeys
        layer = Section.handlerLayer
        read = { node, context, configuration in
            configuration[keyPath: property] = try Section.read(section: node, context: context)
        }
        isPresent = { $0[keyPath: property] != nil }
    }
}

extension NetTapConfiguration {
    /// Every section, in the order they are read and reported.
    ///
    /// The section list, the unknown-key suggestions,
    /// the handler order and the schema check follow from it. `redaction` comes before the sections that use
    /// the document's redactor (`cassette`, `audit`).
    static var registry: [SectionEntry] {
        [
            SectionEntry(InstallSettings.self, \.install),
            SectionEntry(HostScope.self, \.scope),
            SectionEntry(TrustRule.self, \.trust),
            SectionEntry(CaptureSettings.self, \.capture),
            SectionEntry(Redactor.self, \.redaction),
            SectionEntry(MockConfiguration.self, \.mocks),
            SectionEntry(ReplayHandler.self, \.cassette),
            SectionEntry(RewriteHandler.self, \.rewrite),
            SectionEntry(NetworkShaper.self, \.shaper),
            SectionEntry(LocalFilesHandler.self, \.files),
            SectionEntry(IntegrityHandler.self, \.integrity),
            SectionEntry(OfflineCacheHandler.self, \.cache),
            SectionEntry(AuditHandler.self, \.audit),
            SectionEntry(StoreConfiguration.self, \.store),
            SectionEntry(InspectorSettings.self, \.inspector),
        ]
    }

    /// The keys each section's object may have, by section name (for the schema check).
    package static var sectionKeys: [String: Set<String>] {
        Dictionary(uniqueKeysWithValues: registry.map { ($0.name, $0.keys) })
    }

    /// Reads every section of a document in ``registry`` order.
    ///
    /// When `root` collects diagnostics, every problem is reported there (each section is read whatever
    /// the others hold) and what could be read is returned; otherwise the first problem is thrown: an unknown
    /// top-level key, then the sections in order.
    ///
    /// - Parameters:
    ///   - root: The document's root.
    ///   - baseDirectory: The folder relative paths resolve against.
    ///   - checksOnly: Whether to check without opening anything (the `cache` section is then only checked).
    /// - Returns: The configuration.
    /// - Throws: ``ConfigurationError`` for the first problem, when `root` collects no diagnostics.
    static func read(_ root: ConfigNode, baseDirectory: URL?, checksOnly: Bool = false) throws -> NetTapConfiguration {
        var configuration = NetTapConfiguration()
        guard case .object = root.value else {
            let error = root.error("expected a nettap.json object, found \(root.value.kindDescription)")
            guard let diagnostics = root.diagnostics else { throw error }
            diagnostics.report(error, from: root)
            return configuration
        }
        try root.rejectUnknownKeys(allowed: configurationKeys)
        var context = ConfigurationContext(baseDirectory: baseDirectory, checksOnly: checksOnly)
        for entry in registry {
            guard let node = try root.child(entry.name), node.value != .null else { continue }
            do {
                try entry.read(node, context, &configuration)
            } catch {
                let failure = (error as? ConfigurationError) ?? node.error("\(error)")
                guard let diagnostics = root.diagnostics else { throw failure }
                diagnostics.report(failure, from: node)
            }
            context.redactor = configuration.redactor
        }
        return configuration
    }
}
