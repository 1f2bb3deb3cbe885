import Foundation

/// Why the inspector could not start (one line naming the address and port, or why NetTap is off), or why its
/// control page refused a change.
public struct InspectorError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, for example `127.0.0.1:9229 is in use (EADDRINUSE); choose another port or 0 for a free one`.
    public var description: String

    init(_ description: String) {
        self.description = description
    }
}
