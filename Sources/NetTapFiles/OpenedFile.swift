import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A regular file opened for reading, with the metadata taken from its open descriptor (`fstat(2)`), so the
/// size, dates and tag describe exactly the bytes that will be read.
///
/// Thread safety: the handle is read by one body producer at a time.
final class OpenedFile: @unchecked Sendable {
    /// The file handle; closed when this object goes away.
    let handle: FileHandle
    /// The real path, for messages.
    let path: String
    /// The path below the mount's directory, `/`-separated, for example `img/a.png`.
    let relativePath: String
    /// The size in bytes.
    let size: Int64
    /// The modification time: whole seconds since 1970 and the nanoseconds within the second.
    let modified: (seconds: Int64, nanoseconds: Int64)
    /// The device and inode numbers.
    let identity: (device: UInt64, inode: UInt64)

    /// Takes ownership of `descriptor`; `nil` (descriptor left open) when it is not a regular file.
    init?(descriptor: Int32, path: String, relativePath: String) {
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        self.handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        self.path = path
        self.relativePath = relativePath
        self.size = Int64(info.st_size)
        #if canImport(Darwin)
        self.modified = (Int64(info.st_mtimespec.tv_sec), Int64(info.st_mtimespec.tv_nsec))
        #else
        self.modified = (Int64(info.st_mtim.tv_sec), Int64(info.st_mtim.tv_nsec))
        #endif
        self.identity = (UInt64(truncatingIfNeeded: info.st_dev), UInt64(truncatingIfNeeded: info.st_ino))
    }

    /// The modification time to whole seconds, the precision of an HTTP date.
    var lastModified: Date { Date(timeIntervalSince1970: TimeInterval(modified.seconds)) }

    /// A strong entity tag (RFC 9110 §8.8.3) that changes whenever the file's content may have: size,
    /// modification time to the nanosecond, device and inode, in hexadecimal, for example
    /// `"1a2b-5f3e1c2a.1d4c-803-2b1f"`.
    var entityTag: EntityTag {
        let parts = [
            String(size, radix: 16),
            String(modified.seconds, radix: 16) + "." + String(modified.nanoseconds, radix: 16),
            String(identity.device, radix: 16),
            String(identity.inode, radix: 16),
        ]
        return EntityTag(opaque: parts.joined(separator: "-"), isWeak: false)
    }
}
