import Foundation
import NetTapCore

/// Where a ``TransactionStore`` lives and what it keeps, as the `store` section of `nettap.json` says.
///
/// ```json
/// {"store": {"path": "nettap.sqlite", "maxBytes": "256 MiB", "maxBodyBytes": "1 MiB", "maxAgeDays": 14}}
/// ```
/// Every key is optional:
/// - `path`: the SQLite file, relative to the configuration file's folder unless absolute (`~` is expanded);
///   ``defaultURL`` (`NetTap/nettap.sqlite` in Application Support) by default. An app reading `nettap.json` from
///   its bundle leaves it out or gives an absolute path: the bundle is read-only.
/// - `maxBytes`: ``StoreLimits/totalByteLimit``; a number of bytes or a string with a unit (`KB`, `MB`, `GB`,
///   `KiB`, `MiB`, `GiB`); at least 1 MiB (an empty store already takes about 60 KiB, and a cap near that keeps
///   nothing); 256 MiB by default.
/// - `maxBodyBytes`: ``StoreLimits/bodyByteLimit``, in the same form (≥ 0); 1 MiB by default.
/// - `maxAgeDays`: ``StoreLimits/maximumAge`` in days (a number > 0, fractions allowed), or `"unlimited"` to keep
///   transactions regardless of age; 14 by default.
///
/// Reading validates without touching the file; ``open()`` opens (or creates) it.
public struct StoreConfiguration: Sendable, Hashable {
    /// The keys of the `store` object.
    public static let configurationKeys: Set<String> = ["path", "maxBytes", "maxBodyBytes", "maxAgeDays"]

    /// The SQLite file.
    public var url: URL
    /// The size, body and age limits.
    public var limits: StoreLimits

    /// The file used when `path` is left out: `NetTap/nettap.sqlite` in the user's Application Support
    /// directory (`~/Library/Application Support` on Apple platforms, `$XDG_DATA_HOME` or `~/.local/share` on
    /// Linux), or in the temporary directory when there is none.
    public static var defaultURL: URL {
        let support =
            FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
            ?? FileManager.default.temporaryDirectory
        return support.appendingPathComponent("NetTap", isDirectory: true).appendingPathComponent("nettap.sqlite")
    }

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - url: The SQLite file; ``defaultURL`` by default.
    ///   - limits: The limits; ``StoreLimits/default`` by default.
    public init(url: URL = StoreConfiguration.defaultURL, limits: StoreLimits = .default) {
        self.url = url
        self.limits = limits
    }

    /// Reads the `store` section (see the type's discussion).
    ///
    /// - Parameters:
    ///   - node: The store object, for example `$.store`.
    ///   - baseDirectory: The folder a relative `path` resolves against, normally the configuration file's
    ///     folder; `nil` for the current directory.
    /// - Throws: `ConfigurationError` naming the file and JSON path of an unknown key (with a did-you-mean
    ///   suggestion), a wrong type, a size without a known unit or below its minimum, or an age that is not a
    ///   positive number of days.
    package init(configuration node: ConfigNode, baseDirectory: URL? = nil) throws {
        try node.rejectUnknownKeys(allowed: Self.configurationKeys)
        var url = Self.defaultURL
        if let pathNode = try node.child("path"), pathNode.value != .null {
            let path = (try pathNode.stringValue() as NSString).expandingTildeInPath
            guard !path.isEmpty else { throw pathNode.error("expected a file path, found an empty string") }
            let base =
                baseDirectory ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
            url =
                path.hasPrefix("/") ? URL(fileURLWithPath: path) : base.appendingPathComponent(path).standardizedFileURL
        }
        var limits = StoreLimits.default
        if let total = try node.byteCount("maxBytes", minimum: 1_048_576) { limits.totalByteLimit = Int64(total) }
        if let body = try node.byteCount("maxBodyBytes") { limits.bodyByteLimit = body }
        if let ageNode = try node.child("maxAgeDays"), ageNode.value != .null {
            if case .string(let text) = ageNode.value {
                guard text == "unlimited" else {
                    throw ageNode.error("expected a number of days or \"unlimited\", found \"\(text)\"")
                }
                limits.maximumAge = nil
            } else {
                let days = try ageNode.doubleValue()
                guard days > 0, days <= 365_000 else {
                    throw ageNode.error(
                        "expected a number of days above 0 (at most 365000), found \(ageNode.value.messageText)"
                    )
                }
                limits.maximumAge = .seconds((days * 86_400).rounded())
            }
        }
        self.init(url: url, limits: limits)
    }

    /// Opens the store for writing, creating its file (and folder) when missing.
    ///
    /// - Returns: The store, in ``TransactionStore/Mode/readWrite`` mode with ``limits``.
    /// - Throws: ``StoreError`` naming the file when it cannot be created or opened, or is not a NetTap store.
    public func open() throws(StoreError) -> TransactionStore {
        let folder = url.deletingLastPathComponent()
        if !FileManager.default.fileExists(atPath: folder.path) {
            try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        return try TransactionStore(url: url, mode: .readWrite, limits: limits)
    }
}

extension StoreConfiguration: ConfigurationSection {
    /// `store`.
    package static let sectionName = "store"
    /// The section's keys: ``configurationKeys``.
    package static var sectionKeys: Set<String> { configurationKeys }

    /// Reads the `store` section.
    package static func read(section: ConfigNode, context: ConfigurationContext) throws -> StoreConfiguration? {
        try StoreConfiguration(configuration: section, baseDirectory: context.baseDirectory)
    }
}
