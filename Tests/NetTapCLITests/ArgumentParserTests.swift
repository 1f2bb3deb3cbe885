import Foundation
import NetTapCLI
import NetTapCore
import Testing

@Suite("Argument parser")
struct ArgumentParserTests {
    let spec = CommandSpec(
        name: "probe",
        summary: "A command for parser tests.",
        positionals: [
            PositionalSpec(name: "FIRST", help: "Required."),
            PositionalSpec(name: "SECOND", help: "Optional.", isOptional: true),
        ],
        options: [
            OptionSpec(names: ["-X", "--request"], valueName: "METHOD", help: "A value."),
            OptionSpec(names: ["-H", "--header"], valueName: "FIELD", isRepeatable: true, help: "Repeatable."),
            OptionSpec(names: ["-i", "--include"], help: "A flag."),
        ]
    )

    @Test("accepts separate, attached and equals forms, flags and -- ")
    func acceptedForms() throws {
        let parsed = try spec.parse(["a", "-XPOST", "--header=A: 1", "-H", "B: 2", "--include", "--", "-b"])
        #expect(parsed.positionals == ["a", "-b"])
        #expect(parsed.value("-X") == "POST")
        #expect(parsed.allValues("-H") == ["A: 1", "B: 2"])
        #expect(parsed.has("-i"))
        #expect(!parsed.isHelpRequested)
        let long = try spec.parse(["--request", "PUT", "a"])
        #expect(long.value("-X") == "PUT")
        #expect(long.positionals == ["a"])
    }

    @Test("reports help wherever -h or --help appears before --")
    func helpFlag() throws {
        #expect(try spec.parse(["--bogus", "--help"]).isHelpRequested)
        #expect(try spec.parse(["-h"]).isHelpRequested)
        #expect(try spec.parse(["a", "--", "--help"]).positionals == ["a", "--help"])
    }

    @Test(
        "every malformed command line is a usage error naming the argument",
        arguments: [
            (["a", "--bogus"], "nettap: probe: --bogus: unknown option"),
            (["a", "-Z"], "nettap: probe: -Z: unknown option"),
            (["a", "-X"], "nettap: probe: -X: missing value METHOD"),
            (["a", "--include=yes"], "nettap: probe: --include: takes no value"),
            (["a", "-X", "GET", "-X", "PUT"], "nettap: probe: -X: given more than once"),
            ([], "nettap: probe: FIRST: missing argument"),
            (["a", "b", "c"], "nettap: probe: c: unexpected argument"),
        ]
    )
    func usageErrors(arguments: [String], expectedPrefix: String) {
        #expect {
            try spec.parse(arguments)
        } throws: { error in
            guard let error = error as? CLIError else { return false }
            return error.exitCode == .usage && error.description.hasPrefix(expectedPrefix)
                && error.description.hasSuffix("(see 'nettap help probe')") && !error.description.contains("\n")
        }
    }

    @Test("help text lists the usage line, every option and -h")
    func helpText() {
        let text = spec.helpText
        #expect(text.contains("Usage: nettap probe FIRST [SECOND] [-X METHOD] [-H FIELD]... [-i]"))
        #expect(text.contains("-X, --request METHOD"))
        #expect(text.contains("-i, --include"))
        #expect(text.contains("-h, --help"))
    }
}

@Suite("Top level and usage errors of the commands")
struct TopLevelTests {
    @Test("--help, help and help COMMAND print help and exit 0")
    func help() async {
        let top = await runCLI(["--help"])
        #expect(top.exitCode == .success)
        #expect(top.standardOutput.contains("Usage: nettap COMMAND"))
        for name in ["demo", "fetch", "report"] {
            #expect(top.standardOutput.contains("  \(name) "))
            let command = await runCLI(["help", name])
            #expect(command.exitCode == .success)
            #expect(command.standardOutput.hasPrefix("nettap \(name): "))
            let flag = await runCLI([name, "--help"])
            #expect(flag.exitCode == .success)
            #expect(flag.standardOutput == command.standardOutput)
        }
        #expect(await runCLI(["help"]).standardOutput == top.standardOutput)
    }

    @Test("--version prints the version, then the platform and what the build forwards with")
    func version() async {
        let run = await runCLI(["--version"])
        #expect(run.exitCode == .success)
        let lines = run.standardOutput.split(separator: "\n")
        #expect(lines.first == "nettap \(NetTapCLI.version)")
        #if os(Linux)
        #expect(lines.last?.hasPrefix("NetTap \(NetTapCLI.version) on Linux, forwarding through libcurl ") == true)
        #expect(lines.last?.contains("OpenSSL") == true, "the TLS library libcurl was built with")
        #endif
    }

    @Test(
        "unknown commands, options and help topics exit 2 with a hint",
        arguments: [
            (
                ["frob"],
                "nettap: frob: unknown command; commands are demo, fetch, report, stats, query, inspect, mock, config, help (see 'nettap --help')\n"
            ),
            (
                ["--frob"],
                "nettap: --frob: unknown option; commands are demo, fetch, report, stats, query, inspect, mock, config, help (see 'nettap --help')\n"
            ),
            (
                ["help", "frob"],
                "nettap: help: frob: unknown command; commands are demo, fetch, report, stats, query, inspect, mock, config, help (see 'nettap --help')\n"
            ),
            (["help", "fetch", "x"], "nettap: help: x: unexpected argument\n"),
            (["help", "mock", "save", "x"], "nettap: help: x: unexpected argument\n"),
            (
                ["mock", "frob"],
                "nettap: mock: frob: unknown command; mock commands are save, list (see 'nettap help mock')\n"
            ),
            (
                ["help", "mock", "frob"],
                "nettap: help: mock: frob: unknown command; mock commands are save, list (see 'nettap help mock')\n"
            ),
            (
                ["mock", "save", "a.har"],
                "nettap: mock save: --to MOCKS.json: missing required option (see 'nettap help mock save')\n"
            ),
        ]
    )
    func unknown(arguments: [String], expected: String) async {
        let run = await runCLI(arguments)
        #expect(run.exitCode == .usage)
        #expect(run.standardError == expected)
        #expect(run.standardOutput.isEmpty)
    }

