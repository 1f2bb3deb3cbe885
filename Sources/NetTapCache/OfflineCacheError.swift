import Foundation

/// Why an ``OfflineCache`` could not be opened: a limit out of range, or a directory that cannot be used.
public struct OfflineCacheError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, naming the value or the directory, for example
    /// `offline cache directory /tmp/x cannot be created: …`.
    public var message: String

    /// Creates an error.
    ///
    /// - Parameter message: What is wrong, one line.
    public init(_ message: String) {
        self.message = message
    }

    /// The message.
    public var description: String { message }
}

extension OfflineCacheError: LocalizedError {
    /// The same text as `description`, so `localizedDescription` (what apps and test reports show) names the
    /// value or directory too.
    public var errorDescription: String? { description }
}
