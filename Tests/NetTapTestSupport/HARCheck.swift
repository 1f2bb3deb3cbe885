import Foundation

/// Runs the independent HAR checker (`../shared/tools/har-check/har_check.py`) when its venv is set up.
///
/// The venv is `$HAR_CHECK_VENV` or `~/.cache/har-check-venv` (made by `setup.sh`); the script is
/// `$HAR_CHECK_SCRIPT` (or `$HAR_CHECK`, as `scripts/test` sets it) or found beside the repository.
public enum HARCheck {
    /// The venv's Python, when set up.
    public static var python: URL? {
        let environment = ProcessInfo.processInfo.environment
        let venv =
            environment["HAR_CHECK_VENV"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache/har-check-venv")
        let python = venv.appendingPathComponent("bin/python")
        return FileManager.default.isExecutableFile(atPath: python.path) ? python : nil
    }

    /// The checker script, when found.
    public static var script: URL? {
        let environment = ProcessInfo.processInfo.environment
        if let path = environment["HAR_CHECK_SCRIPT"] ?? environment["HAR_CHECK"] {
            return URL(fileURLWithPath: path)
        }
        // Tests/NetTapTestSupport/HARCheck.swift → repository → its parent holds shared/.
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let script = repository.deletingLastPathComponent().appendingPathComponent(
            "shared/tools/har-check/har_check.py"
        )
        return FileManager.default.fileExists(atPath: script.path) ? script : nil
    }

    /// Whether the checker can run.
    public static var isAvailable: Bool { python != nil && script != nil }

    /// Runs the checker and returns its exit status and output.
    ///
    /// - Parameter arguments: The checker's arguments, for example `["--strict", path]`.
    /// - Returns: The exit status (−1 when not set up) and the combined output.
    /// - Throws: What `Process.run()` throws.
    public static func run(_ arguments: [String]) async throws -> (status: Int32, output: String) {
        guard let python, let script else { return (-1, "har-check is not set up") }
        return try await offThePool { try run(python: python, script: script, arguments) }
    }

    /// Runs the checker on the calling thread, which it blocks until the checker exits.
    private static func run(python: URL, script: URL, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let result = try ToolCommand(executable: python).run([script.path] + arguments)
        return (result.status, result.output)
    }
}
