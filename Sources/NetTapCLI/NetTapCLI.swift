import Foundation
import NetTapCore

/// The `nettap` command-line tool as a library: parses the command line, runs a command, returns the exit code.
///
/// ```swift
/// // Sources/nettap/main.swift
/// exit(await NetTapCLI.main(arguments: CommandLine.arguments.dropFirst(),
///                           stdout: .standardOutput, stderr: .standardError))
/// ```
///
/// Exit codes: 0 success, 1 failure (network error, unreadable file), 2 usage error. Errors are one line
/// on standard error naming the command and the input at fault.
public enum NetTapCLI {
    /// The tool's version, printed by `nettap --version`.
    public static let version = "0.1.0"

    /// The commands, in the order `nettap --help` lists them.
    public static let commands: [any Command.Type] = [DemoCommand.self, FetchCommand.self, ReportCommand.self]

    /// Runs the tool with the process's interceptor (`Interceptor/shared`) and working directory.
    ///
    /// - Parameters:
    ///   - arguments: The arguments after the program name.
    ///   - stdout: Where results go.
    ///   - stderr: Where diagnostics and the error line go.
    /// - Returns: The exit code: 0, 1 or 2.
    public static func main<Arguments: Sequence<String>>(
        arguments: Arguments,
        stdout: CommandOutput,
        stderr: CommandOutput
    ) async -> Int32 {
        await run(arguments: arguments, in: CommandEnvironment(standardOutput: stdout, standardError: stderr)).rawValue
    }

    /// Runs the tool in a given environment (tests pass their own interceptor and buffers).
    ///
    /// - Parameters:
    ///   - arguments: The arguments after the program name.
    ///   - environment: Outputs, interceptor and working directory.
    /// - Returns: The exit code.
    public static func run<Arguments: Sequence<String>>(
        arguments: Arguments,
        in environment: CommandEnvironment
    ) async -> ExitCode {
        do {
            return try await dispatch(Array(arguments), in: environment)
        } catch {
            environment.standardError.write(error.description + "\n")
            return error.exitCode
        }
    }

    /// The top-level help: usage, commands and exit codes.
    public static var helpText: String {
        let width = (commands.map { $0.spec.name.count } + [4]).max() ?? 4
        var lines = [
            "nettap \(version): see, record and replay URLSession traffic through NetTap.",
            "",
            "Usage: nettap COMMAND [ARGUMENTS...]",
            "       nettap help COMMAND | --help | --version",
            "",
            "Commands:",
        ]
        for command in commands {
            lines.append(
                "  " + command.spec.name.padding(toLength: width + 2, withPad: " ", startingAt: 0)
                    + command.spec.summary
            )
        }
        lines.append(
            "  " + "help".padding(toLength: width + 2, withPad: " ", startingAt: 0) + "Shows help for a command."
        )
        lines += [
            "",
            "Exit codes: 0 success, 1 failure, 2 usage error.",
            "Run 'nettap help COMMAND' for a command's options.",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    private static func dispatch(
        _ arguments: [String],
        in environment: CommandEnvironment
    ) async throws(CLIError) -> ExitCode {
        guard let first = arguments.first else {
            environment.standardError.write(helpText)
            return .usage
        }
        switch first {
        case "-h", "--help":
            environment.standardOutput.write(helpText)
            return .success
        case "--version", "-V":
            environment.standardOutput.write("nettap \(version)\n")
            return .success
        case "help":
            guard arguments.count <= 2 else {
                throw CLIError.usage(command: "help", input: arguments[2], message: "unexpected argument")
            }
            guard arguments.count == 2 else {
                environment.standardOutput.write(helpText)
                return .success
            }
            let type = try command(named: arguments[1], context: "help")
            environment.standardOutput.write(type.spec.helpText)
            return .success
        default:
            let type = try command(named: first, context: nil)
            let parsed = try type.spec.parse(arguments.dropFirst())
            if parsed.isHelpRequested {
                environment.standardOutput.write(type.spec.helpText)
                return .success
            }
            let command = try type.init(arguments: parsed)
            return try await command.run(in: environment)
        }
    }

    private static func command(named name: String, context: String?) throws(CLIError) -> any Command.Type {
        if let type = commands.first(where: { $0.spec.name == name }) {
            return type
        }
        let names = (commands.map { $0.spec.name } + ["help"]).joined(separator: ", ")
        let what = name.hasPrefix("-") ? "unknown option" : "unknown command"
        throw CLIError.usage(
            command: context,
            input: name,
            message: "\(what); commands are \(names) (see 'nettap --help')"
        )
    }
}
