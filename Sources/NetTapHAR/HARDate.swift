import Foundation
import NetTapCore

/// HAR dates: ISO 8601 date-times with a time zone, written with millisecond fractions in UTC.
///
/// The two formatters are made once and used under a lock (a formatter per call cost a quarter of the time of
/// importing a large HAR; `Date.ISO8601FormatStyle` truncates milliseconds where the formatter rounds them).
enum HARDate {
    private static let withFraction = Locked(formatter([.withInternetDateTime, .withFractionalSeconds]))
    private static let withoutFraction = Locked(formatter([.withInternetDateTime]))

    private static func formatter(_ options: ISO8601DateFormatter.Options) -> ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = options
        return formatter
    }

    /// `2024-05-01T10:20:30.123Z`.
    static func string(from date: Date) -> String {
        withFraction.withLock { $0.string(from: date) }
    }

    /// Parses ISO 8601 date-times with or without fractional seconds and with any time-zone offset.
    static func date(from string: String) -> Date? {
        if let date = withFraction.withLock({ $0.date(from: string) }) { return date }
        return withoutFraction.withLock { $0.date(from: string) }
    }
}
