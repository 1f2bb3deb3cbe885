import Foundation
import NetTapCore

extension IntegrityHandler {
    /// The keys of the `integrity` configuration object.
    public static let configurationKeys: Set<String> = ["rules", "bufferByteLimit"]

    /// Reads the `integrity` section of a `nettap.json`, or a stand-alone integrity configuration file.
    ///
    /// A document whose top level has an `integrity` member is read as `nettap.json` (other sections are
    /// ignored); any other document is read as the section itself.
    /// - Parameter url: The file; relative manifest and fallback paths resolve against its folder.
    /// - Returns: The handler.
    /// - Throws: `ConfigurationError` naming the file and JSON path of the first problem.
    public static func load(contentsOf url: URL) throws -> IntegrityHandler {
        try loadSection(contentsOf: url)
    }

    /// Creates the handler from configuration JSON: the `integrity` section of `nettap.json`.
    ///
    /// ```json
    /// {
    ///   "bufferByteLimit": 33554432,
    ///   "rules": [
    ///     {"match": {"host": "cdn.example.com"}, "expect": "filename", "onMismatch": "fallback",
    ///      "fallback": {"directory": "bundled"}},
    ///     {"match": {"host": "static.example.com"}, "extensions": ["js", "mjs"],
    ///      "expect": {"manifest": "integrity.json"}, "onMismatch": "fail"},
    ///     {"match": {"url": "https://example.com/app.js"}, "expect": {"digest": "sha256-…"},
    ///      "onMismatch": "fallback", "fallback": {"files": {"/app.js": "bundled/app.js"}}}
    ///   ]
    /// }
    /// ```
    /// Each rule (see ``IntegrityRule``): `match` (required) is a `RequestMatcher` configuration; `extensions`
    /// (optional) lists URL path extensions, ``IntegrityRule/defaultPathExtensions`` when absent, `[]` for all;
    /// `expect` (required) is `"filename"`, `{"manifest": "<file>"}` (read at once by
    /// ``IntegrityManifest/load(contentsOf:)``) or `{"digest": "<SRI value>"}`; `onMismatch` is `fallback`,
    /// `fail` (the default) or `report`; `fallback` (required with `onMismatch: "fallback"`, not allowed
    /// otherwise) is `{"directory": "<folder>"}` or `{"files": {"<URL path>": "<file>"}}`. `bufferByteLimit`
    /// (optional, bytes, ≥ 1) defaults to 32 MiB. Relative file and folder paths resolve against
    /// `baseDirectory`.
    ///
    /// - Parameters:
    ///   - node: The section.
    ///   - baseDirectory: The folder relative paths resolve against, normally the configuration file's folder
    ///     (``load(contentsOf:)`` passes it); `nil` for the current directory.
    /// - Throws: `ConfigurationError` naming the file and JSON path of an unknown key (with a "did you mean"
    ///   suggestion), a wrong type, an invalid matcher, an unknown `expect` or `onMismatch` value, a malformed
    ///   digest, a missing or conflicting `fallback`, or a manifest that cannot be read (naming the manifest
    ///   file and the JSON path in it).
    package init(configuration node: ConfigNode, baseDirectory: URL? = nil) throws {
        try node.rejectUnknownKeys(allowed: Self.configurationKeys)
        let limit = try node.int("bufferByteLimit") ?? Self.defaultBufferByteLimit
        if limit < 1, let limitNode = try node.child("bufferByteLimit") {
            throw limitNode.error("bufferByteLimit must be at least 1 byte, found \(limit)")
        }
        let rules = try node.each("rules") { try IntegrityRule(configuration: $0, baseDirectory: baseDirectory) }
        self.init(rules: rules, bufferByteLimit: limit)
    }
}

extension IntegrityRule {
    /// The keys of a rule object.
    public static let configurationKeys: Set<String> = ["match", "extensions", "expect", "onMismatch", "fallback"]

