import Foundation
import NetTapCore

/// The outcome of checking a `nettap.json` file: every problem found, one per section at most, or the
/// configuration.
///
/// ```swift
/// let check = NetTapConfiguration.check(contentsOf: url)
/// for error in check.errors { print(error) }     // nettap.json: $.scope.denyHosts[0]: invalid regular …
/// ```
public struct ConfigurationCheck: Sendable {
    /// The problems; empty when the file is valid.
    ///
    /// A syntax error comes alone; otherwise the unknown top-level keys (by name) come first, then the first
    /// problem of each section, in ``NetTapConfiguration/sectionNames`` order.
    public var errors: [ConfigurationError]
    /// The sections the file has (present and not `null`), in ``NetTapConfiguration/sectionNames`` order, whether
    /// valid or not.
    public var sections: [String]
    /// The configuration when there are no errors, else `nil`.
    public var configuration: NetTapConfiguration?

    /// Whether the file is valid.
    public var isValid: Bool { errors.isEmpty }

    /// Creates a check result.
    ///
    /// - Parameters:
    ///   - errors: The problems found.
    ///   - sections: The sections present.
    ///   - configuration: The configuration, when valid.
    public init(errors: [ConfigurationError], sections: [String], configuration: NetTapConfiguration?) {
        self.errors = errors
        self.sections = sections
        self.configuration = configuration
    }
}

extension NetTapConfiguration {
    /// Checks a `nettap.json` file, reading each section on its own so that one broken section does not hide
    /// the problems of the others.
    ///
    /// Within a section the first problem is reported; every unknown top-level key is reported, each with a
    /// did-you-mean suggestion when one name is close. Checking builds the handlers as ``load(contentsOf:)``
    /// does (a `cache` section creates its directory) but opens no store and changes no interceptor.
    ///
    /// - Parameter url: The file.
    /// - Returns: The errors (each naming the file and the JSON path, or line and column for a syntax error)
    ///   and the sections present; with no errors, the configuration as ``load(contentsOf:)`` returns it.
    public static func check(contentsOf url: URL) -> ConfigurationCheck {
        let root: ConfigNode
        do {
            root = try ConfigNode.load(contentsOf: url)
        } catch let error as ConfigurationError {
            return ConfigurationCheck(errors: [error], sections: [], configuration: nil)
        } catch {
            let failure = ConfigurationError(source: url.lastPathComponent, message: "\(error)")
            return ConfigurationCheck(errors: [failure], sections: [], configuration: nil)
        }
        var (configuration, errors) = read(root, baseDirectory: url.deletingLastPathComponent())
        configuration.fileURL = url
        let present = Set(((try? root.members()) ?? []).filter { $0.node.value != .null }.map(\.key))
        return ConfigurationCheck(
            errors: errors,
            sections: sectionNames.filter(present.contains),
            configuration: errors.isEmpty ? configuration : nil
        )
    }
}
