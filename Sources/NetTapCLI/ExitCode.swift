import Foundation

/// The process exit codes of `nettap`.
package enum ExitCode: Int32, Sendable, Hashable {
    /// The command succeeded.
    case success = 0
    /// The command failed (network error, unreadable or invalid file).
    case failure = 1
    /// The command line was wrong (unknown command or option, missing or malformed argument).
    case usage = 2
}
