import Foundation

/// When a ``ReplayHandler`` answers from its cassette and when it records from the network, as VCR,
/// vcrpy and Polly.JS name them.
///
/// | mode | cassette file exists | cassette file missing |
/// | --- | --- | --- |
/// | ``once`` | replay only; unmatched requests fail | record every request |
/// | ``newEpisodes`` | replay known requests, record new ones | record every request |
/// | ``none`` | replay only; unmatched requests fail | every request fails |
/// | ``all`` | record every request; the file is replaced | record every request |
///
/// Only entries that were in the file when the handler was created are replayed; entries recorded by the
/// handler are written to the file for the next run.
public enum RecordMode: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Record when the cassette file is missing, else replay only.
    case once
    /// Replay requests the cassette knows, record the others and append them.
    case newEpisodes
    /// Replay only, never touch the network; unmatched requests fail with `URLError(.resourceUnavailable)`.
    case none
    /// Always record, never replay; the file is replaced by this run's recordings.
    case all

    /// The mode's name, for example `newEpisodes`.
    public var description: String { rawValue }

    /// Whether a handler in this mode answers from the entries loaded from the file.
    ///
    /// - Parameter fileExists: Whether the cassette file existed when the handler was created.
    /// - Returns: `true` when loaded entries are replayed.
    public func replays(fileExists: Bool) -> Bool {
        switch self {
        case .once: fileExists
        case .newEpisodes, .none: true
        case .all: false
        }
    }

    /// Whether a handler in this mode sends unmatched requests on and records them.
    ///
    /// - Parameter fileExists: Whether the cassette file existed when the handler was created.
    /// - Returns: `true` when unmatched requests are recorded, `false` when they fail.
    public func records(fileExists: Bool) -> Bool {
        switch self {
        case .once: !fileExists
        case .newEpisodes, .all: true
        case .none: false
        }
    }
}