    /// Reads a rule, as ``IntegrityHandler/init(configuration:baseDirectory:)`` describes.
    ///
    /// - Parameters:
    ///   - node: The rule object.
    ///   - baseDirectory: The folder relative paths resolve against; `nil` for the current directory.
    /// - Throws: `ConfigurationError` naming the file and JSON path of the first problem.
    package init(configuration node: ConfigNode, baseDirectory: URL?) throws {
        try node.rejectUnknownKeys(allowed: Self.configurationKeys)
        let matcher = try RequestMatcher(configuration: node.requiredChild("match"))
        var extensions = Self.defaultPathExtensions
        if let list = try node.child("extensions"), list.value != .null {
            extensions = Set(
                try list.elements().map { element in
                    let text = try element.stringValue()
                    guard !text.isEmpty, !text.contains("."), !text.contains("/") else {
                        throw element.error("expected an extension without the dot, such as \"js\", found \"\(text)\"")
                    }
                    return text
                }
            )
        }
        let expectation = try Self.expectation(node.requiredChild("expect"), baseDirectory: baseDirectory)
        let actionName = try node.string("onMismatch") ?? "fail"
        let fallbackNode = try node.child("fallback").flatMap { $0.value == .null ? nil : $0 }
        let action: MismatchAction
        switch actionName {
        case "fallback":
            guard let fallbackNode else {
                throw node.error("onMismatch \"fallback\" needs a \"fallback\": {\"directory\": …} or {\"files\": …}")
            }
            action = .fallback(try Self.fallback(fallbackNode, baseDirectory: baseDirectory))
        case "fail", "report":
            if let fallbackNode {
                throw fallbackNode.error(
                    "\"fallback\" is only used with onMismatch \"fallback\", not \"\(actionName)\""
                )
            }
            action = actionName == "fail" ? .fail : .report
        default:
            let place = try node.requiredChild("onMismatch")
            let suggestion = ConfigNode.suggestion(for: actionName, among: ["fallback", "fail", "report"])
            throw place.error(
                "unknown action \"\(actionName)\"; "
                    + (suggestion.map { "did you mean \"\($0)\"?" } ?? "expected fallback, fail or report")
            )
        }
        self.init(matcher, pathExtensions: extensions, expect: expectation, onMismatch: action)
    }

    private static func expectation(_ node: ConfigNode, baseDirectory: URL?) throws -> Expectation {
        if case .string(let name) = node.value {
            guard name == "filename" else {
                let suggestion = ConfigNode.suggestion(for: name, among: ["filename"])
                throw node.error(
                    "unknown expectation \"\(name)\"; "
                        + (suggestion.map { "did you mean \"\($0)\"?" }
                            ?? "expected \"filename\", {\"manifest\": …} or {\"digest\": …}")
                )
            }
            return .fileName
        }
        guard case .object(let members) = node.value else {
            throw node.typeMismatch(expected: "\"filename\", {\"manifest\": …} or {\"digest\": …}")
        }
        try node.rejectUnknownKeys(allowed: ["manifest", "digest"])
        guard members.count == 1 else {
            throw node.error("expected exactly one of \"manifest\" or \"digest\"")
        }
        if let manifest = try node.child("manifest") {
            let url = resolve(try manifest.stringValue(), in: baseDirectory)
            do {
                return .manifest(try IntegrityManifest.load(contentsOf: url))
            } catch {
                // Name where the manifest was referenced too, and the full path it was looked for at.
                throw manifest.error("cannot use the manifest \(url.path): \(error)")
            }
        }
        let digest = try node.requiredChild("digest")
        do {
            return .digest(try IntegrityMetadata(sri: digest.stringValue()))
        } catch let error as IntegrityError {
            throw digest.error(error.description)
        }
    }

    private static func fallback(_ node: ConfigNode, baseDirectory: URL?) throws -> IntegrityFallback {
        try node.rejectUnknownKeys(allowed: ["directory", "files"])
        guard try node.keys.count == 1 else {
            throw node.error("expected exactly one of \"directory\" or \"files\"")
        }
        if let directory = try node.string("directory") {
            return .directory(resolve(directory, in: baseDirectory))
        }
        var files: [String: URL] = [:]
        for (path, file) in try node.requiredChild("files").members() {
            guard path.hasPrefix("/") else {
                throw file.error("the key \"\(path)\" is not a URL path; it must start with \"/\"")
            }
            files[path] = resolve(try file.stringValue(), in: baseDirectory)
        }
        return .files(files)
    }

    /// An absolute path as is; a relative one under `baseDirectory` (or the current directory).
    private static func resolve(_ path: String, in baseDirectory: URL?) -> URL {
        if path.hasPrefix("/") { return URL(fileURLWithPath: path).standardizedFileURL }
        guard let baseDirectory else { return URL(fileURLWithPath: path).standardizedFileURL }
        return baseDirectory.appendingPathComponent(path).standardizedFileURL
    }
}

extension IntegrityHandler: ConfigurationSection {
    /// `integrity`.
    package static let sectionName = "integrity"
    /// The section's keys: ``configurationKeys``.
    package static var sectionKeys: Set<String> { configurationKeys }
    /// The handler's place: `integrity`.
    package static var handlerLayer: HandlerLayer? { .integrity }

    /// Reads the `integrity` section.
    package static func read(section: ConfigNode, context: ConfigurationContext) throws -> IntegrityHandler? {
        try IntegrityHandler(configuration: section, baseDirectory: context.baseDirectory)
    }
}
