import Foundation

/// A failure of a `nettap` command, printed as one line on standard error and turned into an exit code.
///
/// The line names the command and the input at fault:
/// `nettap: fetch: -H "Foo": header must look like 'Name: value'`.
package struct CLIError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The command that failed (`fetch`, `report`, …), or `nil` for the top level.
    package var command: String?
    /// The input at fault (an argument, a file, a URL), or `nil` when there is none.
    package var input: String?
    /// What went wrong, in one line.
    package var message: String
    /// The exit code: ``ExitCode/usage`` for bad arguments, ``ExitCode/failure`` otherwise.
    package var exitCode: ExitCode

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - command: The failing command, or `nil`.
    ///   - input: The input at fault, or `nil`.
    ///   - message: One line saying what went wrong.
    ///   - exitCode: The exit code.
    package init(command: String?, input: String?, message: String, exitCode: ExitCode) {
        self.command = command
        self.input = input
        self.message = message
        self.exitCode = exitCode
    }

    /// A usage error (exit code 2): the arguments are wrong.
    ///
    /// - Parameters:
    ///   - command: The command, or `nil` for the top level.
    ///   - input: The argument at fault.
    ///   - message: What is wrong with it.
    /// - Returns: The error.
    package static func usage(command: String?, input: String?, message: String) -> CLIError {
        CLIError(command: command, input: input, message: message, exitCode: .usage)
    }

    /// A failure (exit code 1): the arguments were fine but the work failed.
    ///
    /// - Parameters:
    ///   - command: The command.
    ///   - input: The input at fault (a file, a URL), or `nil`.
    ///   - message: What went wrong.
    /// - Returns: The error.
    package static func failure(command: String?, input: String?, message: String) -> CLIError {
        CLIError(command: command, input: input, message: message, exitCode: .failure)
    }

    /// The one line printed on standard error (without a newline), every line break replaced by a space.
    package var description: String {
        let parts = ["nettap"] + [command, input].compactMap { $0 } + [message]
        return parts.joined(separator: ": ")
            .replacingOccurrences(of: "\r\n", with: " ")
            .replacingOccurrences(of: "\n", with: " ")
    }
}

extension CLIError: LocalizedError {
    /// The same text as `description`, so `localizedDescription` (what apps and test reports show) names
    /// the input and the place too.
    package var errorDescription: String? { description }
}
