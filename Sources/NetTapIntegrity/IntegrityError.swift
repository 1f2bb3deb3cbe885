import Foundation

/// A digest or SRI metadata that NetTap cannot use, given in code.
///
/// Configuration files report the same problems as `ConfigurationError`, naming the file and JSON path.
public enum IntegrityError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A digest or SRI expression is malformed; the text says how.
    case invalidDigest(String)

    /// What is wrong.
    public var description: String {
        switch self {
        case .invalidDigest(let message): message
        }
    }
}

extension IntegrityError: LocalizedError {
    /// The same text as `description`, so `localizedDescription` names the problem too.
    public var errorDescription: String? { description }
}
