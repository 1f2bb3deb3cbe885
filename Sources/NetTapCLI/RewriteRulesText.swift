import Foundation
import NetTapCore
import NetTapRewrite

/// The rewrite rules of a `nettap.json` as `nettap mock list` and `nettap config check` print them: a block of its
/// own after what the command prints otherwise.
enum RewriteRulesText {
    /// `Rewrite rules (map remote: first match; the others: every match, in order):` and one line per rule, or
    /// `Rewrite rules: (none)`.
    ///
    /// - Parameter rules: The rules.
    /// - Returns: Lines ending with a newline.
    static func text(_ rules: RewriteRules) -> String {
        guard !rules.isEmpty else { return "\nRewrite rules: (none)\n" }
        var output = "\nRewrite rules (map remote: the first that takes a request; the others: every one that "
        output += "matches, in this order):\n"
        for line in rules.lines() { output += "  \(line)\n" }
        return output
    }

    /// The block for the `rewrite` section of a file, or `nil` when the file has none (a mocks file, say).
    ///
    /// - Parameter url: The file.
    /// - Returns: The block.
    /// - Throws: `ConfigurationError` naming the file and the JSON path when the section is invalid.
    static func text(contentsOf url: URL) throws -> String? {
        let root = try ConfigNode.load(contentsOf: url)
        guard case .object = root.value, let section = try root.child(RewriteHandler.sectionName),
            section.value != .null
        else { return nil }
        return text(try RewriteRules(configuration: section))
    }
}
