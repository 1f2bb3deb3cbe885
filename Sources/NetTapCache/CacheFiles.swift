import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// File operations of the offline cache: files created readable and writable by the owner only (0600),
/// replaced atomically by `rename(2)`, and one-line notes on standard error.
enum CacheFiles {
    /// Creates a new, empty file with mode 0600 and opens it for writing.
    ///
    /// - Throws: `POSIXError` with `open(2)`'s code (the file exists, the directory is gone, …).
    static func create(_ url: URL) throws -> FileHandle {
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw posixError() }
        return FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    }

    /// Writes `data` to a new file beside `url` and renames it over `url`, so readers see the old file or the
    /// new one, never a part.
    ///
    /// - Throws: `POSIXError` or the file handle's error; the temporary file is removed then.
    static func writeAtomically(_ data: Data, to url: URL) throws {
        let partial = url.appendingPathExtension(partialExtension)
        try? FileManager.default.removeItem(at: partial)
        do {
            let handle = try create(partial)
            try handle.write(contentsOf: data)
            try handle.close()
            try rename(partial, to: url)
        } catch {
            try? FileManager.default.removeItem(at: partial)
            throw error
        }
    }

    /// Renames `source` to `destination`, replacing it atomically when it exists (`rename(2)`).
    ///
    /// - Throws: `POSIXError` with `rename(2)`'s code.
    static func rename(_ source: URL, to destination: URL) throws {
        #if canImport(Glibc)
        let result = Glibc.rename(source.path, destination.path)
        #elseif canImport(Musl)
        let result = Musl.rename(source.path, destination.path)
        #else
        let result = Darwin.rename(source.path, destination.path)
        #endif
        guard result == 0 else { throw posixError() }
    }

    /// Removes files, ignoring ones already gone.
    static func remove(_ urls: [URL]) {
        for url in urls { try? FileManager.default.removeItem(at: url) }
    }

    /// The extension of files being written (`<name>.partial`): removed when found at start-up.
    static let partialExtension = "partial"

    /// Writes `NetTap: offline cache <directory>: <message>` as one line to standard error.
    static func note(_ message: String, directory: URL) {
        FileHandle.standardError.write(Data("NetTap: offline cache \(directory.path): \(message)\n".utf8))
    }

    private static func posixError() -> POSIXError {
        POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
    }
}
