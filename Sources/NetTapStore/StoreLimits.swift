import Foundation

/// How much a ``TransactionStore`` keeps: a total size, a size per body and an age.
///
/// When a limit is passed, the oldest transactions (by start time) are removed first, with the bodies no other
/// transaction shares, and the file is shrunk (`PRAGMA incremental_vacuum`). Limits are applied after each
/// written batch and when a store is opened for writing.
///
/// ```swift
/// let limits = StoreLimits(totalByteLimit: 64 << 20, maximumAge: .seconds(3 * 86_400))
/// ```
public struct StoreLimits: Sendable, Hashable {
    /// The most bytes the store may use: database pages in use (`page_count − freelist_count` × `page_size`)
    /// plus the write-ahead log (`-wal` file); 256 MiB by default.
    ///
    /// When passed, the log is folded back into the file first; if the pages alone are still over it, the oldest
    /// transactions are removed until they are under 90 % of it, so removal does not run after every batch. The
    /// log is kept to a quarter of this limit (64 KiB to 4 MiB) between checkpoints (`journal_size_limit`).
    public var totalByteLimit: Int64
    /// The most bytes kept of one request or response body; 1 MiB by default.
    ///
    /// Longer bodies are stored truncated to their first `bodyByteLimit` bytes with their full byte count kept,
    /// as `CapturedBody` does.
    public var bodyByteLimit: Int
    /// How long a transaction is kept after its start, or `nil` to keep transactions regardless of age;
    /// 14 days by default.
    public var maximumAge: Duration?

    /// The defaults: 256 MiB in total, 1 MiB per body, 14 days.
    public static let `default` = StoreLimits()

    /// Creates limits.
    ///
    /// - Parameters:
    ///   - totalByteLimit: The most bytes of database pages in use plus the `-wal` file; 256 MiB by default.
    ///   - bodyByteLimit: The most bytes kept per body; 1 MiB by default.
    ///   - maximumAge: How long transactions are kept, or `nil` for no age limit; 14 days by default.
    public init(
        totalByteLimit: Int64 = 256 * 1024 * 1024,
        bodyByteLimit: Int = 1024 * 1024,
        maximumAge: Duration? = .seconds(14 * 24 * 60 * 60)
    ) {
        self.totalByteLimit = totalByteLimit
        self.bodyByteLimit = max(0, bodyByteLimit)
        self.maximumAge = maximumAge
    }

    /// ``maximumAge`` in seconds, or `nil`.
    var maximumAgeSeconds: Double? {
        maximumAge.map { age in
            let (seconds, attoseconds) = age.components
            return Double(seconds) + Double(attoseconds) / 1e18
        }
    }
}
