import Foundation
import NetTapTestSupport
import Testing

@testable import NetTapFiles

#if canImport(Glibc)
import Glibc
#endif

@Suite("Path resolution never leaves the mount's directory")
struct SafeFileLocatorTests {
    /// A mount folder `root` with `inside.txt`, `sub/deep.txt`, and `secret.txt` next to it (outside).
    private static func layout() throws -> (folder: TemporaryFolder, root: URL) {
        let folder = try TemporaryFolder()
        let root = try folder.folder("root")
        try folder.write("inside", to: "root/inside.txt")
        try folder.write("deep", to: "root/sub/deep.txt")
        try folder.write("SECRET", to: "secret.txt")
        return (folder, root)
    }

    private static func segments(_ path: String) -> [Substring] {
        path.split(separator: "/", omittingEmptySubsequences: false)
    }

    @Test(
        "raw segment lists that try to escape or smuggle separators are refused",
        arguments: [
            "../secret.txt", "sub/../../secret.txt", "%2e%2e/secret.txt", "%2E%2E/secret.txt", ".%2e/secret.txt",
            "..%2fsecret.txt", "..%2Fsecret.txt", "sub%2f..%2f..%2fsecret.txt", "..%5csecret.txt", "..\\secret.txt",
            "%5c..%5csecret.txt", "inside.txt%00.png", "%00", "%C0%AE%C0%AE/secret.txt", "%C0%AFsecret.txt",
            "%E0%80%AE%E0%80%AE/secret.txt", "%FF", "%zz", "/etc/passwd", "sub//deep.txt", "./inside.txt",
            "sub/./deep.txt", "%252e%252e/secret.txt",
        ]
    )
    func refuses(path: String) throws {
        let (folder, root) = try Self.layout()
        _ = folder
        guard case .notFound = SafeFileLocator.locate(Self.segments(path), in: root) else {
            Issue.record("\(path) was not refused")
            return
        }
    }

    @Test("plain, nested and percent-encoded names inside the mount resolve to their file")
    func resolves() throws {
        let (folder, root) = try Self.layout()
        try folder.write("spaced", to: "root/my file.txt")
        for (path, relative) in [
            ("inside.txt", "inside.txt"), ("sub/deep.txt", "sub/deep.txt"), ("my%20file.txt", "my file.txt"),
            ("%73ub/deep.txt", "sub/deep.txt"),
        ] {
            guard case .file(let file) = SafeFileLocator.locate(Self.segments(path), in: root) else {
                Issue.record("\(path) did not resolve")
                continue
            }
            #expect(file.relativePath == relative)
        }
    }

    @Test("a symbolic link inside the mount is followed, one leading outside is refused")
    func symbolicLinks() throws {
        let (folder, root) = try Self.layout()
        let manager = FileManager.default
        try manager.createSymbolicLink(
            atPath: root.appendingPathComponent("alias.txt").path,
            withDestinationPath: "sub/deep.txt"
        )
        try manager.createSymbolicLink(
            atPath: root.appendingPathComponent("escape.txt").path,
            withDestinationPath: folder.url.appendingPathComponent("secret.txt").path
        )
        try manager.createSymbolicLink(atPath: root.appendingPathComponent("up").path, withDestinationPath: "..")
        guard case .file(let file) = SafeFileLocator.locate(["alias.txt"], in: root) else {
            Issue.record("the inside link did not resolve")
            return
        }
        #expect(try file.handle.readToEnd() == Data("deep".utf8))
        // Out through a link and back in: the real path is inside, so it is the mount's own file.
        guard case .file(let roundTrip) = SafeFileLocator.locate(Self.segments("up/root/inside.txt"), in: root) else {
            Issue.record("a link that resolves back inside was refused")
            return
        }
        #expect(try roundTrip.handle.readToEnd() == Data("inside".utf8))
        for path in ["escape.txt", "up/secret.txt", "up/root/../secret.txt"] {
            guard case .notFound = SafeFileLocator.locate(Self.segments(path), in: root) else {
                Issue.record("\(path) was not refused")
                continue
            }
        }
    }

    @Test("a FIFO in the mount is refused at once, not opened until a writer comes")
    func fifoIsRefused() throws {
        let (folder, root) = try Self.layout()
        defer { folder.remove() }
        let fifo = root.appendingPathComponent("pipe.js").path
        #expect(mkfifo(fifo, 0o600) == 0, "mkfifo: errno \(errno)")
        // Without O_NONBLOCK this call would block forever (no writer ever opens the FIFO).
        guard case .notFound(let reason) = SafeFileLocator.locate(["pipe.js"], in: root) else {
            Issue.record("the FIFO was not refused")
            return
        }
        #expect(reason == "not a regular file")
    }

    @Test("a directory is its index.html with a trailing slash and a redirect marker without")
    func directories() throws {
        let (folder, root) = try Self.layout()
        try folder.write("<h1>docs</h1>", to: "root/docs/index.html")
        guard case .file(let index) = SafeFileLocator.locate(["docs", ""], in: root) else {
            Issue.record("docs/ did not serve its index")
            return
        }
        #expect(index.relativePath == "docs/index.html")
        guard case .directoryWithoutSlash = SafeFileLocator.locate(["docs"], in: root) else {
            Issue.record("docs did not ask for a redirect")
            return
        }
        guard case .notFound = SafeFileLocator.locate(["sub", ""], in: root) else {
            Issue.record("a directory without index.html was served")
            return
        }
        guard case .notFound = SafeFileLocator.locate(["inside.txt", ""], in: root) else {
            Issue.record("a file with a trailing slash was served")
            return
        }
    }
}
