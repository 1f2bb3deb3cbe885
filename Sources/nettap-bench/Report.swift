import Foundation

/// A goal NetTap's figure is held to, relative to the direct figure.
enum Target {
    /// NetTap / direct must be at most this (latencies).
    case ratioAtMost(Double)
    /// NetTap / direct must be at least this (rates).
    case ratioAtLeast(Double)
    /// NetTap − direct must be at most this, in the row's unit (memory).
    case differenceAtMost(Double)
    /// NetTap's own figure must be at most this (growth that should be zero).
    case valueAtMost(Double)

    /// The target as printed, for example `≥ 0.85`.
    var text: String {
        switch self {
        case .ratioAtMost(let limit): "≤ \(Report.format(limit, decimals: 2))"
        case .ratioAtLeast(let limit): "≥ \(Report.format(limit, decimals: 2))"
        case .differenceAtMost(let limit): "≤ direct + \(Report.format(limit, decimals: 0))"
        case .valueAtMost(let limit): "≤ \(Report.format(limit, decimals: 0))"
        }
    }
}

/// One line of the result table: a figure measured directly and through NetTap (or another route, ``via``).
struct Row {
    /// How a row compares NetTap with direct.
    enum Comparison {
        /// NetTap / direct.
        case ratio
        /// NetTap − direct, in the row's unit.
        case difference
    }

    /// What was measured, with its unit.
    var figure: String
    /// The direct figure.
    var direct: Double
    /// The NetTap figure.
    var nettap: Double
    /// Decimals printed for the two figures.
    var decimals: Int
    /// How the two are compared.
    var comparison: Comparison
    /// The goal, or `nil` for a figure shown for information.
    var target: Target?
    /// What the second figure measures: `NetTap` unless the row compares another route (`floor`, `peer`).
    var via = "NetTap"

    /// NetTap / direct.
    var ratio: Double { nettap / direct }
    /// NetTap − direct.
    var difference: Double { nettap - direct }

    /// `true` when the target is met, `false` when missed, `nil` without a target.
    var isMet: Bool? {
        guard let target else { return nil }
        switch target {
        case .ratioAtMost(let limit): return ratio <= limit
        case .ratioAtLeast(let limit): return ratio >= limit
        case .differenceAtMost(let limit): return difference <= limit
        case .valueAtMost(let limit): return nettap <= limit
        }
    }
}

/// Collects rows and prints them as an aligned text table.
struct Report {
    /// The rows, in the order measured.
    var rows: [Row] = []

    /// How many rows have a target, and how many of those are met.
    var tally: (met: Int, total: Int) {
        let judged = rows.compactMap(\.isMet)
        return (judged.filter { $0 }.count, judged.count)
    }

    /// The table, one line per row after a header line: the figure, what it measures beside direct (`via`), the
    /// direct figure, that figure, their ratio (or difference), the target and the result.
    func render() -> String {
        let header = ["figure", "via", "direct", "via's", "via/direct", "target", "result"]
        var lines = [header]
        for row in rows {
            let comparison: String
            switch row.comparison {
            case .ratio: comparison = Self.format(row.ratio, decimals: 2)
            case .difference: comparison = Self.signed(row.difference, decimals: row.decimals)
            }
            let result: String
            switch row.isMet {
            case .some(true): result = "PASS"
            case .some(false): result = "MISS"
            case .none: result = "info"
            }
            lines.append([
                row.figure,
                row.via,
                Self.format(row.direct, decimals: row.decimals),
                Self.format(row.nettap, decimals: row.decimals),
                comparison,
                row.target?.text ?? "—",
                result,
            ])
        }
        return Columns.render(lines)
    }

    /// A number with a fixed count of decimals, or `n/a` when it is not finite.
    /// - Parameters:
    ///   - value: The number.
    ///   - decimals: Digits after the point.
    /// - Returns: The text.
    static func format(_ value: Double, decimals: Int) -> String {
        guard value.isFinite else { return "n/a" }
        return String(format: "%.\(decimals)f", value)
    }

    /// Like ``format(_:decimals:)`` with an explicit `+` for positive values.
    /// - Parameters:
    ///   - value: The number.
    ///   - decimals: Digits after the point.
    /// - Returns: The text.
    static func signed(_ value: Double, decimals: Int) -> String {
        let text = format(value, decimals: decimals)
        return value > 0 ? "+" + text : text
    }
}
