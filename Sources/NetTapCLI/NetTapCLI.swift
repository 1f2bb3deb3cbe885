import Foundation
import NetTapConfiguration
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
///
/// Every command accepts `--config FILE` (`CommandSpec.configOption`); what happens to it depends on the
/// command's `Command.configurationUse`:
///
/// | Commands | Sections used | Side effects |
/// |---|---|---|
/// | `fetch`, `demo` | all: applied to the interceptor (`NetTapConfiguration.apply(to:)`) | store opened, cache folder created, cassette recorded (flushed after the command) |
/// | `report`, `stats`, `query`, `mock save`, `mock list` | `redaction` (`CommandEnvironment.configuredRedactor`) | none: the file is only read |
/// | `config check` | all, validated | none |
///
/// The file's first error fails the command with exit code 1. Commands find it in
/// `CommandEnvironment.configuration` (and `CommandEnvironment.appliedConfiguration` when applied).
public enum NetTapCLI {
    /// The tool's version, printed by `nettap --version`.
    package static let version = "0.1.0"

    /// What `nettap --version` prints: the version, then what this build forwards with.
    static var versionText: String {
        #if os(Linux)
        let platform = "Linux"
        #elseif os(macOS)
        let platform = "macOS"
        #else
        let platform = "this platform"
        #endif
        let transport =
            CurlTransport.libraryVersion.map { "forwarding through \($0), the libcurl FoundationNetworking loads" }
            ?? "forwarding through URLSession"
        return "nettap \(version)\nNetTap \(version) on \(platform), \(transport)\n"
    }

    /// The commands, in the order `nettap --help` lists them.
    ///
    /// A command whose name has two words (`mock save`) belongs to a group (`mock`): `nettap mock` and
    /// `nettap help mock` list the group's commands.
    package static let commands: [any Command.Type] = [
        DemoCommand.self, FetchCommand.self, ReportCommand.self, StatsCommand.self, QueryCommand.self,
        InspectCommand.self,
        MockSaveCommand.self, MockListCommand.self, ConfigCheckCommand.self,
    ]

    /// One line about each command group, shown by `nettap help GROUP`.
    static let groupSummaries = [
        "mock": "Saves HAR entries as stubs in a mocks file and lists mocks files.",
        "config": "Checks nettap.json configuration files.",
    ]

