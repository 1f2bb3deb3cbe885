import Foundation

/// A URL prefix answered from a local directory: `http://localhost:1000/` → `Resources/web/`.
///
/// The prefix names a scheme (`http` or `https`), a host, a port and a path prefix. A request is under the
/// mount when:
/// - its scheme and host equal the prefix's, compared case-insensitively (RFC 3986 §6.2.2.1);
/// - its port equals the prefix's, a missing port counting as the scheme's default (80 for `http`, 443 for
///   `https`, RFC 9110 §4.2), so `http://example.com/` and `http://example.com:80/` are the same prefix;
/// - its path starts with the prefix's path at a segment boundary: `/game/` and `/game` both cover `/game`,
///   `/game/` and `/game/level1.json`, never `/gameplay.js`. Segments compare after percent-decoding.
///
/// The rest of the request's path, after the prefix, names a file inside ``directory``
/// (`https://cdn.example.com/game/img/a.png` under `https://cdn.example.com/game/` → `img/a.png`).
/// When several mounts cover a request, ``LocalFilesHandler`` uses the one with the longest path prefix.
///
/// ```swift
/// let web = try FileMount(prefix: "http://localhost:1000/", directory: bundle.resourceURL!.appending(path: "web"))
/// let cdn = try FileMount(prefix: "https://cdn.example.com/game/", directory: gameFolder, fallsThrough: true)
/// ```
public struct FileMount: Sendable, Equatable, CustomStringConvertible {
    /// The prefix as given, for example `https://cdn.example.com/game/`.
    public let prefix: URL
    /// The directory whose files answer requests under ``prefix``, as a file URL.
    public let directory: URL
    /// Whether a request for a file that does not exist goes on to the rest of the pipeline (usually the
    /// network) instead of getting a `404 Not Found`.
    public let fallsThrough: Bool

    /// The lower-cased scheme: `http` or `https`.
    let scheme: String
    /// The lower-cased host.
    let host: String
    /// The port, the scheme's default when the prefix names none.
    let port: Int
    /// The prefix's path segments, percent-decoded; empty for `/`.
    let pathSegments: [String]

    /// Creates a mount.
    ///
    /// - Parameters:
    ///   - prefix: An absolute `http` or `https` URL with a host, and without user, query or fragment; its path
    ///     (possibly empty or `/`) is the path prefix.
    ///   - directory: The folder that holds the files, as a file URL. It must exist and be a directory.
    ///   - fallsThrough: `true` to pass requests for missing files to the rest of the pipeline; `false` (the
    ///     default) to answer them `404 Not Found`.
    /// - Throws: ``FileMountError/invalidPrefix(_:reason:)`` for an unusable prefix,
    ///   ``FileMountError/directoryNotFound(_:)`` when `directory` is not an existing directory.
    public init(prefix: URL, directory: URL, fallsThrough: Bool = false) throws {
        let text = prefix.absoluteString
        guard let components = URLComponents(url: prefix, resolvingAgainstBaseURL: true) else {
            throw FileMountError.invalidPrefix(text, reason: "not a URL")
        }
        guard let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw FileMountError.invalidPrefix(text, reason: "the scheme must be http or https")
        }
        guard let host = components.host, !host.isEmpty else {
            throw FileMountError.invalidPrefix(text, reason: "the URL has no host")
        }
        guard components.user == nil, components.password == nil else {
            throw FileMountError.invalidPrefix(text, reason: "the URL must not contain a user or password")
        }
        guard components.percentEncodedQuery == nil, components.percentEncodedFragment == nil else {
            throw FileMountError.invalidPrefix(text, reason: "the URL must not contain a query or fragment")
        }
        guard let segments = RequestPath.decodedSegments(of: components.percentEncodedPath) else {
            throw FileMountError.invalidPrefix(text, reason: "the path contains an invalid percent-encoding")
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory),
            isDirectory.boolValue
        else {
            throw FileMountError.directoryNotFound(directory)
        }
        self.prefix = prefix
        self.directory = directory.standardizedFileURL
        self.fallsThrough = fallsThrough
        self.scheme = scheme
        self.host = host.lowercased()
        self.port = components.port ?? (scheme == "https" ? 443 : 80)
        self.pathSegments = segments.filter { !$0.isEmpty }
    }

    /// Creates a mount from the prefix's text.
    ///
    /// - Parameters:
    ///   - prefix: The prefix, for example `http://localhost:1000/`.
    ///   - directory: The folder that holds the files, as a file URL.
    ///   - fallsThrough: `true` to pass requests for missing files on; `false` (the default) for `404`.
    /// - Throws: ``FileMountError/invalidPrefix(_:reason:)`` when the text is not a usable prefix,
    ///   ``FileMountError/directoryNotFound(_:)`` when `directory` is not an existing directory.
    public init(prefix: String, directory: URL, fallsThrough: Bool = false) throws {
        guard let url = URL(string: prefix) else {
            throw FileMountError.invalidPrefix(prefix, reason: "not a URL")
        }
        try self.init(prefix: url, directory: directory, fallsThrough: fallsThrough)
    }

    /// `prefix → directory`, with ` (falls through)` when ``fallsThrough``.
    public var description: String {
        "\(prefix.absoluteString) → \(directory.path)" + (fallsThrough ? " (falls through)" : "")
    }

    /// Where a request falls under this mount: the raw (percent-encoded) path segments after the prefix.
    ///
    /// - Parameter path: The request's parsed URL.
    /// - Returns: The segments after the prefix (the last one empty when the path ends in `/`), or `nil` when
    ///   the request is not under this mount.
    func remainder(of path: RequestPath) -> [Substring]? {
        guard path.scheme == scheme, path.host == host, path.port == port else { return nil }
        guard path.rawSegments.count >= pathSegments.count else { return nil }
        for (index, segment) in pathSegments.enumerated() {
            guard path.rawSegments[index].removingPercentEncoding == segment else { return nil }
        }
        return Array(path.rawSegments.dropFirst(pathSegments.count))
    }
}
