import Foundation
import NetTapConfiguration
import NetTapCore
import NetTapRewrite

/// `nettap config check FILE`: validates a `nettap.json` and prints every error with its JSON path.
///
/// Every error is found (`NetTapConfiguration.check(contentsOf:)`), so one mistake does not hide the next: the
/// output has one line per error in document order, `FILE: $.path: message` (unknown keys with a did-you-mean
/// suggestion), `FILE:line:column: message` for invalid JSON (trailing commas included), or `FILE: no such file`.
/// A valid file prints `FILE: ok (sections: mocks, shaping)`, then its rewrite rules when it has a `rewrite` section.
/// Checking creates and changes no file.
///
/// Exit codes: 0 valid, 1 invalid or unreadable (the lines say why), 2 usage error.
package struct ConfigCheckCommand: Command {
    /// The command's description.
    package static let spec = CommandSpec(
        name: "config check",
        summary: "Validates a nettap.json and prints every error with its JSON path.",
        positionals: [
            PositionalSpec(
                name: "FILE",
                help: "The nettap.json to check; the --config file when left out.",
                isOptional: true
            )
        ],
        discussion: """
            Every error is printed, one line each in document order, as FILE: $.path: message (unknown
            keys with a did-you-mean suggestion; FILE:line:column: message for invalid JSON, trailing commas
            included). Paths in the file resolve against its folder; checking creates and changes no file
            (no cache folder, store or cassette). The keys are documented by schema/nettap.schema.json. A
            stand-alone mocks file (stubs or scenarios at its top level, no mocks section) is checked as the
            mocks section it holds.

            Exit codes: 0 valid, 1 invalid or unreadable file, 2 usage error.
            """
    )

    /// ``ConfigurationUse/none``: the command reads the file itself, collecting every error.
    package static var configurationUse: ConfigurationUse { .none }

    /// The file, as typed.
    package var path: String

    /// Creates the command from parsed arguments.
    ///
    /// - Parameter arguments: Parsed with ``spec``.
    /// - Throws: A usage ``CLIError`` when neither `FILE` nor `--config FILE` is given, or both name different
    ///   files.
    package init(arguments: ParsedArguments) throws(CLIError) {
        let positional = arguments.positionals.first
        let option = arguments.value(CommandSpec.configOption.key)
        if let positional, let option, positional != option {
            throw CLIError.usage(
                command: Self.spec.name,
                input: "--config \(Formatting.quoted(option))",
                message: "names another file than FILE; give one"
            )
        }
        guard let path = positional ?? option else {
            throw CLIError.usage(command: Self.spec.name, input: "FILE", message: "missing argument")
        }
        self.path = path
    }

    /// Checks the file and prints the result.
    ///
    /// - Parameter environment: Outputs and working directory.
    /// - Returns: ``ExitCode/success`` when valid, ``ExitCode/failure`` otherwise.
    /// - Throws: Nothing: an unreadable file is reported as an error line.
    package func run(in environment: CommandEnvironment) async throws(CLIError) -> ExitCode {
        let url = environment.fileURL(path)
        let check = NetTapConfiguration.check(contentsOf: url)
        environment.standardOutput.write(Self.text(check, file: path, fileName: url.lastPathComponent))
        return check.isValid ? .success : .failure
    }

    /// The lines printed for a check.
    ///
    /// - Parameters:
    ///   - check: The result.
    ///   - file: The file as typed, naming it in each line.
    ///   - fileName: The file's last path component, as errors name it (errors in other files, such as an
    ///     integrity manifest, keep their own name).
    /// - Returns: One line per error, or the `ok` line; each ends with a newline.
    package static func text(_ check: ConfigurationCheck, file: String, fileName: String) -> String {
        guard !check.isValid else {
            let sections = check.sections.isEmpty ? "none" : check.sections.joined(separator: ", ")
            let rewrite = check.configuration?.rewrite.map { RewriteRulesText.text($0.rules) } ?? ""
            return "\(file): ok (sections: \(sections))\n" + rewrite
        }
        return check.errors.map { error in
            var named = error
            if named.source == fileName { named.source = file }
            return named.description.replacingOccurrences(of: "\n", with: " ") + "\n"
        }.joined()
    }
}