    /// Runs the tool with the process's interceptor (`NetTapInterceptor/shared`) and working directory.
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
        // The tool exists to run NetTap: the release-build gate protects apps that ship with NetTap linked, not
        // `nettap` built in release mode to go on a PATH.
        NetTapInterceptor.isEnabledInReleaseBuilds = true
        let environment = CommandEnvironment(standardOutput: stdout, standardError: stderr)
        // Progress bars only when standard error is a terminal (never in tests, pipes or files).
        return await ProgressBar.$isStandardErrorTerminal.withValue(ProgressBar.processStandardErrorIsTerminal) {
            await run(arguments: arguments, in: environment).rawValue
        }
    }

    /// Runs the tool in a given environment (tests pass their own interceptor and buffers).
    ///
    /// - Parameters:
    ///   - arguments: The arguments after the program name.
    ///   - environment: Outputs, interceptor and working directory.
    /// - Returns: The exit code.
    package static func run<Arguments: Sequence<String>>(
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
    package static var helpText: String {
        let width = (commands.map { $0.spec.name.count } + [4]).max() ?? 4
        var lines = [
            "nettap \(version): see, record, mock, replay and shape URLSession traffic through NetTap.",
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
            "Every command accepts --config FILE, a nettap.json: fetch and demo apply all of it (store, cache,",
            "cassette included); report, stats, query and mock only read its redaction and change no file.",
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
            environment.standardOutput.write(versionText)
            return .success
        case "help":
            return try help(arguments.dropFirst(), in: environment)
        default:
            switch try command(in: arguments[...], context: nil) {
            case .group(let group):
                return try groupWithoutCommand(group, next: arguments.dropFirst().first, in: environment)
            case .command(let type, let wordCount):
                let parsed = try type.spec.parse(arguments.dropFirst(wordCount))
                if parsed.isHelpRequested {
                    environment.standardOutput.write(type.spec.helpText)
                    return .success
                }
                return try await runCommand(type, parsed: parsed, in: environment)
            }
        }
    }

    /// `nettap help [COMMAND]`: the top-level help, or the help of the command or group `words` name.
    private static func help(
        _ words: ArraySlice<String>,
        in environment: CommandEnvironment
    ) throws(CLIError) -> ExitCode {
        guard !words.isEmpty else {
            environment.standardOutput.write(helpText)
            return .success
        }
        switch try command(in: words, context: "help") {
        case .command(let type, let wordCount):
            if let extra = words.dropFirst(wordCount).first {
                throw CLIError.usage(command: "help", input: extra, message: "unexpected argument")
            }
            environment.standardOutput.write(type.spec.helpText)
        case .group(let group):
            if let extra = words.dropFirst().first {
                throw unknownGroupCommand(extra, in: group, context: "help")
            }
            environment.standardOutput.write(groupHelpText(group))
        }
        return .success
    }

    /// A group's name followed by `next`, which is no command of it: the group's help for none (a usage error) or
    /// `--help`, else an error naming the word.
    private static func groupWithoutCommand(
        _ group: String,
        next: String?,
        in environment: CommandEnvironment
    ) throws(CLIError) -> ExitCode {
        guard let next else {
            environment.standardError.write(groupHelpText(group))
            return .usage
        }
        if next == "-h" || next == "--help" {
            environment.standardOutput.write(groupHelpText(group))
            return .success
        }
        throw unknownGroupCommand(next, in: group, context: nil)
    }

    /// Makes the command and runs it, with `--config FILE` read or applied as the command's
    /// ``Command/configurationUse`` says (an applied configuration's cassette and store are flushed after it).
    private static func runCommand(
        _ type: any Command.Type,
        parsed: ParsedArguments,
        in environment: CommandEnvironment
    ) async throws(CLIError) -> ExitCode {
        let command = try type.init(arguments: parsed)
        guard type.configurationUse != .none, let path = parsed.value(CommandSpec.configOption.key) else {
            return try await command.run(in: environment)
        }
        var configured = environment
        guard type.configurationUse == .apply else {
            configured.configuration = try readConfiguration(path, command: type.spec.name, in: environment)
            return try await command.run(in: configured)
        }
        let applied = try applyConfiguration(path, command: type.spec.name, in: environment)
        configured.appliedConfiguration = applied
        configured.configuration = applied.configuration
        let code = try await command.run(in: configured)
        do {
            try await applied.flush()
        } catch {
            throw CLIError.failure(
                command: type.spec.name,
                input: "--config \(Formatting.quoted(path))",
                message: "cannot write the cassette or store: \(error)"
            )
        }
        return code
    }

    /// Reads `--config FILE` without side effects (no cache folder is created, no store opened).
    private static func readConfiguration(
        _ path: String,
        command: String,
        in environment: CommandEnvironment
    ) throws(CLIError) -> NetTapConfiguration {
        do {
            return try NetTapConfiguration.load(contentsOf: environment.fileURL(path), opensCache: false)
        } catch let error as ConfigurationError {
            throw CLIError.failure(command: command, input: nil, message: error.description)
        } catch {
            throw CLIError.failure(command: command, input: "--config \(Formatting.quoted(path))", message: "\(error)")
        }
    }

    /// Loads `--config FILE` and applies it to the environment's interceptor.
    private static func applyConfiguration(
        _ path: String,
        command: String,
        in environment: CommandEnvironment
    ) throws(CLIError) -> AppliedConfiguration {
        do {
            let configuration = try NetTapConfiguration.load(contentsOf: environment.fileURL(path))
            return try configuration.apply(to: environment.interceptor)
        } catch let error as ConfigurationError {
            throw CLIError.failure(command: command, input: nil, message: error.description)
        } catch {
            throw CLIError.failure(command: command, input: "--config \(Formatting.quoted(path))", message: "\(error)")
        }
    }

    /// What the leading words of a command line name.
    private enum Resolved {
        /// A command, named by `wordCount` words.
        case command(any Command.Type, wordCount: Int)
        /// A group name without (a known) second word.
        case group(String)
    }

    /// The names `nettap --help` offers as first words: single commands and groups, in order, then `help`.
    private static var firstWords: [String] {
        var words: [String] = []
        for command in commands {
            let word = String(command.spec.name.split(separator: " ").first ?? "")
            if !words.contains(word) { words.append(word) }
        }
        return words + ["help"]
    }

    private static func command(in words: ArraySlice<String>, context: String?) throws(CLIError) -> Resolved {
        let name = words.first ?? ""
        if let type = commands.first(where: { $0.spec.name == name }) {
            return .command(type, wordCount: 1)
        }
        if commands.contains(where: { $0.spec.name.hasPrefix(name + " ") }) {
            if let second = words.dropFirst().first,
                let type = commands.first(where: { $0.spec.name == name + " " + second })
            {
                return .command(type, wordCount: 2)
            }
            return .group(name)
        }
        let what = name.hasPrefix("-") ? "unknown option" : "unknown command"
        let hint = suggestion(for: name, among: firstWords + commands.map { $0.spec.name })
        throw CLIError.usage(
            command: context,
            input: name,
            message: "\(what); \(hint)commands are \(firstWords.joined(separator: ", ")) (see 'nettap --help')"
        )
    }

    private static func groupCommands(_ group: String) -> [any Command.Type] {
        commands.filter { $0.spec.name.hasPrefix(group + " ") }
    }

    private static func unknownGroupCommand(_ word: String, in group: String, context: String?) -> CLIError {
        let names = groupCommands(group).map { String($0.spec.name.dropFirst(group.count + 1)) }
        let what = word.hasPrefix("-") ? "unknown option" : "unknown command"
        return CLIError.usage(
            command: [context, group].compactMap { $0 }.joined(separator: ": "),
            input: word,
            message:
                "\(what); \(suggestion(for: word, among: names))\(group) commands are \(names.joined(separator: ", ")) (see 'nettap help \(group)')"
        )
    }

    /// `did you mean "query"? ` when one name is close to a mistyped word (the suggestion configuration keys
    /// use), else an empty string.
    private static func suggestion(for word: String, among names: [String]) -> String {
        guard !word.hasPrefix("-"), let name = ConfigNode.suggestion(for: word, among: Set(names)) else { return "" }
        return "did you mean \"\(name)\"? "
    }

    /// The help of a command group: its summary and each command's usage and summary.
    ///
    /// - Parameter group: The group's name, for example `mock`.
    /// - Returns: Lines ending with a newline.
    static func groupHelpText(_ group: String) -> String {
        let members = groupCommands(group)
        let width = members.map { $0.spec.name.count }.max() ?? 0
        var lines = ["nettap \(group): \(groupSummaries[group] ?? "")", "", "Usage:"]
        lines += members.map { "  " + $0.spec.usage }
        lines += ["", "Commands:"]
        lines += members.map {
            "  " + $0.spec.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + $0.spec.summary
        }
        lines += ["", "Run 'nettap help \(group) COMMAND' for a command's options."]
        return lines.joined(separator: "\n") + "\n"
    }
}
