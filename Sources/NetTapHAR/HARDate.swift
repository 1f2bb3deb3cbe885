import Foundation

/// HAR dates: ISO 8601 date-times with a time zone, written with millisecond fractions in UTC.
enum HARDate {
    /// `2024-05-01T10:20:30.123Z`.
    static func string(from date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }

    /// Parses ISO 8601 date-times with or without fractional seconds and with any time-zone offset.
    static func date(from string: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: string) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: string)
    }
}
