import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns the path segments after a mount's prefix into an open file inside the mount's directory, refusing
/// anything that could reach outside it.
///
/// The rules, applied in this order (each refusal is a plain "not found"):
/// 1. Every segment is percent-decoded once; an invalid escape or bytes that are not valid UTF-8 (overlong
///    forms such as `%C0%AE`, lone continuation bytes) refuse the request.
/// 2. A decoded segment may not be `.` or `..`, may not contain `/` (from `%2F`), `\` (or `%5C`), a NUL byte
///    (`%00`) or another control character, and may not be empty except as the last segment (so `//etc/passwd`
///    and `a//b` are refused; a trailing `/` asks for a directory's `index.html`).
/// 3. The joined path's real path (every symbolic link resolved, `realpath(3)`) must be the directory's own
///    real path or lie below it: a symbolic link inside the directory that points inside it is followed, one
///    that points outside is refused.
/// 4. The file is opened with `O_NOFOLLOW` (the real path has no links left, so a link swapped in after the
///    check is refused) and checked with `fstat(2)` on the open descriptor: only a regular file is served.
///
/// Decoding happens once, so `%252e%252e` stays the literal name `%2e%2e`.
enum SafeFileLocator {
    /// What a request's path resolved to.
    enum Outcome {
        /// A regular file, opened.
        case file(OpenedFile)
        /// A directory asked for without its trailing `/`.
        case directoryWithoutSlash
        /// Nothing may be served; the reason is for annotations only.
        case notFound(reason: String)
    }

    /// The file name served for a URL that names a directory (ends in `/`).
    static let indexFileName = "index.html"

    /// Resolves `segments` (raw, percent-encoded) below `root`.
    ///
    /// - Parameters:
    ///   - segments: The request path's segments after the mount prefix; the last one empty for a directory.
    ///   - root: The mount's directory.
    /// - Returns: The opened file, a directory-without-slash marker, or a refusal.
    static func locate(_ segments: [Substring], in root: URL) -> Outcome {
        var names: [String] = []
        for (index, raw) in segments.enumerated() {
            guard let name = raw.removingPercentEncoding else {
                return .notFound(reason: "invalid percent-encoding or UTF-8 in \"\(raw)\"")
            }
            let isLast = index == segments.count - 1
            if name.isEmpty && isLast { continue }
            guard isAllowedName(name) else { return .notFound(reason: "path segment not allowed: \"\(raw)\"") }
            names.append(name)
        }
        // No segment at all: the request named the prefix itself without its trailing `/`.
        let endsWithSlash = segments.last?.isEmpty ?? false
        guard let rootReal = realPath(root.path) else { return .notFound(reason: "the mount's directory is gone") }
        let joined = ([rootReal] + names).joined(separator: "/")
        guard let real = realPath(joined) else { return .notFound(reason: "no such file") }
        guard isInside(real, root: rootReal) else { return .notFound(reason: "resolves outside the mount") }
        guard let isDirectory = isDirectory(real) else { return .notFound(reason: "no such file") }
        if isDirectory {
            guard endsWithSlash else { return .directoryWithoutSlash }
            return open(indexIn: real, root: rootReal, relativePath: (names + [indexFileName]).joined(separator: "/"))
        }
        guard !endsWithSlash else { return .notFound(reason: "not a directory") }
        return open(real, relativePath: names.joined(separator: "/"))
    }

    /// Opens `index.html` in the directory `directory` (a real path inside `root`).
    private static func open(indexIn directory: String, root: String, relativePath: String) -> Outcome {
        guard let real = realPath(directory + "/" + indexFileName) else {
            return .notFound(reason: "the directory has no \(indexFileName)")
        }
        guard isInside(real, root: root) else { return .notFound(reason: "resolves outside the mount") }
        return open(real, relativePath: relativePath)
    }

    /// Opens a real path read-only and checks it is a regular file.
    ///
    /// `O_NONBLOCK`: opening a FIFO (or a device) for reading would otherwise block the thread until a writer
    /// appears — one such request per core froze every task. With it the open returns at once and the
    /// regular-file check refuses the FIFO; on regular files the flag changes nothing.
    private static func open(_ path: String, relativePath: String) -> Outcome {
        let descriptor = Glue.open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard descriptor >= 0 else { return .notFound(reason: "cannot open the file (errno \(errno))") }
        guard let file = OpenedFile(descriptor: descriptor, path: path, relativePath: relativePath) else {
            _ = Glue.close(descriptor)
            return .notFound(reason: "not a regular file")
        }
        return .file(file)
    }

    /// Whether a decoded path segment is a plain file name.
    static func isAllowedName(_ name: String) -> Bool {
        guard !name.isEmpty, name != ".", name != ".." else { return false }
        return !name.unicodeScalars.contains { scalar in
            scalar == "/" || scalar == "\\" || scalar.value < 0x20 || scalar.value == 0x7F
        }
    }

    /// Whether the real path `path` is `root` or below it.
    static func isInside(_ path: String, root: String) -> Bool {
        if path == root { return true }
        let base = root.hasSuffix("/") ? root : root + "/"
        return path.hasPrefix(base)
    }

    /// The canonical absolute path with every symbolic link, `.` and `..` resolved, or `nil` when it does
    /// not exist.
    static func realPath(_ path: String) -> String? {
        guard let resolved = Glue.realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Whether the path names a directory, or `nil` when `stat(2)` fails.
    private static func isDirectory(_ path: String) -> Bool? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return (info.st_mode & S_IFMT) == S_IFDIR
    }
}

/// The C library functions whose Swift names clash with members of the types that call them.
enum Glue {
    static func open(_ path: String, _ flags: Int32) -> Int32 {
        #if canImport(Darwin)
        Darwin.open(path, flags)
        #elseif canImport(Glibc)
        Glibc.open(path, flags)
        #else
        Musl.open(path, flags)
        #endif
    }

    static func close(_ descriptor: Int32) -> Int32 {
        #if canImport(Darwin)
        Darwin.close(descriptor)
        #elseif canImport(Glibc)
        Glibc.close(descriptor)
        #else
        Musl.close(descriptor)
        #endif
    }

    static func realpath(_ path: String, _ resolved: UnsafeMutablePointer<CChar>?) -> UnsafeMutablePointer<CChar>? {
        #if canImport(Darwin)
        Darwin.realpath(path, resolved)
        #elseif canImport(Glibc)
        Glibc.realpath(path, resolved)
        #else
        Musl.realpath(path, resolved)
        #endif
    }
}
