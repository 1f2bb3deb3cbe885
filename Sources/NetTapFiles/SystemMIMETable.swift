import Foundation

/// The system's extension → media type table, `/etc/mime.types` (on Debian the `media-types` package).
///
/// Read once, on first use (a `static let` is initialised lazily and exactly once), and kept for the life of
/// the process. A missing or unreadable file gives an empty table.
enum SystemMIMETable {
    /// Where the table lives.
    static let path = "/etc/mime.types"

    /// The table: lower-cased extension (without dot) → lower-cased media type.
    static let shared: [String: String] = {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [:] }
        return parse(text)
    }()

    /// Parses the `mime.types` format: one `type/subtype ext1 ext2 …` per line, fields separated by blanks or tabs, `#` to the end of the line a comment.
    ///
    /// A line with no extensions adds nothing; when two lines name the same extension, the first one wins.
    ///
    /// - Parameter text: The file's text.
    /// - Returns: Extension → media type, both lower-cased.
    static func parse(_ text: String) -> [String: String] {
        var table: [String: String] = [:]
        for line in text.split(whereSeparator: \.isNewline) {
            let content = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let fields = content.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard let type = fields.first, type.contains("/") else { continue }
            for fileExtension in fields.dropFirst() {
                let key = fileExtension.lowercased()
                if table[key] == nil { table[key] = type.lowercased() }
            }
        }
        return table
    }
}
