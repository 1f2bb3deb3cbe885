import Foundation

/// A plain-text table with padded columns, for terminal output.
///
/// ```
/// METHOD  URL                     STATUS
/// GET     https://a.example/v1    200
/// ```
struct TextTable {
    /// How a column is aligned.
    enum Alignment {
        case left
        case right
    }

    /// The column headings.
    var headings: [String]
    /// The alignment of each column; missing entries are left-aligned.
    var alignments: [Alignment]
    /// The rows; each should have as many cells as there are headings.
    var rows: [[String]] = []

    /// The table as lines joined by newlines, ending with a newline; trailing spaces are trimmed.
    var rendered: String {
        let all = [headings] + rows
        let columnCount = all.map(\.count).max() ?? 0
        let widths = (0..<columnCount).map { column in
            all.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0
        }
        let lines = all.map { row in
            (0..<columnCount).map { column -> String in
                let cell = column < row.count ? row[column] : ""
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                let alignment = column < alignments.count ? alignments[column] : .left
                return alignment == .right ? padding + cell : cell + padding
            }
            .joined(separator: "  ")
            .replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
