import Foundation

/// A fresh folder under the system's temporary directory, deleted by ``remove()`` or when the value goes away.
///
/// Thread safety: the value is immutable; writes to the folder from several threads at once have no defined order.
public final class TemporaryFolder: Sendable {
    /// The folder.
    public let url: URL

    /// Creates the folder, holding `files`.
    ///
    /// - Parameters:
    ///   - prefix: The start of the folder's name, followed by `-` and a UUID.
    ///   - files: The files to write: their bytes by path below the folder (relative, `/`-separated).
    /// - Throws: The error `FileManager` or `Data.write(to:)` reports when the folder or a file cannot be written.
    public init(prefix: String = "nettap-files", files: [String: Data] = [:]) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        for (path, data) in files {
            try write(data, to: path)
        }
    }

    deinit {
        remove()
    }

    /// Writes `text` as UTF-8 to `path`, creating folders on the way.
    ///
    /// - Parameters:
    ///   - text: The file's content.
    ///   - path: The path below the folder (relative, `/`-separated).
    /// - Returns: The file's URL.
    /// - Throws: The error `FileManager` or `Data.write(to:)` reports.
    @discardableResult
    public func write(_ text: String, to path: String) throws -> URL {
        try write(Data(text.utf8), to: path)
    }

    /// Writes `data` to `path`, creating folders on the way.
    ///
    /// - Parameters:
    ///   - data: The file's content.
    ///   - path: The path below the folder (relative, `/`-separated).
    /// - Returns: The file's URL.
    /// - Throws: The error `FileManager` or `Data.write(to:)` reports.
    @discardableResult
    public func write(_ data: Data, to path: String) throws -> URL {
        let file = url.appendingPathComponent(path)
        try FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(),
            withIntermediateDirectories: true
        )
        try data.write(to: file)
        return file
    }

    /// Creates a folder at `path`.
    ///
    /// - Parameter path: The path below the folder (relative, `/`-separated).
    /// - Returns: The new folder's URL.
    /// - Throws: The error `FileManager` reports.
    @discardableResult
    public func folder(_ path: String) throws -> URL {
        let folder = url.appendingPathComponent(path, isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Deletes the folder and everything in it; does nothing when it is gone already.
    public func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
