import Foundation

/// Reads a file a user named (a HAR file, a `nettap.json`) and says in words why it could not, so every
/// reader's error names the file and the reason the same way.
package enum InputFile {
    /// Why a file could not be read.
    package enum Problem: Error, Sendable, Equatable {
        /// Nothing exists at the path.
        case missing
        /// The path is a folder.
        case directory
        /// The file exists but this process may not read it.
        case permissionDenied
        /// Reading failed for another reason, in the file system's words.
        case failed(String)

        /// `no such file`, `it is a directory, not a file`, `permission denied`, or the file system's reason.
        package var reason: String {
            switch self {
            case .missing: "no such file"
            case .directory: "it is a directory, not a file"
            case .permissionDenied: "permission denied"
            case .failed(let reason): reason
            }
        }
    }

    /// Why the file at `url` cannot be read, without reading it: missing, a folder, or not readable.
    ///
    /// - Parameter url: A file URL.
    /// - Returns: The problem, or `nil` when it is a readable file.
    package static func problem(at url: URL) -> Problem? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else { return .missing }
        guard !isDirectory.boolValue else { return .directory }
        guard FileManager.default.isReadableFile(atPath: url.path) else { return .permissionDenied }
        return nil
    }

    /// The bytes of the file at `url`: a regular file, or a pipe or device read to its end (`<(cat a.har)`,
    /// `/dev/stdin`; Foundation's `Data(contentsOf:)` refuses those on Linux).
    ///
    /// - Parameter url: A file URL.
    /// - Returns: The file's bytes.
    /// - Throws: ``Problem`` saying why the file could not be read.
    package static func read(_ url: URL) throws(Problem) -> Data {
        if let problem = problem(at: url) { throw problem }
        do {
            let type = try FileManager.default.attributesOfItem(atPath: url.path)[.type] as? FileAttributeType
            guard type != nil, type != .typeRegular else { return try Data(contentsOf: url) }
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            return try handle.readToEnd() ?? Data()
        } catch {
            throw .failed(reason(error))
        }
    }

    /// The POSIX error an error wraps, in the system's words (Foundation's own text can name the wrong cause).
    private static func reason(_ error: any Error) -> String {
        let error = error as NSError
        let posix = error.domain == NSPOSIXErrorDomain ? error : error.userInfo[NSUnderlyingErrorKey] as? NSError
        if let posix, posix.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(posix.code))) }
        return error.localizedFailureReason ?? "the file system refused to read it"
    }
}
