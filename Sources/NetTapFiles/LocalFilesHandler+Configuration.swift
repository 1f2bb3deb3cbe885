import Foundation
import NetTapCore

extension LocalFilesHandler {
    /// The keys of the `files` section.
    public static let configurationKeys: Set<String> = ["mounts"]

    /// Creates the handler from the `files` section of `nettap.json`.
    ///
    /// ```json
    /// {"mounts": [
    ///   {"prefix": "http://localhost:1000/", "directory": "web"},
    ///   {"prefix": "https://cdn.example.com/game/", "directory": "/opt/game", "fallthrough": true}
    /// ]}
    /// ```
    /// Each mount is read by ``FileMount/init(configuration:baseDirectory:)``.
    ///
    /// - Parameters:
    ///   - node: The section, for example `$.files`.
    ///   - baseDirectory: The folder relative `directory` paths resolve against: the configuration file's
    ///     folder; `nil` for the current directory.
    /// - Throws: `ConfigurationError` naming the file and JSON path of an unknown key (with a did-you-mean
    ///   suggestion), a wrong type, an invalid prefix or a missing directory.
    package init(configuration node: ConfigNode, baseDirectory: URL? = nil) throws {
        try node.rejectUnknownKeys(allowed: Self.configurationKeys)
        let mounts = try node.each("mounts") { try FileMount(configuration: $0, baseDirectory: baseDirectory) }
        self.init(mounts: mounts)
    }

    /// Reads the `files` section of a `nettap.json` file (or a file that is only that section).
    ///
    /// - Parameter url: The file; relative `directory` paths resolve against its folder.
    /// - Returns: The handler.
    /// - Throws: `ConfigurationError` naming the file and the JSON path of the first problem.
    public static func load(contentsOf url: URL) throws -> LocalFilesHandler {
        try loadSection(contentsOf: url)
    }
}

extension FileMount {
    /// The keys of a mount object.
    public static let configurationKeys: Set<String> = ["prefix", "directory", "fallthrough"]

    /// Reads a mount: `{"prefix": "http://localhost:1000/", "directory": "web", "fallthrough": false}`.
    ///
    /// `prefix` and `directory` are required; `fallthrough` (default `false`) passes requests for missing files
    /// on instead of answering `404`. A relative `directory` resolves against `baseDirectory`; `~` is not
    /// expanded.
    ///
    /// - Parameters:
    ///   - node: The mount object, for example `$.files.mounts[0]`.
    ///   - baseDirectory: The folder relative directories resolve against; `nil` for the current directory.
    /// - Throws: `ConfigurationError` at the offending member: an unknown key, a wrong type, a prefix that is
    ///   not a usable `http`/`https` URL, or a directory that does not exist.
    package init(configuration node: ConfigNode, baseDirectory: URL?) throws {
        try node.rejectUnknownKeys(allowed: Self.configurationKeys)
        let prefixNode = try node.requiredChild("prefix")
        let directoryNode = try node.requiredChild("directory")
        let prefixText = try prefixNode.stringValue()
        let directoryText = try directoryNode.stringValue()
        let fallsThrough = try node.bool("fallthrough") ?? false
        let base = baseDirectory ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        let directory =
            directoryText.hasPrefix("/")
            ? URL(fileURLWithPath: directoryText, isDirectory: true)
            : base.appendingPathComponent(directoryText, isDirectory: true).standardizedFileURL
        do {
            try self.init(prefix: prefixText, directory: directory, fallsThrough: fallsThrough)
        } catch FileMountError.invalidPrefix(_, let reason) {
            throw prefixNode.error("invalid prefix \"\(prefixText)\": \(reason)")
        } catch FileMountError.directoryNotFound(let url) {
            throw directoryNode.error(
                directoryText == url.standardizedFileURL.path
                    ? "directory \"\(directoryText)\" not found"
                    : "directory \"\(directoryText)\" not found (\(url.standardizedFileURL.path))"
            )
        }
    }
}

extension LocalFilesHandler: ConfigurationSection {
    /// `files`.
    package static let sectionName = "files"
    /// The section's keys: ``configurationKeys``.
    package static var sectionKeys: Set<String> { configurationKeys }
    /// The handler's place: `files`.
    package static var handlerLayer: HandlerLayer? { .files }

    /// Reads the `files` section.
    package static func read(section: ConfigNode, context: ConfigurationContext) throws -> LocalFilesHandler? {
        try LocalFilesHandler(configuration: section, baseDirectory: context.baseDirectory)
    }
}
