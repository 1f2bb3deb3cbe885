import Foundation
import NetTapAudit
import NetTapCache
import NetTapCore
import NetTapFiles
import NetTapInspector
import NetTapIntegrity
import NetTapMocking
import NetTapReplay
import NetTapShaping
import NetTapStore

/// Everything a `nettap.json` file configures, read and checked, ready to apply to an interceptor.
///
/// One file covers every capability, one section each; every section is optional, and a section left out
/// leaves that capability off (or the interceptor's setting as it is). The JSON Schema
/// `schema/nettap.schema.json` in the repository documents every key.
///
/// | section | read by | becomes |
/// | --- | --- | --- |
/// | `install` | ``InstallSettings`` | `installForSharedSession()`, `isEnabledInReleaseBuilds` |
/// | `scope` | `HostScope.init(configuration:)` | `NetTapInterceptor.scope` |
/// | `trust` | `TrustRule.rules(configuration:baseDirectory:)` | `NetTapInterceptor.trustRules` (debug builds) |
/// | `capture` | ``CaptureSettings`` | `CaptureLog.capacity`, `NetTapInterceptor.bodyByteLimit`, `CaptureLog.isCapturing` |
/// | `redaction` | `Redactor.init(configuration:)` | the redactor of the cassette, recorded stubs and the audit |
/// | `mocks` | `MockConfiguration` | a `MockSet` behind a `MockHandler` |
/// | `cassette` | `ReplayHandler.init(configuration:baseDirectory:redactor:)` | a `ReplayHandler` |
/// | `shaping` | `NetworkShaper.init(configuration:)` | a `NetworkShaper` behind a `ShapingHandler` |
/// | `files` | `LocalFilesHandler.init(configuration:baseDirectory:)` | a `LocalFilesHandler` |
/// | `integrity` | `IntegrityHandler.init(configuration:baseDirectory:)` | an `IntegrityHandler` |
/// | `cache` | `OfflineCacheHandler.init(configuration:baseDirectory:)` | an `OfflineCacheHandler` |
/// | `audit` | `AuditHandler.init(configuration:)` | an `AuditHandler` |
/// | `store` | `StoreConfiguration` | a `TransactionStore` observing the capture log |
///
/// A top-level `$schema` member (the schema's location, for editors) is allowed and ignored. Relative paths
/// (mock body files, cassette, mount directories, manifests, fallbacks, cache directory, store) resolve against
/// the configuration file's folder.
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
/// Reading builds every handler at once, so a problem anywhere is found before anything changes: reading
/// a `cache` section creates its cache directory, and reading a `cassette` reads its HAR file when it exists;
/// nothing else touches the file system until ``apply(to:)`` opens the store. Every error names the file and the
/// JSON path (`nettap.json: $.mocks.stubs[2].match.pathRgex: unknown key "pathRgex"; did you mean "pathRegex"?`);
/// ``validate(contentsOf:)`` and ``check(contentsOf:)`` find every error instead of stopping at the first, and
/// change nothing on disk.
public struct NetTapConfiguration: Sendable {
    /// The sections a `nettap.json` may have, in the order they are read and reported.
    public static let sectionNames = [
        "install", "scope", "trust", "capture", "redaction", "mocks", "cassette", "shaping", "files", "integrity",
        "cache", "audit", "store", "inspector",
    ]

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

    /// An empty configuration: no section, nothing changes when applied except the handler list (emptied).
    public init() {}

    /// The redactor of the `redaction` section, `Redactor.default` without one.
    public var redactor: Redactor { redaction ?? .default }

