import Foundation
import NetTapCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension OfflineCacheHandler {
    /// The keys of the `cache` configuration object.
    public static let configurationKeys: Set<String> = [
        "directory", "maxBytes", "maxEntryBytes", "match", "fallbackErrors",
    ]

    /// Creates the handler and opens its cache from configuration JSON, the `cache` section of `nettap.json`.
    ///
    /// ```json
    /// {
    ///   "directory": "cache",
    ///   "maxBytes": "64 MiB",
    ///   "maxEntryBytes": 1048576,
    ///   "match": {"host": "api.example.com"},
    ///   "fallbackErrors": ["notConnectedToInternet", "cannotConnectToHost", "timedOut"]
    /// }
    /// ```
    /// Every key is optional:
    /// - `directory`: the cache directory, relative to `baseDirectory` unless absolute (`~` is expanded);
    ///   `NetTap/OfflineCache` in the user's caches directory by default.
    /// - `maxBytes`, `maxEntryBytes`: a number of bytes, or a string with a unit (see
    ///   ``OfflineCache/byteCount(parsing:)``); 64 MiB and 8 MiB by default (see ``OfflineCache``).
    /// - `match`: a `RequestMatcher` configuration selecting the `GET` requests stored and answered; every `GET`
    ///   by default.
    /// - `fallbackErrors`: `URLError` code names (the Swift case names: `notConnectedToInternet`,
    ///   `cannotConnectToHost`, `timedOut`, `cannotFindHost`, `networkConnectionLost`, `dnsLookupFailed`,
    ///   `internationalRoamingOff`, `callIsActive`, `dataNotAllowed`, `secureConnectionFailed`,
    ///   `badServerResponse`, `cannotLoadFromNetwork`); ``defaultFallbackErrorCodes`` by default.
    ///
    /// - Parameters:
    ///   - node: The cache object, for example `$.cache` of `nettap.json`.
    ///   - baseDirectory: What a relative `directory` is relative to, usually the configuration file's directory;
    ///     the current directory by default.
    /// - Throws: `ConfigurationError` naming the file and JSON path of an unknown key (with a suggestion), a
    ///   wrong type, a size without a known unit or out of range, an unknown error name, an invalid matcher, or a
    ///   directory that cannot be used.
    package init(
        configuration node: ConfigNode,
        baseDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
    ) throws {
        let settings = try Settings(node, baseDirectory: baseDirectory)
        let cache: OfflineCache
        do {
            cache = try OfflineCache(
                directory: settings.directory,
                maxBytes: settings.maxBytes,
                maxEntryBytes: settings.maxEntryBytes
            )
        } catch let error as OfflineCacheError {
            throw (settings.directoryNode ?? node).error(error.message)
        }
        self.init(cache: cache, matcher: settings.matcher ?? .any, fallbackErrorCodes: settings.codes)
    }

    /// Checks a `cache` section as ``init(configuration:baseDirectory:)`` reads it, without creating, opening or
    /// repairing the cache directory.
    ///
    /// - Parameters:
    ///   - node: The cache object, for example `$.cache` of `nettap.json`.
    ///   - baseDirectory: What a relative `directory` is relative to.
    /// - Throws: `ConfigurationError` as ``init(configuration:baseDirectory:)`` does, and at `directory` when it
    ///   names an existing file that is not a directory.
    package static func validate(
        configuration node: ConfigNode,
        baseDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
    ) throws {
        let settings = try Settings(node, baseDirectory: baseDirectory)
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: settings.directory.path, isDirectory: &isDirectory),
            !isDirectory.boolValue
        {
            throw (settings.directoryNode ?? node).error(
                "offline cache directory \(settings.directory.path) is a file, not a directory"
            )
        }
    }

    /// What a `cache` section says, read without touching the file system.
    private struct Settings {
        var directory: URL
        var directoryNode: ConfigNode?
        var maxBytes: Int
        var maxEntryBytes: Int?
        var matcher: RequestMatcher?
        var codes: Set<URLError.Code>

        init(_ node: ConfigNode, baseDirectory: URL) throws {
            try node.rejectUnknownKeys(allowed: OfflineCacheHandler.configurationKeys)
            directoryNode = try node.child("directory").flatMap { $0.value == .null ? nil : $0 }
            if let directoryNode {
                let path = (try directoryNode.stringValue() as NSString).expandingTildeInPath
                guard !path.isEmpty else {
                    throw directoryNode.error("expected a directory path, found an empty string")
                }
                directory =
                    path.hasPrefix("/")
                    ? URL(fileURLWithPath: path, isDirectory: true)
                    : baseDirectory.appendingPathComponent(path, isDirectory: true)
            } else {
                directory = OfflineCache.defaultDirectory
            }
            maxBytes = try OfflineCacheHandler.byteCount(node, "maxBytes") ?? OfflineCache.defaultMaxBytes
            maxEntryBytes = try OfflineCacheHandler.byteCount(node, "maxEntryBytes")
            if let maxEntryBytes, maxEntryBytes > maxBytes, let entryNode = try node.child("maxEntryBytes") {
                throw entryNode.error(
                    "maxEntryBytes (\(maxEntryBytes) bytes) must not exceed maxBytes (\(maxBytes) bytes)"
                )
            }
            matcher = try node.child("match").flatMap { $0.value == .null ? nil : $0 }.map(
                RequestMatcher.init(configuration:)
            )
            codes = OfflineCacheHandler.defaultFallbackErrorCodes
            if let list = try node.child("fallbackErrors"), list.value != .null {
                codes = []
                for element in try list.elements() {
                    codes.insert(try OfflineCacheHandler.fallbackErrorCode(element))
                }
            }
        }
    }

    /// Reads the `cache` section of a `nettap.json` file (or a file that is only that section).
    ///
    /// - Parameter url: The file; a relative `directory` resolves against its folder.
    /// - Returns: The handler.
    /// - Throws: `ConfigurationError` naming the file and the JSON path of the first problem (see
    ///   `init(configuration:baseDirectory:)`).
    public static func load(contentsOf url: URL) throws -> OfflineCacheHandler {
        try loadSection(contentsOf: url)
    }

    /// Reads a byte count member: a positive integer, or a string with a unit.
    private static func byteCount(_ node: ConfigNode, _ key: String) throws -> Int? {
        guard let member = try node.child(key), member.value != .null else { return nil }
        if case .string(let text) = member.value {
            guard let bytes = OfflineCache.byteCount(parsing: text) else {
                throw member.error(
                    "invalid size \"\(text)\"; expected a positive number and a unit: bytes, KB, MB, GB, KiB, MiB, "
                        + "GiB (for example \"64 MiB\"), or a number of bytes"
                )
            }
            return bytes
        }
        let bytes = try member.intValue()
        guard bytes >= 1 else { throw member.error("expected a size of at least 1 byte, found \(bytes)") }
        return bytes
    }
}

