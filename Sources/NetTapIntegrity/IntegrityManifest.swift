import Foundation
import NetTapCore

/// The expected digests of a site's files: URL path → SRI value, read from a JSON file.
///
/// ```json
/// {
///   "/static/app.js": "sha384-oqVuAfXRKap7fdgcCY5uykM6+R9GqQ8K/uxy9rx7HNQlGYl1kPzQho1wx4JwY8wC",
///   "/static/app.css": "sha256-ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0= sha256-…"
/// }
/// ```
/// Keys are percent-decoded URL paths starting with `/`, compared exactly (case-sensitive) with the request's
/// path; values are SRI values as ``IntegrityMetadata/init(sri:)`` reads them (W3C Subresource Integrity).
public struct IntegrityManifest: Sendable, Hashable {
    /// The expected digests by URL path.
    public var entries: [String: IntegrityMetadata]

    /// Creates a manifest from entries.
    ///
    /// - Parameter entries: URL path → expected digests.
    public init(_ entries: [String: IntegrityMetadata]) {
        self.entries = entries
    }

    /// Reads a manifest file.
    ///
    /// - Parameter url: The JSON file; its name is used in errors.
    /// - Returns: The manifest.
    /// - Throws: `ConfigurationError` naming the file (and line and column, or JSON path) when it cannot be read,
    ///   is not JSON, or is not a valid manifest (see `init(configuration:)`).
    public static func load(contentsOf url: URL) throws -> IntegrityManifest {
        try IntegrityManifest(configuration: ConfigNode.load(contentsOf: url))
    }

    /// Reads a manifest document.
    ///
    /// - Parameter node: The document's root, an object.
    /// - Throws: `ConfigurationError` naming the file and JSON path (for example
    ///   `integrity.json: $["/app.js"]: malformed base64 …`) when the root is not an object, a key does not
    ///   start with `/`, a value is not a string, or a value is not valid SRI metadata (malformed base64, a
    ///   digest of the wrong length for its algorithm, no supported algorithm).
    /// - Complexity: O(size of the document).
    package init(configuration node: ConfigNode) throws {
        guard case .object = node.value else {
            throw node.error(
                "expected an object mapping URL paths to SRI values, found \(node.value.kindDescription)"
            )
        }
        var entries: [String: IntegrityMetadata] = [:]
        for (path, member) in try node.members() {
            guard path.hasPrefix("/") else {
                throw member.error("the key \"\(path)\" is not a URL path; it must start with \"/\"")
            }
            guard case .string(let sri) = member.value else {
                throw member.error(
                    "expected an SRI string such as \"sha256-<base64>\", found \(member.value.kindDescription)"
                )
            }
            do {
                entries[path] = try IntegrityMetadata(sri: sri)
            } catch let error as IntegrityError {
                throw member.error(error.description)
            }
        }
        self.entries = entries
    }

    /// The expected digests for a URL path.
    ///
    /// - Parameter path: The percent-decoded URL path, for example `/static/app.js`.
    /// - Returns: The entry, or `nil` when the manifest has none.
    public func expectation(forPath path: String) -> IntegrityMetadata? {
        entries[path]
    }
}
