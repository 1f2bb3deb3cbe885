/// Plain-text tables for the benchmark's output: the first column left-aligned, the others right-aligned.
enum Columns {
    /// Lays out rows of cells in columns separated by two spaces.
    /// - Parameter rows: The rows, the heading first; every row has the same number of cells.
    /// - Returns: The lines joined with newlines, without a trailing newline.
    static func render(_ rows: [[String]]) -> String {
        var widths: [Int] = []
        for row in rows {
            for (column, cell) in row.enumerated() {
                if column == widths.count { widths.append(0) }
                widths[column] = max(widths[column], cell.count)
            }
        }
        return rows.map { row in
            row.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return column == 0 ? cell + padding : padding + cell
            }
            .joined(separator: "  ")
        }
        .joined(separator: "\n")
    }
}