extension OfflineCache {
    /// The default directory: `NetTap/OfflineCache` in the user's caches directory (`~/Library/Caches` on Apple
    /// platforms, `$XDG_CACHE_HOME` or `~/.cache` on Linux), or in the temporary directory when there is none.
    public static var defaultDirectory: URL {
        let caches =
            FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first
            ?? FileManager.default.temporaryDirectory
        return caches.appendingPathComponent("NetTap", isDirectory: true)
            .appendingPathComponent("OfflineCache", isDirectory: true)
    }

    /// Reads a size with an optional unit and returns it in bytes.
    ///
    /// Units (case is ignored; 1 KB = 1,000 bytes, 1 KiB = 1,024 bytes): `bytes` (or `B`), `KB`, `MB`, `GB`,
    /// `KiB`, `MiB`, `GiB`. A number alone is bytes; a space between number and unit is optional: `64 MiB`,
    /// `1.5MB`, `4096`.
    ///
    /// - Parameter text: The size, for example `64 MiB`.
    /// - Returns: Bytes, rounded to the nearest byte; `nil` when the text is not a positive number with a known
    ///   unit or the result is below 1 byte or too large.
    public static func byteCount(parsing text: String) -> Int? {
        guard let bytes = ConfigNode.bytes(parsing: text), bytes >= 1 else { return nil }
        return bytes
    }
}

extension OfflineCacheHandler {
    /// The failures `fallbackErrors` may name: those a network path gives when the server cannot be reached or
    /// answers nothing usable, never the app's own (`cancelled`) or a bad request (`badURL`).
    package static let configurableFallbackErrorCodes: [URLError.Code] = [
        .notConnectedToInternet, .cannotConnectToHost, .timedOut, .cannotFindHost, .networkConnectionLost,
        .dnsLookupFailed, .internationalRoamingOff, .callIsActive, .dataNotAllowed, .secureConnectionFailed,
        .badServerResponse, .cannotLoadFromNetwork,
    ]

    /// The names of ``configurableFallbackErrorCodes``, as `fallbackErrors` spells them.
    package static var configurableFallbackErrorNames: Set<String> {
        Set(configurableFallbackErrorCodes.compactMap(URLErrorNames.name(of:)))
    }

    /// The code one element of `fallbackErrors` names.
    ///
    /// - Throws: `ConfigurationError` at the element for a name that is no `URLError` code (with a suggestion) or
    ///   a code the cache cannot answer, listing the names it accepts.
    fileprivate static func fallbackErrorCode(_ element: ConfigNode) throws -> URLError.Code {
        let name = try element.stringValue()
        let known = configurableFallbackErrorNames
        if known.contains(name), let code = URLErrorNames.code(named: name) { return code }
        let list = known.sorted().joined(separator: ", ")
        if URLErrorNames.code(named: name) != nil {
            throw element.error("\"\(name)\" is not a network failure the cache can answer; expected one of: \(list)")
        }
        if let suggestion = URLErrorNames.suggestion(for: name, among: known) {
            throw element.error("unknown URLError code name \"\(name)\"; did you mean \"\(suggestion)\"?")
        }
        throw element.error("unknown URLError code name \"\(name)\"; expected one of: \(list)")
    }
}

extension OfflineCacheHandler: ConfigurationSection {
    /// `cache`.
    package static let sectionName = "cache"
    /// The section's keys: ``configurationKeys``.
    package static var sectionKeys: Set<String> { configurationKeys }
    /// The handler's place: `cache`.
    package static var handlerLayer: HandlerLayer? { .cache }

    /// Reads the `cache` section.
    package static func read(section: ConfigNode, context: ConfigurationContext) throws -> OfflineCacheHandler? {
        guard context.checksOnly else {
            return try OfflineCacheHandler(configuration: section, baseDirectory: context.resolvedBaseDirectory)
        }
        try validate(configuration: section, baseDirectory: context.resolvedBaseDirectory)
        return nil
    }
}
