import Foundation
import NetTapCore

extension ReplayHandler {
    /// A loaded cassette entry that no request replayed.
    public struct UnplayedEntry: Sendable, Hashable, CustomStringConvertible {
        /// The entry's position in the cassette's `log.entries` (0-based).
        public var index: Int
        /// The recorded request's method, for example `GET`.
        public var method: String
        /// The recorded request's URL, redacted as the cassette holds it.
        public var url: URL
        /// When the entry was recorded: its `startedDateTime` as written (ISO 8601).
        public var startedDateTime: String

        /// Creates an entry description.
        ///
        /// - Parameters:
        ///   - index: The position in `log.entries`.
        ///   - method: The recorded method.
        ///   - url: The recorded URL.
        ///   - startedDateTime: The recorded start, ISO 8601.
        public init(index: Int, method: String, url: URL, startedDateTime: String) {
            self.index = index
            self.method = method
            self.url = url
            self.startedDateTime = startedDateTime
        }

        /// The entry's JSON path in the cassette, `$.log.entries[3]`.
        public var jsonPath: String { "$.log.entries[\(index)]" }

        /// `$.log.entries[3]: GET https://api.example.com/cart (recorded 2024-05-01T10:20:30.123Z)`.
        public var description: String {
            "\(jsonPath): \(method) \(url.absoluteString) (recorded \(startedDateTime))"
        }
    }

    /// The loaded entries no request has replayed yet, in recorded order (vcrpy's `all_played` is this being
    /// empty; VCR's `allow_unused_http_interactions: false` fails on it).
    ///
    /// Only entries the handler replays count: entries with a response (status above 0), loaded in a mode that
    /// replays (not ``RecordMode/all``, nor ``RecordMode/once`` without the file, nor an expired cassette
    /// being recorded again). Entries recorded by this handler are not listed.
    /// - Complexity: O(entries).
    public var unplayedEntries: [UnplayedEntry] {
        index.unplayed.map {
            UnplayedEntry(
                index: $0.index,
                method: $0.request.method,
                url: $0.request.url,
                startedDateTime: $0.entry.startedDateTime
            )
        }
    }
}
