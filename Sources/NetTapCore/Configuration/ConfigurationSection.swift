import Foundation

/// A capability's section of `nettap.json`: its name, its keys, how it is read and where its handler goes.
///
/// Each capability module describes its own section by conforming a type to this protocol; it names only its
/// section, never the file's layout. The configuration layer (`NetTapConfiguration`) lists the conforming types
/// once, and the section list, unknown-key suggestions, the reading order, the handler order and the JSON Schema
/// check all follow from that list.
package protocol ConfigurationSection {
    /// What the section reads to (usually the conforming type itself).
    associatedtype Value: Sendable = Self

    /// The section's key in `nettap.json`, for example `files`.
    static var sectionName: String { get }
    /// The keys the section's object may have.
    static var sectionKeys: Set<String> { get }
    /// Where the handler built from this section goes among NetTap's, or `nil` when it builds none.
    static var handlerLayer: HandlerLayer? { get }

    /// Reads the section.
    ///
    /// - Parameters:
    ///   - section: The section's node.
    ///   - context: What the section reads with besides its node.
    /// - Returns: The value; `nil` only when `context.checksOnly` and reading it would change something outside
    ///   the file (then the section is checked, not built).
    /// - Throws: ``ConfigurationError`` naming the place of a problem.
    static func read(section: ConfigNode, context: ConfigurationContext) throws -> Value?
}

extension ConfigurationSection {
    /// No handler, unless the section says where its handler goes.
    package static var handlerLayer: HandlerLayer? { nil }

    /// Reads this section from a `nettap.json` file, or from a file that holds only this section's keys.
    ///
    /// - Parameters:
    ///   - url: The file; relative paths in it resolve against its folder.
    ///   - redactor: What redacts the values the section records; `Redactor.default` by default.
    /// - Returns: The value.
    /// - Throws: ``ConfigurationError`` naming the file and the JSON path of the first problem.
    package static func loadSection(contentsOf url: URL, redactor: Redactor = .default) throws -> Value {
        let root = try ConfigNode.load(contentsOf: url)
        let section = try root.section(sectionName, sectionKeys: sectionKeys)
        let context = ConfigurationContext(baseDirectory: url.deletingLastPathComponent(), redactor: redactor)
        guard let value = try read(section: section, context: context) else {
            throw section.error("the \(sectionName) section could not be built")
        }
        return value
    }
}

/// What a section reads with besides its own node.
package struct ConfigurationContext: Sendable {
    /// The folder relative paths resolve against (the file's), or `nil` for the current directory.
    package var baseDirectory: URL?
    /// The document's `redaction` section, or `Redactor.default`: what redacts recordings and audit secrets.
    package var redactor: Redactor
    /// Whether the reading only checks: it then creates, opens and changes nothing outside the file.
    package var checksOnly: Bool

    /// Creates a context.
    ///
    /// - Parameters:
    ///   - baseDirectory: The folder relative paths resolve against.
    ///   - redactor: The document's redactor.
    ///   - checksOnly: Whether the reading only checks.
    package init(baseDirectory: URL?, redactor: Redactor = .default, checksOnly: Bool = false) {
        self.baseDirectory = baseDirectory
        self.redactor = redactor
        self.checksOnly = checksOnly
    }

    /// The folder relative paths resolve against, the current directory when there is none.
    package var resolvedBaseDirectory: URL {
        baseDirectory ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
    }
}

/// Where a configured handler goes among NetTap's own, outermost (nearest the app) first.
///
/// ```
///  app ─▶ audit ─▶ shaping ─▶ integrity ─▶ mock ─▶ files ─▶ cassette ─▶ rewrite ─▶ cache ─▶ transport ─▶ network
/// ```
package enum HandlerLayer: String, CaseIterable, Comparable, Sendable {
    /// Sees what the app sends and what it finally receives, whoever answers.
    case audit
    /// Slows down or fails every answer alike, mocks and replays included.
    case shaping
    /// Checks whatever answers below it and falls back to bundled copies.
    case integrity
    /// Answers from stubs and scenarios.
    case mock
    /// Answers from mounted folders.
    case files
    /// Replays recordings and records what reaches it from below.
    case cassette
    /// Changes what goes to the network and what comes back from it (map remote, header and body rewrites): the
    /// layers above match the request the app sent and see the rewritten answer.
    case rewrite
    /// Next to the network whose failures it covers.
    case cache

    /// Whether `lhs` is outside `rhs` (nearer the app).
    package static func < (lhs: HandlerLayer, rhs: HandlerLayer) -> Bool {
        allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
    }
}
