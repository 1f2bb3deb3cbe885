import Foundation
import NetTapCore

/// The description of one option a command accepts: its names, whether it takes a value, and its help text.
///
/// ```swift
/// let header = OptionSpec(names: ["-H", "--header"], valueName: "'Name: value'", isRepeatable: true,
///                         help: "Adds a request header field.")
/// ```
package struct OptionSpec: Sendable, Hashable {
    /// The spellings, short (`-X`) and long (`--request`); the first is the one used as the key.
    package var names: [String]
    /// The placeholder shown in help for the option's value, or `nil` for a flag that takes no value.
    package var valueName: String?
    /// Whether the option may be given more than once (values are kept in order).
    package var isRepeatable: Bool
    /// Whether the option must be given (shown without brackets in the usage line).
    package var isRequired: Bool
    /// One line of help text.
    package var help: String

    /// Creates an option description.
    ///
    /// - Parameters:
    ///   - names: The spellings, each starting with `-` (short) or `--` (long); the first is the key.
    ///   - valueName: The value placeholder, or `nil` for a flag.
    ///   - isRepeatable: Whether the option may appear more than once; `false` by default.
    ///   - isRequired: Whether the option must be given; `false` by default.
    ///   - help: One line of help text.
    package init(
        names: [String],
        valueName: String? = nil,
        isRepeatable: Bool = false,
        isRequired: Bool = false,
        help: String
    ) {
        self.names = names
        self.valueName = valueName
        self.isRepeatable = isRepeatable
        self.isRequired = isRequired
        self.help = help
    }

    /// The key the parsed values are stored under: the first name.
    package var key: String { names.first ?? "" }

    /// Whether the option is a flag (takes no value).
    package var isFlag: Bool { valueName == nil }
}

/// The description of one positional argument.
package struct PositionalSpec: Sendable, Hashable {
    /// The placeholder shown in usage and help, for example `URL`.
    package var name: String
    /// One line of help text.
    package var help: String
    /// Whether the argument may be left out.
    package var isOptional: Bool

    /// Creates a positional argument description.
    ///
    /// - Parameters:
    ///   - name: The placeholder, for example `FILE.har`.
    ///   - help: One line of help text.
    ///   - isOptional: Whether it may be left out; `false` by default.
    package init(name: String, help: String, isOptional: Bool = false) {
        self.name = name
        self.help = help
        self.isOptional = isOptional
    }
}

