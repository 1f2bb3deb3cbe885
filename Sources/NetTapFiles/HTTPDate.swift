import Foundation
import NetTapCore

/// Formats and reads HTTP dates (RFC 9110 §5.6.7) with `DateFormatter`s fixed to `en_US_POSIX` and GMT.
///
/// Dates are sent as IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`); received dates are accepted in the three
/// forms a recipient must accept: IMF-fixdate, the obsolete RFC 850 form (`Sunday, 06-Nov-94 08:49:37 GMT`)
/// and asctime (`Sun Nov  6 08:49:37 1994`).
enum HTTPDate {
    /// The formatters, guarded by a lock because formatter objects are not documented as thread safe.
    private static let formatters = Locked(
        (
            imf: formatter("EEE, dd MMM yyyy HH:mm:ss 'GMT'"),
            rfc850: formatter("EEEE, dd-MMM-yy HH:mm:ss 'GMT'"),
            asctime: formatter("EEE MMM d HH:mm:ss yyyy")
        )
    )

    private static func formatter(_ format: String) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.calendar = Calendar(identifier: .gregorian)
        formatter.dateFormat = format
        return formatter
    }

    /// The IMF-fixdate text of `date`, for example `Sun, 06 Nov 1994 08:49:37 GMT`.
    static func string(from date: Date) -> String {
        formatters.withLock { $0.imf.string(from: date) }
    }

    /// Reads an HTTP date in any of the three forms; `nil` when the text is none of them.
    static func date(from text: String) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        // asctime pads a one-digit day with a space: "Nov  6" → "Nov 6".
        let collapsed = trimmed.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        return formatters.withLock { formatters in
            formatters.imf.date(from: trimmed) ?? formatters.rfc850.date(from: trimmed)
                ?? formatters.asctime.date(from: collapsed)
        }
    }
}
