import Foundation

/// Where the known-good copies of files come from, served when a response does not match its digest.
///
/// ```swift
/// .directory(bundledWebFolder)               // /static/app.js → <bundledWebFolder>/static/app.js
/// .files(["/static/app.js": appJS])          // one file per URL path
/// ```
public enum IntegrityFallback: Sendable, Hashable {
    /// A folder mirroring the site: the URL path, percent-decoded, names a file under it.
    ///
    /// A path that would lead outside the folder (through `..` segments or a symbolic link) has no fallback.
    case directory(URL)
    /// One file URL per percent-decoded URL path, compared exactly.
    case files([String: URL])

    /// The file that holds the known-good copy for a URL path.
    ///
    /// - Parameter path: The percent-decoded URL path, for example `/static/app.js`.
    /// - Returns: A file URL, or `nil` when there is none (not in the map, or outside the directory). The file
    ///   may still be missing on disk.
    public func fileURL(forPath path: String) -> URL? {
        switch self {
        case .files(let files):
            return files[path]
        case .directory(let directory):
            let root = directory.standardizedFileURL.resolvingSymlinksInPath()
            let relative = path.split(separator: "/").map(String.init)
            guard !relative.isEmpty else { return nil }
            var file = root
            for component in relative {
                file.appendPathComponent(component)
            }
            let resolved = file.standardizedFileURL.resolvingSymlinksInPath()
            let rootPath = root.path.hasSuffix("/") ? root.path : root.path + "/"
            guard resolved.path.hasPrefix(rootPath) else { return nil }
            return resolved
        }
    }
}
