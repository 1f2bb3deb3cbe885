import Foundation
import NetTapCore
import NetTapMocking

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `nettap mock list MOCKS.json`: the scenarios and stubs of a mocks file or `nettap.json`.
///
/// Prints the base stubs, then each scenario (the active one marked), one row per stub with its matcher and
/// response; a stub with alternatives gets one row per alternative (the active one marked), a sequence stub
/// one row per step. Stubs in a state machine get a STATE column (the state they need, the state they move to),
/// templated responses say so, and the state machines are listed with their state as loaded.
/// A `nettap.json` with a `rewrite` section gets its rules after them (`RewriteRulesText`).
///
/// Exit codes: 0 listed, 1 the file is missing or invalid (the line names the file and the JSON path),
/// 2 usage error.
package struct MockListCommand: Command {
    /// The command's description.
    package static let spec = CommandSpec(
        name: "mock list",
        summary: "Lists the scenarios and stubs of a mocks file: matchers, responses, what is active.",
        positionals: [PositionalSpec(name: "MOCKS.json", help: "A mocks file or a nettap.json with a mocks section.")],
        discussion: """
            Each stub shows its matcher (as RequestMatcher describes it) and its response: status, body
            size and kind, latency, body pacing, a body fault (connection dropped, truncated or stalls after N
            bytes), a simulated error or a redirect. "(active)" marks the active scenario and each stub's active
            alternative. "templated" marks responses rendered from the request ({{…}} placeholders). A STATE
            column shows the state machine a stub belongs to, the state it requires and the state it moves to;
            "State machines" lists each machine with its state as loaded (Started unless the file's states say
            otherwise) and the stubs that need or move it.

            Exit codes: 0 success, 1 missing or invalid file, 2 usage error.
            """
    )

    /// The mocks file, as typed.
    package var path: String

    /// Creates the command from parsed arguments.
    ///
    /// - Parameter arguments: Parsed with ``spec``.
    package init(arguments: ParsedArguments) {
        path = arguments.positionals.first ?? ""
    }

    /// Reads the file and prints its contents.
    ///
    /// - Parameter environment: Outputs and working directory.
    /// - Returns: ``ExitCode/success``.
    /// - Throws: ``CLIError`` (exit 1) naming the file, and the JSON path or line and column, when it is missing
    ///   or invalid.
    package func run(in environment: CommandEnvironment) async throws(CLIError) -> ExitCode {
        let url = environment.fileURL(path)
        if let reason = Formatting.unreadableFileReason(url) {
            throw CLIError.failure(command: Self.spec.name, input: path, message: reason)
        }
        let configuration: MockConfiguration
        let rewrite: String?
        do {
            configuration = try MockConfiguration.load(contentsOf: url)
            rewrite = try RewriteRulesText.text(contentsOf: url)
        } catch let error as ConfigurationError {
            let place = error.line.map { line in "\(line):\(error.column ?? 0)" } ?? error.path
            throw CLIError.failure(
                command: Self.spec.name,
                input: path,
                message: place.isEmpty ? error.message : "\(place): \(error.message)"
            )
        } catch {
            throw CLIError.failure(command: Self.spec.name, input: path, message: "\(error)")
        }
        environment.standardOutput.write(Self.text(configuration, file: path) + (rewrite ?? ""))
        return .success
    }

    /// The listing of a configuration.
    ///
    /// - Parameters:
    ///   - configuration: The stubs and scenarios.
    ///   - file: The file name shown in the first line.
    /// - Returns: Lines ending with a newline.
    package static func text(_ configuration: MockConfiguration, file: String) -> String {
        let stubCount = configuration.stubs.count
        let scenarioCount = configuration.scenarios.count
        let active = configuration.activeScenario.map { "\"\($0)\"" } ?? "none"
        var output =
            "\(file): \(stubCount) base stub\(stubCount == 1 ? "" : "s"), "
            + "\(scenarioCount) scenario\(scenarioCount == 1 ? "" : "s"); active scenario: \(active)\n"
        output += stateMachines(configuration) ?? ""
        output += "\nBase stubs (always active):\n" + section(configuration.stubs)
        for scenario in configuration.scenarios {
            let mark = scenario.name == configuration.activeScenario ? " (active)" : ""
            output += "\nScenario \"\(scenario.name)\"\(mark):\n" + section(scenario.stubs)
        }
        return output
    }

    private static func section(_ stubs: [Stub]) -> String {
        guard !stubs.isEmpty else { return "  (none)\n" }
        let hasStates = stubs.contains { $0.state != nil }
        var table = TextTable(
            headings: ["STUB", "MATCH"] + (hasStates ? ["STATE"] : []) + ["RESPONSE"],
            alignments: [.left, .left, .left] + (hasStates ? [.left] : [])
        )
        for stub in stubs {
            let lines = responseLines(stub.responses)
            let state = hasStates ? [stateText(stub)] : []
            for (offset, line) in lines.enumerated() {
                let first = offset == 0
                table.rows.append(
                    [first ? stub.name : "", first ? stub.matcher.description : ""]
                        + (first ? state : state.map { _ in "" })
                        + [line]
                )
            }
        }
        return indented(table)
    }

    /// One line per response a stub can give.
    static func responseLines(_ responses: Stub.Responses) -> [String] {
        switch responses {
        case .single(let response):
            return [describe(response)]
        case .alternatives(let alternatives, let active):
            return alternatives.map { alternative in
                let mark = alternative.name == active ? " (active)" : ""
                return "alternative \"\(alternative.name)\"\(mark): \(describe(alternative.response))"
            }
        case .sequence(let responses, let afterEnd):
            let end = afterEnd == .cycle ? "then from the first again" : "then the last again"
            return responses.enumerated().map { "step \($0): \(describe($1))" } + ["(\(end))"]
        }
    }

    /// A response in one line: `200, 65 bytes JSON, latency 150 ms, truncated after 40 bytes`.
    static func describe(_ response: StubResponse) -> String {
        var parts: [String]
        if let failure = response.failure {
            let name = URLErrorNames.name(of: failure) ?? "\(failure.rawValue)"
            parts = ["error \(name) (URLError \(failure.rawValue))"]
        } else if response.isDynamic {
            parts = ["computed at request time"]
        } else {
            parts = ["\(response.statusCode)"]
            if let location = response.headers.values(for: "Location").first,
                (300..<400).contains(response.statusCode)
            {
                parts[0] += " → \(location)"
            }
            let type = response.headers.values(for: "Content-Type").first.map { " \($0)" } ?? ""
            switch response.body {
            case .data(let data) where data.isEmpty:
                break
            case .data(let data):
                parts.append("\(data.count) bytes\(type)")
            case .json(let value):
                parts.append(((try? value.data().count).map { "\($0) bytes" } ?? "?") + (type.isEmpty ? " JSON" : type))
            case .file(let url):
                parts.append("file \(url.path)\(type)")
            }
        }
        if response.latency > .zero {
            parts.append("latency \(milliseconds(response.latency)) ms")
        }
        switch response.pacing {
        case .duration(let duration)?:
            parts.append("body over \(milliseconds(duration)) ms")
        case .bandwidth(let bytesPerSecond)?:
            parts.append("\(bytesPerSecond) bytes/s")
        case nil:
            break
        }
        // Body fault (shown by `nettap mock list`): after the pacing it cuts short.
        if let fault = response.fault, response.failure == nil {
            parts.append(fault.description)
        }
        return parts.joined(separator: ", ") + templateText(response)
    }

    private static func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let value = Double(seconds) * 1000 + Double(attoseconds) / 1e15
        return value == value.rounded() ? "\(Int(value))" : Formatting.milliseconds(value)
    }
}