/// The description of one `nettap` command: name, summary, positional arguments and options.
///
/// The parser (``parse(_:)``) and the help text (``helpText``) both come from this one description, so they
/// cannot disagree. Every command accepts `-h`/`--help` and ``configOption`` (`--config FILE`).
package struct CommandSpec: Sendable, Hashable {
    /// The command's name as typed, for example `fetch`.
    package var name: String
    /// One line saying what the command does.
    package var summary: String
    /// The positional arguments, in order.
    package var positionals: [PositionalSpec]
    /// The options.
    package var options: [OptionSpec]
    /// Extra paragraphs printed after the option list (exit codes, definitions, examples).
    package var discussion: String

    /// Creates a command description.
    ///
    /// - Parameters:
    ///   - name: The command name.
    ///   - summary: One line saying what it does.
    ///   - positionals: The positional arguments, in order.
    ///   - options: The options (`-h`/`--help` is added automatically).
    ///   - discussion: Extra help paragraphs; empty by default.
    package init(
        name: String,
        summary: String,
        positionals: [PositionalSpec] = [],
        options: [OptionSpec] = [],
        discussion: String = ""
    ) {
        self.name = name
        self.summary = summary
        self.positionals = positionals
        self.options = options
        self.discussion = discussion
    }

    /// `--config FILE`, which every command accepts: a `nettap.json` applied to the command's interceptor
    /// before it runs (see `NetTapCLI`).
    package static let configOption = OptionSpec(
        names: ["--config"],
        valueName: "FILE",
        help: "A nettap.json: fetch and demo apply every section (scope, capture, redaction, mocks, cassette, "
            + "shaping, files, integrity, cache, audit, store); the other commands only read its redaction and "
            + "create or change no file. 'nettap config check FILE' lists its errors."
    )

    /// The one-line usage, for example `nettap fetch URL [-X METHOD] [-H 'Name: value']...`.
    package var usage: String {
        var parts = ["nettap", name]
        for positional in positionals {
            parts.append(positional.isOptional ? "[\(positional.name)]" : positional.name)
        }
        for option in options + [Self.configOption] {
            var text = option.key
            if let valueName = option.valueName { text += " \(valueName)" }
            parts.append((option.isRequired ? text : "[\(text)]") + (option.isRepeatable ? "..." : ""))
        }
        return parts.joined(separator: " ")
    }

    /// The full help text: summary, usage, arguments, options and discussion, ending with a newline.
    package var helpText: String {
        var lines = ["nettap \(name): \(summary)", "", "Usage: \(usage)"]
        if !positionals.isEmpty {
            lines += ["", "Arguments:"]
            let width = positionals.map(\.name.count).max() ?? 0
            for positional in positionals {
                lines.append(
                    "  " + positional.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + positional.help
                )
            }
        }
        let all = options + [Self.configOption, OptionSpec(names: ["-h", "--help"], help: "Shows this help.")]
        let labels = all.map { option in
            option.names.joined(separator: ", ") + (option.valueName.map { " \($0)" } ?? "")
        }
        let width = labels.map(\.count).max() ?? 0
        lines += ["", "Options:"]
        for (label, option) in zip(labels, all) {
            lines.append("  " + label.padding(toLength: width + 2, withPad: " ", startingAt: 0) + option.help)
        }
        if !discussion.isEmpty {
            lines += ["", discussion]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Parses a command's arguments (everything after the command name).
    ///
    /// Accepted forms: `--name value`, `--name=value`, `-X value`, `-XVALUE` (short options with a value),
    /// flags, positional arguments anywhere, and `--` to end options (everything after it is positional).
    /// A lone `-` is positional.
    ///
    /// - Parameter arguments: The arguments after the command name.
    /// - Returns: The parsed arguments; ``ParsedArguments/isHelpRequested`` is `true` when `-h`/`--help`
    ///   appeared (then nothing else is checked).
    /// - Throws: ``CLIError`` with exit code 2 naming the offending argument: unknown option, missing value,
    ///   a value given to a flag, a non-repeatable option given twice, a missing or extra positional argument,
    ///   a missing required option.
    package func parse<Arguments: Sequence<String>>(_ arguments: Arguments) throws(CLIError) -> ParsedArguments {
        let arguments = Array(arguments)
        if arguments.prefix(while: { $0 != "--" }).contains(where: { $0 == "-h" || $0 == "--help" }) {
            return ParsedArguments(isHelpRequested: true)
        }
        var parsed = ParsedArguments()
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || argument == "-" || !argument.hasPrefix("-") {
                parsed.positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            let (spelling, attached) = split(argument)
            guard let option = option(named: spelling) else {
                let spellings = Set((options + [Self.configOption]).flatMap(\.names).filter { $0.hasPrefix("--") })
                let hint = ConfigNode.suggestion(for: spelling, among: spellings).map { "; did you mean \($0)?" }
                throw usageError(argument: spelling, "unknown option" + (hint ?? ""))
            }
            var value: String?
            if option.isFlag {
                if attached != nil {
                    throw usageError(argument: spelling, "takes no value")
                }
            } else if let attached {
                value = attached
            } else if index < arguments.count {
                value = arguments[index]
                index += 1
            } else {
                throw usageError(argument: spelling, "missing value \(option.valueName ?? "")")
            }
            if !option.isRepeatable && parsed.values[option.key] != nil {
                throw usageError(argument: spelling, "given more than once")
            }
            parsed.values[option.key, default: []].append(value ?? "")
        }
        let required = positionals.filter { !$0.isOptional }.count
        if parsed.positionals.count < required {
            let missing = positionals[parsed.positionals.count]
            throw usageError(argument: missing.name, "missing argument")
        }
        if parsed.positionals.count > positionals.count {
            throw usageError(argument: parsed.positionals[positionals.count], "unexpected argument")
        }
        if let missing = options.first(where: { $0.isRequired && parsed.values[$0.key] == nil }) {
            let spelling = missing.key + (missing.valueName.map { " \($0)" } ?? "")
            throw usageError(argument: spelling, "missing required option")
        }
        return parsed
    }

    private func option(named spelling: String) -> OptionSpec? {
        (options + [Self.configOption]).first { $0.names.contains(spelling) }
    }

    /// Splits `--name=value` and `-XVALUE` into the option spelling and the attached value.
    private func split(_ argument: String) -> (spelling: String, attached: String?) {
        if argument.hasPrefix("--") {
            guard let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
            return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
        }
        guard argument.count > 2 else { return (argument, nil) }
        let short = String(argument.prefix(2))
        if let option = option(named: short), !option.isFlag {
            return (short, String(argument.dropFirst(2)))
        }
        return (argument, nil)
    }

    private func usageError(argument: String, _ message: String) -> CLIError {
        .usage(command: name, input: argument, message: "\(message) (see 'nettap help \(name)')")
    }
}

/// The result of ``CommandSpec/parse(_:)``: option values by key and positional arguments in order.
package struct ParsedArguments: Sendable, Hashable {
    /// Whether `-h` or `--help` was given; when `true`, nothing else was parsed.
    package var isHelpRequested = false
    /// The values of each option given, keyed by the option's first name (``OptionSpec/key``); flags have
    /// one empty string per occurrence.
    package var values: [String: [String]] = [:]
    /// The positional arguments, in order.
    package var positionals: [String] = []

    /// Creates an empty result.
    ///
    /// - Parameter isHelpRequested: Whether help was requested.
    package init(isHelpRequested: Bool = false) {
        self.isHelpRequested = isHelpRequested
    }

    /// The last value of an option.
    ///
    /// - Parameter key: The option's first name, for example `-X`.
    /// - Returns: The value, or `nil` when the option was not given.
    package func value(_ key: String) -> String? {
        values[key]?.last
    }

    /// Every value of a repeatable option, in order.
    ///
    /// - Parameter key: The option's first name.
    /// - Returns: The values; empty when the option was not given.
    package func allValues(_ key: String) -> [String] {
        values[key] ?? []
    }

    /// Whether a flag or option was given.
    ///
    /// - Parameter key: The option's first name.
    /// - Returns: `true` when given at least once.
    package func has(_ key: String) -> Bool {
        values[key] != nil
    }
}
