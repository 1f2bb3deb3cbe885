import Foundation

/// Number and text formats of NetTap's reports (`nettap report --html`, `nettap stats`): sizes, durations,
/// rates, plurals and the "nice" tick values of a chart axis.
///
/// ```swift
/// ReportFormat.bytes(1536)                              // "1.5 KiB"
/// ReportFormat.duration(seconds: 10_155_471.99)         // "117 d 12 h"
/// ReportFormat.interval(seconds: 0.25)                  // "250 ms"
/// ReportFormat.counted(1, "transaction")                // "1 transaction"
/// ReportFormat.rateTicks(maximum: 2.2).map(\.label)     // ["0 B/s", "1 B/s", "2 B/s", "3 B/s"]
/// ```
public enum ReportFormat {
    /// One labelled value of a chart axis.
    public struct Tick: Sendable, Hashable {
        /// The value, in the axis's base unit (bytes per second for ``ReportFormat/rateTicks(maximum:count:)``).
        public var value: Double
        /// The label, for example `1.5 KiB/s`.
        public var label: String
    }

    /// A byte count with a binary unit: `512 B`, `1.5 KiB`, `2.0 MiB`, `1.1 GiB`.
    ///
    /// - Parameter count: Bytes.
    /// - Returns: The count below 1024 as is, else one decimal in KiB, MiB or GiB (1024-based).
    public static func bytes(_ count: Int64) -> String {
        let value = Double(count)
        if count < 1024 { return "\(count) B" }
        if value < 1024 * 1024 { return String(format: "%.1f KiB", value / 1024) }
        if value < 1024 * 1024 * 1024 { return String(format: "%.1f MiB", value / 1024 / 1024) }
        return String(format: "%.1f GiB", value / 1024 / 1024 / 1024)
    }

    /// A duration given in milliseconds: `12.3 ms`, `1.25 s`, and from one minute on as ``duration(seconds:)``.
    ///
    /// - Parameter value: Milliseconds, or `nil` when unknown.
    /// - Returns: The text, or `–` for `nil`.
    public static func milliseconds(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "–" }
        if value >= 60_000 { return duration(seconds: value / 1000) }
        if value >= 1000 { return String(format: "%.2f s", value / 1000) }
        return String(format: "%.1f ms", value)
    }

    /// A length of time in its two largest units, short enough for a summary card.
    ///
    /// Under a second it is milliseconds with one decimal (`850.0 ms`), under a minute seconds with two
    /// (`12.35 s`), then whole units, the smaller one rounded down: `5 min 3 s`, `3 h 5 min`, `117 d 12 h`.
    ///
    /// - Parameter seconds: The duration, in seconds; negative values count as 0.
    /// - Returns: The text.
    public static func duration(seconds: Double) -> String {
        guard seconds.isFinite else { return "–" }
        let value = max(0, seconds)
        if value < 1 { return String(format: "%.1f ms", value * 1000) }
        if value < 60 { return String(format: "%.2f s", value) }
        let whole = Int64(value.rounded(.down))
        if whole < 3600 { return "\(whole / 60) min \(whole % 60) s" }
        if whole < 86_400 { return "\(whole / 3600) h \(whole % 3600 / 60) min" }
        return "\(whole / 86_400) d \(whole % 86_400 / 3600) h"
    }

    /// A bucket or step length, exact and short: `250 ms`, `1 s`, `1.5 s`, `1 min`, `2 h`, `1 d`.
    ///
    /// Whole minutes, hours and days use those units; other lengths are seconds (milliseconds under a second)
    /// with at most three decimals, trailing zeros removed.
    ///
    /// - Parameter seconds: The length, in seconds.
    /// - Returns: The text.
    public static func interval(seconds: Double) -> String {
        guard seconds.isFinite, seconds > 0 else { return "0 s" }
        let milliseconds = (seconds * 1000).rounded()
        for (unit, size) in [("d", 86_400_000.0), ("h", 3_600_000.0), ("min", 60_000.0)]
        where milliseconds >= size && milliseconds.truncatingRemainder(dividingBy: size) == 0 {
            return "\(Int64(milliseconds / size)) \(unit)"
        }
        if seconds < 1 { return "\(trimmed(seconds * 1000, decimals: 3)) ms" }
        return "\(trimmed(seconds, decimals: 3)) s"
    }

    /// A count with its noun, singular for exactly one: `1 transaction`, `0 transactions`, `3 buckets`.
    ///
    /// - Parameters:
    ///   - count: The count.
    ///   - noun: The singular noun.
    ///   - plural: The plural; the noun with `s` by default.
    /// - Returns: The count, a space and the noun.
    public static func counted(_ count: Int, _ noun: String, plural: String? = nil) -> String {
        "\(count) \(count == 1 ? noun : plural ?? noun + "s")"
    }

    /// A share as a whole percentage: `42 %` for 0.42.
    ///
    /// - Parameter share: A fraction, 0 to 1.
    /// - Returns: The text.
    public static func percent(_ share: Double) -> String {
        String(format: "%.0f %%", share * 100)
    }

    /// Distinct, evenly spaced axis ticks for rates in bytes per second, from 0 to at least `maximum`.
    ///
    /// The unit (B/s, KiB/s, MiB/s, GiB/s) is the largest that keeps `maximum` at 1 or more; the step is 1, 2,
    /// 2.5 or 5 times a power of ten in that unit, the smallest giving at most `count` steps; every label has
    /// the decimals the step needs, so no two labels read the same (`0.0`, `0.5`, `1.0`, `1.5 KiB/s`).
    ///
    /// - Parameters:
    ///   - maximum: The largest value to show, in bytes per second; 0 or less gives the ticks of 1 B/s.
    ///   - count: The most steps above 0; 4 by default.
    /// - Returns: The ticks from 0 upwards; the last is at least `maximum`.
    public static func rateTicks(maximum: Double, count: Int = 4) -> [Tick] {
        let units: [(String, Double)] = [("B", 1), ("KiB", 1024), ("MiB", 1_048_576), ("GiB", 1_073_741_824)]
        let peak = maximum.isFinite && maximum > 0 ? maximum : 1
        let (unit, size) = units.last { peak >= $0.1 } ?? units[0]
        let steps = max(1, count)
        let raw = peak / size / Double(steps)
        let magnitude = pow(10, (log10(raw)).rounded(.down))
        let target: Double = peak / size * (1 - 1e-12)
        let factors: [Double] = [1, 2, 2.5, 5, 10]
        let factor: Double = factors.first { $0 * magnitude * Double(steps) >= target } ?? 10
        let step = factor * magnitude
        var decimals = max(0, Int(-(log10(step)).rounded(.down)))
        if factor == 2.5 && step < 10 { decimals += 1 }
        let stepCount = Int((peak / size / step - 1e-9).rounded(.up))
        return (0...max(1, stepCount)).map { index in
            let value = Double(index) * step
            return Tick(value: value * size, label: String(format: "%.\(decimals)f \(unit)/s", value))
        }
    }

    /// A long text cut to `limit` characters with `…`.
    static func shortened(_ text: String, limit: Int = 120) -> String {
        text.count > limit ? String(text.prefix(limit - 1)) + "…" : text
    }

    /// A number with at most `decimals` decimals, trailing zeros (and a trailing point) removed.
    private static func trimmed(_ value: Double, decimals: Int) -> String {
        var text = String(format: "%.\(decimals)f", value)
        guard text.contains(".") else { return text }
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }
}
