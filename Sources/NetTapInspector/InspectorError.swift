import Foundation

/// Why the inspector could not start (one line naming the address and port, or why NetTap is off), or why its
/// control page refused a change.
public struct InspectorError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, for example `127.0.0.1:9229 is in use (EADDRINUSE); choose another port or 0 for a free one`.
    public var description: String
    /// What the error is about, for a command line that names the option: the address, the port, or neither.
    package var subject: Subject

    /// What an ``InspectorError`` is about.
    package enum Subject: Sendable, Equatable {
        case address, port, other
    }

    init(_ description: String, about subject: Subject = .other) {
        self.description = description
        self.subject = subject
    }
}
