import Foundation
import NetTapCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One request field a stored response varies on, with the value the storing request had.
struct CachedVaryField: Codable, Hashable, Sendable {
    /// The lower-cased field name.
    var name: String
    /// The request's value, or `nil` when the request did not have the field.
    var value: String?
}

/// What an entry's metadata file (`<id>.json`) holds: the key, the response head and when it was stored.
///
/// The file never changes after the entry is committed; when it was last used lives in the index.
struct CachedEntryRecord: Codable, Sendable, Equatable {
    /// The format version; files with another version are dropped as unreadable.
    static let currentVersion = 1

    /// The metadata format version.
    var version = Self.currentVersion
    /// The request method, upper-cased (`GET`).
    var method: String
    /// The request URL without its fragment: the key, with ``method`` and ``vary``.
    var url: String
    /// The request fields the response varies on and the storing request's values; empty when it does not vary.
    var vary: [CachedVaryField]
    /// The response status code.
    var statusCode: Int
    /// The response's protocol version, such as `HTTP/1.1`.
    var httpVersion: String
    /// The URL the response came from (after redirects), when it differs from ``url``.
    var responseURL: String?
    /// The response header fields as stored (see `OfflineCacheHandler` for the fields left out).
    var headers: HeaderFields
    /// When the response head arrived.
    var storedDate: Date
    /// The response's age when it arrived, seconds (RFC 9111 §4.2.3 `corrected_initial_age`).
    var initialAge: Int
    /// The body's size in bytes.
    var byteCount: Int

    /// The key of the entry's URL and method: `GET https://example.com/a?b=1`.
    var primaryKey: String { "\(method) \(url)" }

    /// Whether `request`'s values of the varying fields equal the stored ones (RFC 9111 §4.1).
    func matchesVary(of request: URLRequest) -> Bool {
        CacheDirectives.values(of: vary.map(\.name), in: request) == vary
    }
}

/// The index file (`index.json`): size and last use of every entry, for least-recently-used eviction.
struct CacheIndexFile: Codable, Sendable {
    /// One entry's bookkeeping.
    struct Entry: Codable, Sendable {
        /// The entry's identifier: its files are `<id>.body` and `<id>.json`.
        var id: UUID
        /// The body's size in bytes.
        var byteCount: Int
        /// When the entry was last stored or answered from.
        var lastAccess: Date
        /// A counter that orders uses exactly (dates can tie); higher is more recent.
        var sequence: UInt64
    }

    /// The index format version.
    var version = CachedEntryRecord.currentVersion
    /// The entries, most recently used first.
    var entries: [Entry]
}
