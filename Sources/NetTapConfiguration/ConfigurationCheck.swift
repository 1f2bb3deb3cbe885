import Foundation
import NetTapCore
import NetTapMocking

/// The outcome of checking a `nettap.json` file: every problem found, or the configuration.
///
/// ```swift
/// let check = NetTapConfiguration.check(contentsOf: url)
/// for error in check.errors { print(error) }     // nettap.json: $.scope.denyHosts[0]: invalid regular …
/// ```
public struct ConfigurationCheck: Sendable {
    /// The problems; empty when the file is valid.
    ///
    /// A file that cannot be read or parsed gives one error; otherwise every problem found, in document order
    /// (see ``NetTapConfiguration/validate(contentsOf:)``).
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
    /// Checks a `nettap.json` file (or a stand-alone mocks file) and finds every error, without changing anything
    /// on disk.
    ///
    /// Every section is read once, as ``load(contentsOf:)`` reads it, but a `cache` section's directory is neither
    /// created nor opened, no store is opened and no interceptor changes. A value at fault is reported and the
    /// reading goes on with the rest of its object, the next array element and the next section, so one mistake
    /// does not hide the next; an error that only follows from one already found (`missing required key
    /// "name"` after a `name` that is a number) is not repeated.
    ///
    /// ```swift
    /// for error in NetTapConfiguration.validate(contentsOf: url) {
    ///     print(error)     // nettap.json: $.mocks.stubs[1].name: expected a string, found a number
    /// }
    /// ```
    ///
    /// - Parameter url: The file.
    /// - Returns: The errors in document order (where each value at fault is written in the file), each naming
    ///   the file and the JSON path with the file's array indexes; a file that cannot be read or is not strict
    ///   JSON gives one error (with line and column for a syntax error). Empty when the file is valid.
    public static func validate(contentsOf url: URL) -> [ConfigurationError] {
        check(contentsOf: url).errors
    }

    /// Checks a `nettap.json` file as ``validate(contentsOf:)`` does, and says which sections it has.
    ///
    /// - Parameter url: The file.
    /// - Returns: The errors in document order and the sections present; with no errors, the configuration as
    ///   ``load(contentsOf:)`` returns it, except that its ``cache`` is `nil` (checking opens no cache).
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
        if isStandAloneMocksFile(root) { return checkMocksFile(root, url: url) }
        let diagnostics = ConfigurationDiagnostics()
        var configuration = try? read(
            root.collectingDiagnostics(into: diagnostics),
            baseDirectory: url.deletingLastPathComponent(),
            checksOnly: true
        )
        configuration?.fileURL = url
        let errors = inDocumentOrder(diagnostics.errors, text: try? Data(contentsOf: url))
        let present = Set(((try? root.members()) ?? []).filter { $0.node.value != .null }.map(\.key))
        return ConfigurationCheck(
            errors: errors,
            sections: sectionNames.filter(present.contains),
            configuration: errors.isEmpty ? configuration : nil
        )
    }

    /// Whether a document is a stand-alone mocks file (`MockConfiguration.load(contentsOf:)` reads one): `stubs`
    /// or `scenarios` at the top level, and no `mocks` section.
    private static func isStandAloneMocksFile(_ root: ConfigNode) -> Bool {
        guard case .object(let members) = root.value, members["mocks"] == nil else { return false }
        return members["stubs"] != nil || members["scenarios"] != nil
    }

    /// Checks a stand-alone mocks file as the `mocks` section it holds, reporting every error at its own path.
    private static func checkMocksFile(_ root: ConfigNode, url: URL) -> ConfigurationCheck {
        let diagnostics = ConfigurationDiagnostics()
        let node = root.collectingDiagnostics(into: diagnostics)
        let mocks = try? node.recovering(nil) {
            try MockConfiguration(node: node, baseDirectory: url.deletingLastPathComponent())
        }
        let errors = inDocumentOrder(diagnostics.errors, text: try? Data(contentsOf: url))
        var configuration = NetTapConfiguration()
        configuration.mocks = mocks
        configuration.fileURL = url
        return ConfigurationCheck(
            errors: errors,
            sections: [MockConfiguration.sectionName],
            configuration: errors.isEmpty ? configuration : nil
        )
    }

    /// The errors sorted by where their places are written in the file (those whose place is not found last),
    /// keeping the order found between errors at one place.
    private static func inDocumentOrder(
        _ errors: [(error: ConfigurationError, place: String)],
        text: Data?
    ) -> [ConfigurationError] {
        let offsets =
            text.map { JSONTextLayout.valueOffsets(in: JSONSyntaxDiagnosis.strippingByteOrderMark($0)) } ?? [:]
        return errors.enumerated().sorted { lhs, rhs in
            let left = offsets[lhs.element.place] ?? Int.max
            let right = offsets[rhs.element.place] ?? Int.max
            return (left, lhs.offset) < (right, rhs.offset)
        }.map(\.element.error)
    }
}
