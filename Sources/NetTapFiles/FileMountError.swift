import Foundation

/// Why a ``FileMount`` cannot be made.
public enum FileMountError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The prefix is not an absolute `http`/`https` URL with a host and without user, query or fragment.
    ///
    /// - Parameters:
    ///   - prefix: The prefix as given.
    ///   - reason: What is wrong, for example `the scheme must be http or https`.
    case invalidPrefix(String, reason: String)
    /// The directory does not exist or is not a directory.
    ///
    /// - Parameter directory: The directory as given (a file URL).
    case directoryNotFound(URL)

    /// One line naming the input: `invalid prefix "ftp://x/": the scheme must be http or https`.
    public var description: String {
        switch self {
        case .invalidPrefix(let prefix, let reason): "invalid prefix \"\(prefix)\": \(reason)"
        case .directoryNotFound(let directory): "directory not found: \(directory.path)"
        }
    }
}

extension FileMountError: LocalizedError {
    /// The same text as `description`.
    public var errorDescription: String? { description }
}
