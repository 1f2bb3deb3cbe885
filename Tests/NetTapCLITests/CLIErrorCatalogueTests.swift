import Foundation
import NetTapCLI
import Testing

/// One mistake a user can make on the command line, and what the line on standard error must name.
struct CLIMistake: Sendable, CustomTestStringConvertible {
    /// The arguments after `nettap`.
    var arguments: [String]
    /// Text naming the input (the file, the option and its value, the word typed).
    var input: String
    /// Text naming the place in the input, or `nil` when the whole input is wrong (see ``placeReason``).
    var place: String?
    /// Why there is no place.
    var placeReason: String?
    /// The suggested fix, when one is obvious.
    var hint: String?
    /// The exit code: 2 for usage errors, 1 for failures.
    var exitCode: ExitCode
    /// Where the message is printed: standard error for every failure, standard output for `config check`'s
    /// list of problems.
    var onStandardOutput = false
    /// Text that must not appear (for example `0.0` for an integer written `0`).
    var absent: [String] = []

    var testDescription: String { "nettap " + arguments.joined(separator: " ") }
}

/// The files the mistakes read, written into the working directory.
private let files: [String: String] = [
    "broken.har": #"{"log": {"entries": [}"#,
    "cut.har": "{\"log\": {\"entries\": [{\"request\": {\"method\": \"GET\", \"url\": \"http://a/\"",
    "status.har": #"""
    {"log": {"entries": [
      {"startedDateTime": "2026-01-01T00:00:00Z", "time": 1, "request": {"method": "GET", "url": "http://a/"},
       "response": {"status": 200}, "timings": {}},
      {"startedDateTime": "2026-01-01T00:00:00Z", "time": 1, "request": {"method": "GET", "url": "http://a/"},
       "response": {"status": 200}, "timings": {}},
      {"startedDateTime": "2026-01-01T00:00:00Z", "time": 1, "request": {"method": "GET", "url": "http://a/"},
       "response": {"status": 200}, "timings": {}},
      {"startedDateTime": "2026-01-01T00:00:00Z", "time": 1, "request": {"method": "GET", "url": "http://a/"},
       "response": {"status": {"code": 200}}, "timings": {}}
    ]}}
    """#,
    "good.har": #"""
    {"log": {"entries": [
      {"startedDateTime": "2026-01-01T00:00:00Z", "time": 1, "request": {"method": "GET", "url": "http://a/"},
       "response": {"status": 200}, "timings": {}},
      {"startedDateTime": "2026-01-01T00:00:01Z", "time": 1, "request": {"method": "GET", "url": "http://a/b"},
       "response": {"status": 404}, "timings": {}}
    ]}}
    """#,
    "typo.json": #"{"mocks": {"stubs": [{"name": "a", "match": {"pathRgex": "/a"}, "response": {"status": 200}}]}}"#,
    "age.json": #"{"store": {"maxAgeDays": 0}}"#,
    "syntax.json": #"{"redaction": {"enabled": tru}}"#,
    "text.sqlite": "hello",
    "a-file": "x",
]

/// Mistakes of every command, from its arguments.
private let mistakes: [CLIMistake] = [
    // The command line itself.
    CLIMistake(
        arguments: ["reprot", "good.har"],
        input: "reprot",
        place: nil,
        placeReason: "the command word",
        hint: #"did you mean "report"?"#,
        exitCode: .usage
    ),
    CLIMistake(
        arguments: ["report", "--jsn", "good.har"],
        input: "--jsn",
        place: "report",
        hint: "did you mean --json?",
        exitCode: .usage
    ),
    CLIMistake(
        arguments: ["mock", "sav"],
        input: "sav",
        place: "mock",
        hint: "save, list",
        exitCode: .usage
    ),
    CLIMistake(
        arguments: ["report"],
        input: "FILE.(har|sqlite)",
        place: "report",
        hint: "nettap help report",
        exitCode: .usage
    ),
    // report and stats: the file.
    CLIMistake(
        arguments: ["report", "missing.har"],
        input: "missing.har",
        place: nil,
        placeReason: "the whole file is missing",
        hint: "no such file",
        exitCode: .failure
    ),
    CLIMistake(
        arguments: ["report", "broken.har"],
        input: "broken.har",
        place: "1:22",
        hint: #"unexpected "}" inside an array opened at line 1, column 21; close the array with "]""#,
        exitCode: .failure
    ),
    CLIMistake(
        arguments: ["report", "cut.har"],
        input: "cut.har",
        place: "1:70",
        hint: #"the text ends inside an object"#,
        exitCode: .failure
    ),
    CLIMistake(
        arguments: ["stats", "--strict", "status.har"],
        input: "status.har",
        place: "$.log.entries[3].response.status",
        hint: "expected a number, found an object",
        exitCode: .failure
    ),
    CLIMistake(
        arguments: ["report", "--config", "typo.json", "good.har"],
        input: "typo.json",
        place: "$.mocks.stubs[0].match.pathRgex",
        hint: #"did you mean "pathRegex"?"#,
        exitCode: .failure
    ),
    CLIMistake(
        arguments: ["report", "--html", "no-such-folder/r.html", "good.har"],
        input: "no-such-folder/r.html",
        place: "--html",
        hint: "no such folder",
        exitCode: .failure
    ),
    CLIMistake(
        arguments: ["report", "good.har", "--html", "good.har"],
        input: #""good.har""#,
        place: "--html",
        hint: "choose another file",
        exitCode: .usage
    ),
    CLIMistake(
        arguments: ["report", "good.har", "--html", "."],
        input: #"/nettap-output""#,
        place: "--html",
        hint: "it is a folder; give a file name in it",
        exitCode: .failure,
        absent: ["The operation could not be completed", "NSCocoaErrorDomain"]
    ),
    CLIMistake(
        arguments: ["query", "text.sqlite", "--har", "./text.sqlite"],
        input: #""./text.sqlite""#,
        place: "--har",
        hint: "choose another file",
        exitCode: .usage
    ),
    CLIMistake(
        arguments: ["query", "text.sqlite", "--since", "2026-02-30"],
        input: #""2026-02-30""#,
        place: "--since",
        hint: "there is no day 30 in month 2 of 2026",
        exitCode: .usage
    ),
    CLIMistake(
        arguments: ["query", "text.sqlite", "--until", "2026-11-30T25:00:00Z"],
        input: #""2026-11-30T25:00:00Z""#,
        place: "--until",
        hint: "hour 25 is past 23",
        exitCode: .usage
    ),
    CLIMistake(
        arguments: ["stats", "--by", "week", "good.har"],
        input: #""week""#,
        place: "--by",
        hint: "must be host, time or minute",
        exitCode: .usage
    ),
    CLIMistake(
        arguments: ["stats", "--bucket", "0", "good.har"],
        input: #""0""#,
        place: "--bucket",
        hint: "from 0.001 to 1000000000",
        exitCode: .usage
    ),
    // query: the store and the filters.
    CLIMistake(
        arguments: ["query", "--status", "7xx", "text.sqlite"],
        input: #""7xx""#,
        place: "--status",
        hint: "must be one of 1xx, 2xx",
        exitCode: .usage
    ),
    CLIMistake(
        arguments: ["query", "--since", "yesterday", "text.sqlite"],
        input: #""yesterday""#,
        place: "--since",
        hint: "ISO 8601 date (2025-06-01)",
        exitCode: .usage
    ),
    CLIMistake(
        arguments: ["query", "--limit", "-1", "text.sqlite"],
        input: #""-1""#,
        place: "--limit",
        hint: "whole number >= 0",
        exitCode: .usage
    ),
    CLIMistake(
        arguments: ["query", "text.sqlite"],
        input: "text.sqlite",
        place: nil,
        placeReason: "the whole file",
        hint: "not a NetTap store",
        exitCode: .failure
    ),
    CLIMistake(
        arguments: ["query", "none.sqlite"],
        input: "none.sqlite",
        place: nil,
        placeReason: "the whole file is missing",
        hint: "no such file",
        exitCode: .failure
    ),
    // mock save and mock list.
    CLIMistake(
        arguments: ["mock", "save", "--entry", "9", "--to", "m.json", "good.har"],
        input: "good.har",
        place: "--entry 9",
        hint: "valid: 0 to 1",
        exitCode: .usage
    ),
    CLIMistake(
        arguments: ["mock", "save", "--entry", "x", "--to", "m.json", "good.har"],
        input: #""x""#,
        place: "--entry",
        hint: "whole number >= 0",
        exitCode: .usage
    ),
    CLIMistake(
        arguments: ["mock", "save", "good.har"],
        input: "--to MOCKS.json",
        place: "mock save",
        hint: "missing required option",
        exitCode: .usage
    ),
    CLIMistake(
        arguments: ["mock", "list", "typo.json"],
        input: "typo.json",
        place: "$.mocks.stubs[0].match.pathRgex",
        hint: #"did you mean "pathRegex"?"#,
        exitCode: .failure
    ),
    // fetch: the URL and the options.
    CLIMistake(
        arguments: ["fetch", "ftp://x/"],
        input: #""ftp://x/""#,
        place: "URL",
        hint: "http or https URL",
        exitCode: .usage
    ),
    CLIMistake(
        arguments: ["fetch", "-H", "Foo", "http://127.0.0.1:9/"],
        input: #""Foo""#,
        place: "-H",
        hint: "'Name: value'",
        exitCode: .usage
    ),
    CLIMistake(
        arguments: ["fetch", "--profile", "5g", "http://127.0.0.1:9/"],
        input: #""5g""#,
        place: "--profile",
        hint: "use one of",
        exitCode: .usage
    ),
    CLIMistake(
        arguments: ["fetch", "--timeout", "abc", "http://127.0.0.1:9/"],
        input: #""abc""#,
        place: "--timeout",
        hint: "positive number of seconds",
        exitCode: .usage
    ),
    CLIMistake(
        arguments: ["fetch", "--config", "missing.json", "http://127.0.0.1:9/"],
        input: "missing.json",
        place: nil,
        placeReason: "the whole file is missing",
        hint: "no such file",
        exitCode: .failure
    ),
    // demo: where it writes.
    CLIMistake(
        arguments: ["demo", "--store", "a-file/sub/demo.sqlite"],
        input: "a-file/sub/demo.sqlite",
        place: "--store",
        hint: "no such folder",
        exitCode: .failure
    ),
    // config check prints its problems on standard output, one a line.
    CLIMistake(
        arguments: ["config", "check", "age.json"],
        input: "age.json",
        place: "$.store.maxAgeDays",
        hint: "above 0 (at most 365000), found 0",
        exitCode: .failure,
        onStandardOutput: true,
        absent: ["0.0"]
    ),
    CLIMistake(
        arguments: ["config", "check", "syntax.json"],
        input: "syntax.json",
        place: "syntax.json:1:",
        hint: #""tru""#,
        exitCode: .failure,
        onStandardOutput: true
    ),
]

@Suite("The catalogue of what nettap prints for user mistakes")
struct CLIErrorCatalogueTests {
    @Test("each mistake exits non-zero with one line naming the input, the place and the fix", arguments: mistakes)
    func mistake(_ mistake: CLIMistake) async throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        for (name, text) in files {
            try Data(text.utf8).write(to: folder.appendingPathComponent(name))
        }
        let run = await runCLI(mistake.arguments, workingDirectory: folder)
        #expect(run.exitCode == mistake.exitCode)
        let output = mistake.onStandardOutput ? run.standardOutput : run.standardError
        let line = try #require(output.split(separator: "\n", omittingEmptySubsequences: true).first.map(String.init))
        if !mistake.onStandardOutput {
            #expect(line.hasPrefix("nettap: "))
            #expect(run.standardError.filter { $0 == "\n" }.count == 1, "one line: \(run.standardError)")
        }
        #expect(line.contains(mistake.input), "input \(mistake.input): \(line)")
        if let place = mistake.place {
            #expect(line.contains(place), "place \(place): \(line)")
        } else {
            #expect(mistake.placeReason?.isEmpty == false)
        }
        if let hint = mistake.hint {
            #expect(line.contains(hint), "hint \(hint): \(line)")
        }
        let leaks =
            [
                "Optional(", "Error Domain=", "The operation could not be completed", "around character",
                "Invalid value around", "DecodingError", "keyNotFound", "CodingKeys",
            ] + mistake.absent
        for leak in leaks {
            #expect(!line.contains(leak), "leaks \(leak): \(line)")
        }
    }
}
