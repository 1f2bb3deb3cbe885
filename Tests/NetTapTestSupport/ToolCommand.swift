import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A command-line tool run to completion by the test support (`openssl`, `nginx -t`, `update-ca-certificates`).
///
/// Thread safety: the value is immutable; ``run(_:)`` may be called from any thread.
public struct ToolCommand: Sendable {
    /// What a run printed and how it ended.
    public struct Result: Sendable {
        /// The exit status.
        public var status: Int32
        /// Standard output and standard error, interleaved as written.
        public var output: String
    }

    /// The executable.
    public let executable: URL

    /// A tool at a known place.
    public init(executable: URL) {
        self.executable = executable
    }

    /// Finds `name` on the `PATH`, then in `extraFolders` (such as `/usr/sbin`, which a non-root `PATH` may lack).
    ///
    /// - Parameters:
    ///   - name: The executable's file name, such as `nginx`.
    ///   - extraFolders: Folders searched after the `PATH`.
    /// - Returns: The tool, or `nil` when no executable file of that name was found.
    static func locate(_ name: String, extraFolders: [String] = ["/usr/sbin", "/sbin", "/usr/bin"]) -> ToolCommand? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let folders = path.split(separator: ":").map(String.init) + extraFolders
        for folder in folders where !folder.isEmpty {
            let candidate = URL(fileURLWithPath: folder).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) {
                return ToolCommand(executable: candidate)
            }
        }
        return nil
    }

    /// Runs the tool with `arguments` and waits for it to exit.
    ///
    /// - Parameter arguments: The arguments.
    /// - Returns: The exit status and the combined output.
    /// - Throws: What `Process.run()` throws when the tool cannot be started.
    public func run(_ arguments: [String]) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        let pipe = Pipe()
        // Only the tool may hold the write end: a copy in another child would keep the read below from ending.
        _ = fcntl(pipe.fileHandleForWriting.fileDescriptor, F_SETFD, FD_CLOEXEC)
        _ = fcntl(pipe.fileHandleForReading.fileDescriptor, F_SETFD, FD_CLOEXEC)
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, output: String(decoding: output, as: UTF8.self))
    }

    /// The command line as one string, for error messages.
    ///
    /// - Parameter arguments: The arguments.
    /// - Returns: Such as `/usr/bin/openssl verify -CAfile ca.crt server.crt`.
    func commandLine(_ arguments: [String]) -> String {
        ([executable.path] + arguments).joined(separator: " ")
    }
}
