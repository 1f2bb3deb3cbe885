import Foundation

/// Reads the README's Swift code blocks and the marked copies of them in test files, so README examples are
/// compiled and run and cannot drift from the code.
enum ReadmeBlocks {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The Swift code block of `document` (the README by default; a path from the repository's root) whose text
    /// contains `marker`, from its first line starting with `from`.
    static func block(
        containing marker: String,
        from start: String,
        in document: String = "README.md"
    ) throws
        -> [String]
    {
        let readme = try String(contentsOf: root.appendingPathComponent(document), encoding: .utf8)
        let blocks = readme.components(separatedBy: "```swift\n").dropFirst().compactMap {
            $0.components(separatedBy: "```").first
        }
        guard let block = blocks.first(where: { $0.contains(marker) }) else { return [] }
        return normalized(block.split(separator: "\n", omittingEmptySubsequences: false).drop { !$0.hasPrefix(start) })
    }

    /// The lines between `// README-BEGIN name` and `// README-END name` in a source file.
    static func marked(_ name: String, in filePath: String) throws -> [String] {
        let source = try String(contentsOf: URL(fileURLWithPath: filePath), encoding: .utf8)
        guard
            let region = source.components(separatedBy: "// README-BEGIN \(name)\n").dropFirst().first?
                .components(separatedBy: "// README-END \(name)").first
        else { return [] }
        return normalized(region.split(separator: "\n"))
    }

    /// The code with every whitespace character removed, so line wrapping by the formatter does not count.
    static func compact(_ lines: [String]) -> String {
        lines.joined().filter { !$0.isWhitespace }
    }

    /// Lines without surrounding whitespace, comment spacing unified, empty lines dropped.
    static func normalized<S: Sequence>(_ lines: S) -> [String] where S.Element: StringProtocol {
        lines.map { line in
            line.trimmingCharacters(in: .whitespaces).replacingOccurrences(
                of: #"\s+//"#,
                with: " //",
                options: .regularExpression
            )
        }.filter { !$0.isEmpty }
    }
}