    @Test("no arguments prints the help to stderr and exits 2")
    func noArguments() async {
        let run = await runCLI([])
        #expect(run.exitCode == .usage)
        #expect(run.standardError.contains("Usage: nettap COMMAND"))
    }

    @Test(
        "fetch rejects malformed values with exit 2 and names the input",
        arguments: [
            (
                ["fetch", "ftp://example.com/x"],
                #"nettap: fetch: URL "ftp://example.com/x": must be an absolute http or https URL"#
            ),
            (["fetch", "not a url"], #"nettap: fetch: URL "not a url": must be an absolute http or https URL"#),
            (
                ["fetch", "http://127.0.0.1/", "-H", "Foo"],
                #"nettap: fetch: -H "Foo": header must look like 'Name: value'"#
            ),
            (
                ["fetch", "http://127.0.0.1/", "-H", "Bad Name: v"],
                #"nettap: fetch: -H "Bad Name: v": header must look like 'Name: value'"#
            ),
            (["fetch", "http://127.0.0.1/", "-X", "GE T"], #"nettap: fetch: -X "GE T": not a valid HTTP method"#),
            (
                ["fetch", "http://127.0.0.1/", "-H", "X: a\r\nInjected: b"],
                #"nettap: fetch: -H "X: a\r\nInjected: b": a header value cannot contain CR, LF or NUL"#
            ),
            (
                ["fetch", "http://127.0.0.1/", "-X", "GET", "-d", "x"],
                #"nettap: fetch: -X "GET": a GET request cannot have a body"#
            ),
            (
                ["fetch", "http://127.0.0.1/", "-X", "head", "--data-file", "f"],
                #"nettap: fetch: -X "head": a HEAD request cannot have a body"#
            ),
            (
                ["fetch", "http://127.0.0.1/", "--timeout", "soon"],
                #"nettap: fetch: --timeout "soon": must be a positive number of seconds"#
            ),
            (
                ["fetch", "http://127.0.0.1/", "--timeout", "-1"],
                #"nettap: fetch: --timeout "-1": must be a positive number of seconds"#
            ),
            (
                ["fetch", "http://127.0.0.1/", "-d", "x", "--data-file", "y"],
                "nettap: fetch: --data-file: cannot be combined with -d"
            ),
            (["fetch"], "nettap: fetch: URL: missing argument"),
            (["report"], "nettap: report: FILE.(har|sqlite): missing argument"),
            (
                ["report", "a.har", "--slowest", "many"],
                #"nettap: report: --slowest "many": must be a whole number >= 0"#
            ),
            (
                ["demo", "--upstream", "localhost"],
                #"nettap: demo: --upstream "localhost": must be an absolute http or https URL"#
            ),
            (["demo", "extra"], "nettap: demo: extra: unexpected argument"),
            (
                ["mock", "save", "a.har", "--entry", "first", "--to", "m.json"],
                #"nettap: mock save: --entry "first": must be a whole number >= 0"#
            ),
            (
                ["mock", "save", "a.har", "--entry", "1", "--match", "x", "--to", "m.json"],
                "nettap: mock save: --entry, --match: give one of them, not both"
            ),
            (
                ["mock", "save", "a.har", "--scenario", " ", "--to", "m.json"],
                #"nettap: mock save: --scenario " ": must not be empty"#
            ),
            (["mock", "list"], "nettap: mock list: MOCKS.json: missing argument"),
        ]
    )
    func commandUsageErrors(arguments: [String], expectedPrefix: String) async {
        let run = await runCLI(arguments)
        #expect(run.exitCode == .usage)
        #expect(run.standardError.hasPrefix(expectedPrefix))
        #expect(run.standardError.filter { $0 == "\n" }.count == 1)
    }

    @Test("fetch with a missing data file exits 1 naming the file, before any request")
    func missingDataFile() async throws {
        let interceptor = NetTapInterceptor()
        let run = await runCLI(
            ["fetch", "http://127.0.0.1:9/", "--data-file", "no-such-body.json"],
            interceptor: interceptor,
            workingDirectory: try makeTemporaryDirectory()
        )
        #expect(run.exitCode == .failure)
        #expect(run.standardError == "nettap: fetch: --data-file \"no-such-body.json\": no such file\n")
        #expect(interceptor.captureLog.transactions.isEmpty)
    }

    @Test("a directory given as a file exits 1 with one line saying so", arguments: ["report", "fetch"])
    func directoryAsFile(command: String) async throws {
        let directory = try makeTemporaryDirectory()
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("folder.har"),
            withIntermediateDirectories: true
        )
        let arguments =
            command == "report"
            ? ["report", "folder.har"] : ["fetch", "http://127.0.0.1:9/", "--data-file", "folder.har"]
        let run = await runCLI(arguments, interceptor: NetTapInterceptor(), workingDirectory: directory)
        #expect(run.exitCode == .failure)
        let input = command == "report" ? "folder.har" : "--data-file \"folder.har\""
        #expect(run.standardError == "nettap: \(command): \(input): is a directory, not a file\n")
    }
}
