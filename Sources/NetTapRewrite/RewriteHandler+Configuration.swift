import Foundation
import NetTapCore

extension RewriteHandler {
    /// Reads the `rewrite` section of a `nettap.json` file (or a file that is only that section).
    ///
    /// ```swift
    /// let rewrite = try RewriteHandler.load(contentsOf: URL(fileURLWithPath: "nettap.json"))
    /// interceptor.handlers.append(rewrite)
    /// ```
    /// - Parameter url: The file.
    /// - Returns: The handler.
    /// - Throws: `ConfigurationError` naming the file and the JSON path of the first problem.
    public static func load(contentsOf url: URL) throws -> RewriteHandler {
        try loadSection(contentsOf: url)
    }
}

extension RewriteHandler: ConfigurationSection {
    /// `rewrite`.
    package static let sectionName = "rewrite"
    /// The section's keys: `RewriteRules.configurationKeys`.
    package static var sectionKeys: Set<String> { RewriteRules.configurationKeys }
    /// The handler's place: `rewrite`, below the cassette and above the offline cache.
    package static var handlerLayer: HandlerLayer? { .rewrite }

    /// Reads the `rewrite` section.
    package static func read(section: ConfigNode, context: ConfigurationContext) throws -> RewriteHandler? {
        RewriteHandler(rules: try RewriteRules(configuration: section))
    }
}
