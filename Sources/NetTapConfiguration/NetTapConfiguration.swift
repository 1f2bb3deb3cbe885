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

/// Everything a `nettap.json` file configures, read and checked, ready to apply to an interceptor.
///
/// One file covers every capability, one section each (``sectionNames``); every section is optional, and a
/// section left out leaves that capability off (or the interceptor's setting as it is). The JSON Schema
/// `schema/nettap.schema.json` in the repository documents every key. Relative paths resolve against the
/// configuration file's folder.
///
/// ```swift
/// // In the app, with nettap.json in its bundle:
/// if let configuration = try NetTapConfiguration.load(from: .main) {
///     let applied = try configuration.apply(to: .shared)
///     try applied.mocks?.activate(scenario: "server down")     // switch scenarios at runtime
///     applied.shaper?.setProfile(NetworkProfile.preset(named: "3g"))
/// }
/// ```
///
/// Reading builds every handler at once, so a problem anywhere is found before anything changes. Every error
/// names the file and the JSON path (`nettap.json: $.mocks.stubs[2].match.pathRgex: unknown key "pathRgex"; did
/// you mean "pathRegex"?`); ``validate(contentsOf:)`` and ``check(contentsOf:)`` find every error instead of
/// stopping at the first, and change nothing on disk.
///
/// What each section becomes, what reading touches on disk and where the handlers go are in the “Configuration”
/// article of the NetTap documentation.
public struct NetTapConfiguration: Sendable {
    /// The sections a `nettap.json` may have, in the order they are read and reported.
    public static let sectionNames = registry.map(\.name)

    /// The top-level keys a `nettap.json` may have: the ``sectionNames`` and `$schema`.
    public static let configurationKeys = Set(sectionNames + ["$schema"])

    /// How NetTap installs itself (`install`), or `nil`.
    public var install: InstallSettings?
    /// Which hosts NetTap takes (`scope`), or `nil` to leave the interceptor's scope.
    public var scope: HostScope?
    /// Extra trust for named development hosts (`trust`), or `nil` to leave the interceptor's rules.
    public var trust: [TrustRule]?
    /// How much the capture keeps (`capture`), or `nil`.
    public var capture: CaptureSettings?
    /// What is redacted (`redaction`), or `nil` when the file has no such section (then ``redactor`` is
    /// `Redactor.default`).
    public var redaction: Redactor?
    /// The stubs and scenarios (`mocks`), or `nil`.
    public var mocks: MockConfiguration?
    /// The cassette (`cassette`), or `nil`.
    public var cassette: ReplayHandler?
    /// The map remote, header and body rewrite rules (`rewrite`), or `nil`.
    public var rewrite: RewriteHandler?
    /// The network profiles and rules (`shaping`), or `nil`.
    ///
    /// The shaper is shared by every ``apply(to:)`` of this value; change profiles at runtime with
    /// `NetworkShaper.setProfile(_:)`.
    public var shaper: NetworkShaper?
    /// The file mounts (`files`), or `nil`.
    public var files: LocalFilesHandler?
    /// The integrity rules (`integrity`), or `nil`.
    public var integrity: IntegrityHandler?
    /// The offline cache (`cache`), or `nil`.
    public var cache: OfflineCacheHandler?
    /// The audit (`audit`), or `nil`; its `secrets` are ``redactor``.
    public var audit: AuditHandler?
    /// The transaction store (`store`), or `nil`.
    public var store: StoreConfiguration?
    /// The DevTools inspector to start (`inspector`), or `nil`.
    public var inspector: InspectorSettings?
    /// The file the configuration was read from, or `nil` for one read from a node.
    public var fileURL: URL?

    /// An empty configuration: no section; applying it changes nothing.
    public init() {}

    /// The redactor of the `redaction` section, `Redactor.default` without one.
    public var redactor: Redactor { redaction ?? .default }

    /// The names of the sections present, in ``sectionNames`` order.
    public var sections: [String] {
        Self.registry.filter { $0.isPresent(self) }.map(\.name)
    }

    /// Reads a `nettap.json` file.
    ///
    /// - Parameter url: The file; relative paths in it resolve against its folder.
    /// - Returns: The configuration.
    /// - Throws: `ConfigurationError` naming the file and the JSON path (or line and column, for a syntax error)
    ///   of the first problem, sections taken in ``sectionNames`` order after unknown top-level keys.
    public static func load(contentsOf url: URL) throws -> NetTapConfiguration {
        try load(contentsOf: url, opensCache: true)
    }

    /// Reads a `nettap.json` file, optionally without opening its offline cache.
    ///
    /// - Parameters:
    ///   - url: The file; relative paths in it resolve against its folder.
    ///   - opensCache: `false` to check the `cache` section without creating or opening its directory (then
    ///     ``cache`` is `nil`): reading then creates and changes no file.
    /// - Returns: The configuration.
    /// - Throws: `ConfigurationError` for the first problem, as ``load(contentsOf:)`` does.
    package static func load(contentsOf url: URL, opensCache: Bool) throws -> NetTapConfiguration {
        let root = try ConfigNode.load(contentsOf: url)
        var configuration = try read(root, baseDirectory: url.deletingLastPathComponent(), checksOnly: !opensCache)
        configuration.fileURL = url
        return configuration
    }

    /// Reads `nettap.json` (or another name) from an app's bundle.
    ///
    /// - Parameters:
    ///   - bundle: The bundle; `Bundle.main` by default.
    ///   - name: The resource name without extension; `nettap` by default.
    /// - Returns: The configuration, or `nil` when the bundle has no such `.json` resource.
    /// - Throws: `ConfigurationError` as ``load(contentsOf:)`` does.
    public static func load(from bundle: Bundle = .main, name: String = "nettap") throws -> NetTapConfiguration? {
        guard let url = bundle.url(forResource: name, withExtension: "json") else { return nil }
        return try load(contentsOf: url)
    }

    /// Reads a configuration document.
    ///
    /// - Parameters:
    ///   - root: The document's root object.
    ///   - baseDirectory: The folder relative paths resolve against, normally the file's folder; `nil` for the
    ///     current directory.
    /// - Throws: `ConfigurationError` for the first problem, as ``load(contentsOf:)`` does.
    package init(configuration root: ConfigNode, baseDirectory: URL?) throws {
        self = try Self.read(root, baseDirectory: baseDirectory)
    }
}
