import Foundation
import NetTapHAR

/// How old a loaded cassette is, and whether that is older than a re-record interval.
///
/// A cassette's age is measured from its earliest entry's `startedDateTime` (what Ruby's VCR calls the
/// cassette's "originally recorded at"), not from the file's modification date: a checkout, a copy or an
/// appended episode gives the file a new date without recording anything again. Entries whose date does not
/// parse are left out (a cassette is read strictly, so each has one); a cassette with no entry never expires.
struct CassetteAge: Sendable {
    /// The earliest entry's start, or `nil` when no entry has a readable date.
    let recordedAt: Date?
    /// The interval the age was compared with, or `nil` for none.
    let interval: Duration?
    /// The date the age was measured at.
    let now: Date

    /// Measures the age of `entries` at `now`.
    ///
    /// - Complexity: O(entries).
    init(entries: [HAREntry], interval: Duration?, now: Date) {
        self.interval = interval
        self.now = now
        guard interval != nil else {
            recordedAt = nil
            return
        }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let plain = ISO8601DateFormatter()
        plain.formatOptions = [.withInternetDateTime]
        recordedAt = entries.compactMap {
            formatter.date(from: $0.startedDateTime) ?? plain.date(from: $0.startedDateTime)
        }
        .min()
    }

    /// Whether the cassette is older than the interval.
    var isExpired: Bool {
        guard let interval, let recordedAt else { return false }
        return now.timeIntervalSince(recordedAt) > Self.seconds(interval)
    }

    /// The note on a replay from an expired cassette the mode does not record again.
    func staleReplayNote(mode: RecordMode) -> String {
        "replayed from a cassette recorded \(recordedAt.map(Self.describe) ?? "at an unknown date"), older than "
            + "reRecordInterval \(interval.map(Self.describe) ?? "none"); record mode \(mode) does not record it again"
    }

    /// A duration in seconds.
    static func seconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }

    /// `30 days`, `1.5 days` or `90 s`.
    static func describe(_ duration: Duration) -> String {
        let seconds = seconds(duration)
        guard seconds >= 86_400 else { return "\(Self.number(seconds)) s" }
        let days = seconds / 86_400
        return days == 1 ? "1 day" : "\(Self.number(days)) days"
    }

    private static func describe(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }

    private static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String((value * 100).rounded() / 100)
    }
}
