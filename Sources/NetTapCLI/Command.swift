import Foundation
import NetTapConfiguration
import NetTapCore

/// One `nettap` command: a description for parsing and help, and the work itself.
///
/// ## Implementation requirements
/// - ``spec`` describes every option; the parser rejects anything else before ``init(arguments:)`` runs.
/// - ``init(arguments:)`` checks the values that need no I/O (a URL's shape, a header's form) and throws a
///   usage ``CLIError`` naming the argument.
/// - ``run(in:)`` writes results to ``CommandEnvironment/standardOutput``, never to the process's handles,
///   and reports a failure by throwing ``CLIError`` (printed as one line on standard error).
package protocol Command: Sendable {
    /// The command's name, options and help.
    static var spec: CommandSpec { get }

    /// Creates the command from parsed arguments.
    ///
    /// - Parameter arguments: The result of parsing with ``spec``.
    /// - Throws: ``CLIError`` with exit code 2 when a value is malformed.
    init(arguments: ParsedArguments) throws(CLIError)

    /// Does the work.
    ///
    /// - Parameter environment: Where to write and which interceptor to use.
    /// - Returns: The exit code.
    /// - Throws: ``CLIError`` when the work fails; its ``CLIError/exitCode`` becomes the exit code.
    func run(in environment: CommandEnvironment) async throws(CLIError) -> ExitCode

    /// What the tool does with `--config FILE` before ``run(in:)``; ``ConfigurationUse/read`` by default.
    ///
    /// Only commands that send requests (`fetch`, `demo`) say ``ConfigurationUse/apply``: applying opens the
    /// store, creates the cache folder and records the cassette.
    static var configurationUse: ConfigurationUse { get }
}

extension Command {
    /// ``ConfigurationUse/read``: `--config FILE` is read, not applied, so the command changes no file.
    package static var configurationUse: ConfigurationUse { .read }
}

/// What the tool does with a command's `--config FILE`.
package enum ConfigurationUse: Sendable, Hashable {
    /// Nothing: the command reads the file itself (`config check`).
    case none
    /// Read it without side effects (no cache folder, store or cassette is created or opened) into
    /// ``CommandEnvironment/configuration``; the command uses what it needs (its redaction). Its first error
    /// fails the command.
    case read
    /// Read it and apply it to the interceptor (`NetTapConfiguration.apply(to:)`: scope, capture, handlers,
    /// store), then flush the cassette and store after the command: for commands that send requests.
    case apply
}

/// What a command runs with: its outputs, the interceptor it installs into sessions, and the directory that
/// relative paths are resolved against.
package struct CommandEnvironment: Sendable {
    /// Where results go.
    package var standardOutput: CommandOutput
    /// Where diagnostics and error lines go.
    package var standardError: CommandOutput
    /// The interceptor whose pipeline and capture log the command uses; `NetTapInterceptor/shared` in the tool.
    package var interceptor: NetTapInterceptor
    /// The directory relative file paths are resolved against.
    package var workingDirectory: URL
    /// The `--config FILE` applied to ``interceptor`` before the command runs (commands whose
    /// ``Command/configurationUse`` is ``ConfigurationUse/apply``), or `nil`.
    package var appliedConfiguration: AppliedConfiguration?
    /// The `--config FILE` as read (applied or not), or `nil` without `--config`.
    package var configuration: NetTapConfiguration?

    /// What output is redacted with: the `--config` file's redactor (its `redaction` section, else
    /// `Redactor.default`), or `nil` without `--config`.
    package var configuredRedactor: Redactor? { (configuration ?? appliedConfiguration?.configuration)?.redactor }

    /// Creates an environment.
    ///
    /// - Parameters:
    ///   - standardOutput: Where results go.
    ///   - standardError: Where diagnostics go.
    ///   - interceptor: The interceptor to use; `NetTapInterceptor/shared` by default.
    ///   - workingDirectory: The base of relative paths; the process's current directory by default.
    package init(
        standardOutput: CommandOutput,
        standardError: CommandOutput,
        interceptor: NetTapInterceptor = .shared,
        workingDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
    ) {
        self.standardOutput = standardOutput
        self.standardError = standardError
        self.interceptor = interceptor
        self.workingDirectory = workingDirectory
    }

    /// Resolves a path typed by the user: absolute paths stay, relative ones start at ``workingDirectory``.
    ///
    /// - Parameter path: The path as typed.
    /// - Returns: A file URL.
    package func fileURL(_ path: String) -> URL {
        let expanded = (path as NSString).expandingTildeInPath
        if expanded.hasPrefix("/") { return URL(fileURLWithPath: expanded) }
        return workingDirectory.appendingPathComponent(expanded)
    }
}
