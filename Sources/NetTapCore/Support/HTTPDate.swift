import Foundation

/// Writes and reads HTTP dates (RFC 9110 §5.6.7) with Foundation's date format styles, fixed to
/// `en_US_POSIX`, the Gregorian calendar and GMT.
///
/// Dates are written as IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`); received dates are read in the three
/// forms a recipient must accept: IMF-fixdate, the obsolete RFC 850 form (`Sunday, 06-Nov-94 08:49:37 GMT`)
/// and asctime (`Sun Nov  6 08:49:37 1994`). A text with anything but white space after the date is none of
/// them. (`DateFormatter` is not used: swift-corelibs-foundation's leaks a character set on some inputs and
/// traps on others, and these parsers read headers from the network.)
package enum HTTPDate {
    private static let posix = Locale(identifier: "en_US_POSIX")
    private static let gmt = TimeZone(secondsFromGMT: 0) ?? .gmt
    private static let gregorian: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = gmt
        return calendar
    }()

    private static let hour = Date.FormatStyle.Symbol.VerbatimHour.twoDigits(
        clock: .twentyFourHour,
        hourCycle: .zeroBased
    )

    /// IMF-fixdate: `Sun, 06 Nov 1994 08:49:37 GMT`.
    private static let imfFixdate: Date.FormatString =
        "\(weekday: .abbreviated), \(day: .twoDigits) \(month: .abbreviated) \(year: .padded(4)) \(hour: hour):\(minute: .twoDigits):\(second: .twoDigits) GMT"
    /// RFC 850: `Sunday, 06-Nov-94 08:49:37 GMT`.
    private static let rfc850: Date.FormatString =
        "\(weekday: .wide), \(day: .twoDigits)-\(month: .abbreviated)-\(year: .twoDigits) \(hour: hour):\(minute: .twoDigits):\(second: .twoDigits) GMT"
    /// asctime: `Sun Nov  6 08:49:37 1994`, read with single spaces.
    private static let asctime: Date.FormatString =
        "\(weekday: .abbreviated) \(month: .abbreviated) \(day: .defaultDigits) \(hour: hour):\(minute: .twoDigits):\(second: .twoDigits) \(year: .defaultDigits)"

    private static let writer = Date.VerbatimFormatStyle(
        format: imfFixdate,
        locale: posix,
        timeZone: gmt,
        calendar: gregorian
    )
    private static let readers = [imfFixdate, rfc850, asctime].map {
        Date.ParseStrategy(format: $0, locale: posix, timeZone: gmt, calendar: gregorian, isLenient: false)
    }

    /// The IMF-fixdate text of `date`, for example `Sun, 06 Nov 1994 08:49:37 GMT`.
    package static func string(from date: Date) -> String {
        writer.format(date)
    }

    /// The date `text` names in any of the three forms (surrounding white space allowed); `nil` when it is none.
    package static func date(from text: String) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        // asctime pads a one-digit day with a space ("Nov  6"); the format has one.
        let collapsed = trimmed.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        for (index, reader) in readers.enumerated() {
            if let date = whole(index == 2 ? collapsed : trimmed, reader) { return date }
        }
        return nil
    }

    /// The date when `reader` reads all of `text`, `nil` otherwise.
    private static func whole(_ text: String, _ reader: Date.ParseStrategy) -> Date? {
        let range = text.startIndex..<text.endIndex
        guard let match = try? reader.consuming(text, startingAt: text.startIndex, in: range),
            match.upperBound == text.endIndex
        else { return nil }
        return match.output
    }
}