    /// The names of the sections present, in ``sectionNames`` order.
    public var sections: [String] {
        let present: [String: Bool] = [
            "install": install != nil, "scope": scope != nil, "trust": trust != nil, "capture": capture != nil,
            "redaction": redaction != nil, "mocks": mocks != nil, "cassette": cassette != nil,
            "shaping": shaper != nil, "files": files != nil, "integrity": integrity != nil, "cache": cache != nil,
            "audit": audit != nil, "store": store != nil, "inspector": inspector != nil,
        ]
        return Self.sectionNames.filter { present[$0] == true }
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
        var (configuration, errors) = read(root, baseDirectory: url.deletingLastPathComponent(), opensCache: opensCache)
        if let first = errors.first { throw first.error }
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
    public init(configuration root: ConfigNode, baseDirectory: URL?) throws {
        let (configuration, errors) = Self.read(root, baseDirectory: baseDirectory)
        if let first = errors.first { throw first.error }
        self = configuration
    }

    /// Reads every section, each on its own, and collects one error per section that has a problem.
    ///
    /// - Parameters:
    ///   - root: The document's root.
    ///   - baseDirectory: The folder relative paths resolve against.
    ///   - opensCache: Whether a `cache` section opens its cache (creating its directory); when `false` the
    ///     section is only checked and ``cache`` stays `nil`, so reading touches no file system state.
    /// - Returns: What could be read, and the errors, each with the top-level key it came from: unknown
    ///   top-level keys first (by name), then one per section in ``sectionNames`` order.
    static func read(
        _ root: ConfigNode,
        baseDirectory: URL?,
        opensCache: Bool = true
    ) -> (NetTapConfiguration, [(section: String, error: ConfigurationError)]) {
        var configuration = NetTapConfiguration()
        var errors: [(section: String, error: ConfigurationError)] = []
        let members: [(key: String, node: ConfigNode)]
        do {
            members = try root.members()
        } catch {
            let error = root.error("expected a nettap.json object, found \(root.value.kindDescription)")
            return (configuration, [("", error)])
        }
        for (key, node) in members where !configurationKeys.contains(key) {
            let hint =
                ConfigNode.suggestion(for: key, among: configurationKeys).map { "did you mean \"\($0)\"?" }
                ?? "expected one of: \(configurationKeys.sorted().joined(separator: ", "))"
            errors.append((key, node.error("unknown key \"\(key)\"; \(hint)")))
        }
        let sections = Dictionary(
            uniqueKeysWithValues: members.filter { $0.node.value != .null }.map { ($0.key, $0.node) }
        )
        func read(_ name: String, _ body: (ConfigNode) throws -> Void) {
            guard let node = sections[name] else { return }
            do {
                try body(node)
            } catch let error as ConfigurationError {
                errors.append((name, error))
            } catch {
                errors.append((name, node.error("\(error)")))
            }
        }
        read("install") { configuration.install = try InstallSettings(configuration: $0) }
        read("scope") { configuration.scope = try HostScope(configuration: $0) }
        read("trust") { configuration.trust = try TrustRule.rules(configuration: $0, baseDirectory: baseDirectory) }
        read("capture") { configuration.capture = try CaptureSettings(configuration: $0) }
        read("redaction") { configuration.redaction = try Redactor(configuration: $0) }
        let redactor = configuration.redactor
        read("mocks") { configuration.mocks = try MockConfiguration(node: $0, baseDirectory: baseDirectory) }
        read("cassette") {
            configuration.cassette = try ReplayHandler(
                configuration: $0,
                baseDirectory: baseDirectory,
                redactor: redactor
            )
        }
        read("shaping") { configuration.shaper = try NetworkShaper(configuration: $0) }
        read("files") { configuration.files = try LocalFilesHandler(configuration: $0, baseDirectory: baseDirectory) }
        read("integrity") {
            configuration.integrity = try IntegrityHandler(configuration: $0, baseDirectory: baseDirectory)
        }
        read("cache") {
            let base =
                baseDirectory ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
            if opensCache {
                configuration.cache = try OfflineCacheHandler(configuration: $0, baseDirectory: base)
            } else {
                try OfflineCacheHandler.validate(configuration: $0, baseDirectory: base)
            }
        }
        read("audit") {
            let audit = try AuditHandler(configuration: $0)
            configuration.audit = AuditHandler(
                firstPartyHosts: audit.firstPartyHosts,
                imageSizeLimit: audit.imageSizeLimit,
                bodyScanLimit: audit.bodyScanLimit,
                disabledRules: audit.disabledRules,
                secrets: redactor,
                name: audit.name
            )
        }
        read("store") { configuration.store = try StoreConfiguration(configuration: $0, baseDirectory: baseDirectory) }
        read("inspector") { configuration.inspector = try InspectorSettings(configuration: $0) }
        return (configuration, errors)
    }
}
