import Foundation
import NetTapCore
import NetTapHAR
import NetTapMocking

/// `nettap mock save HAR_FILE --to MOCKS.json`: "save as mock" for one entry of any HAR 1.2 file.
///
/// Turns a HAR entry (from Chrome, Firefox, Charles, Proxyman, Insomnia or NetTap) into a stub with
/// `Stub(recording:name:redactor:)`: the stub matches the entry's method and URL and answers its status,
/// headers and decoded body. Secrets (`Authorization`, `Set-Cookie` values, `token`-like body fields and query
/// items) are redacted unless `--no-redact` is given. The stub is added with
/// `MockConfiguration.append(_:toScenario:inFileAt:)` to a scenario, or to the base stubs, of a
/// `nettap.json` or stand-alone mocks file, which is created when missing; a stub of the same name there is
/// replaced.
///
/// Exit codes: 0 saved, 1 a file is missing or invalid (the line names the file and the JSON path) or the
/// entry cannot become a stub, 2 usage error (including an entry index out of range).
package struct MockSaveCommand: Command {
    /// The command's description.
    package static let spec = CommandSpec(
        name: "mock save",
        summary: "Saves one HAR entry as a stub (secrets redacted) in a mocks file or nettap.json.",
        positionals: [PositionalSpec(name: "HAR_FILE", help: "The HAR 1.2 file (from a browser, a proxy or NetTap).")],
        options: [
            OptionSpec(
                names: ["--entry"],
                valueName: "N",
                help: "The entry to save: its index in log.entries, from 0."
            ),
            OptionSpec(
                names: ["--match"],
                valueName: "URL_SUBSTRING",
                help: "The entry to save: the only one whose request URL contains this text."
            ),
            OptionSpec(
                names: ["--scenario"],
                valueName: "NAME",
                help: "The scenario to add the stub to (created when missing); the base stubs by default."
            ),
            OptionSpec(names: ["--name"], valueName: "STUB_NAME", help: "The stub's name; 'METHOD /path' by default."),
            HARInput.strictOption,
            HARInput.warningsOption,
            OptionSpec(
                names: ["--no-redact"],
                help: "Keeps secrets (Authorization, cookies, tokens) in the stub instead of redacting them."
            ),
            OptionSpec(
                names: ["--to"],
                valueName: "MOCKS.json",
                isRequired: true,
                help: "The mocks file or nettap.json to add the stub to; created when missing."
            ),
        ],
        discussion: """
            Without --entry or --match the HAR must hold exactly one entry. The stub matches the entry's method
            and URL (scheme, host, port, path and every query item; secret query items match any value) and
            answers its status, headers (minus HTTP/2 pseudo-headers and transfer headers) and decoded body.
            A stub of the same name in the same place is replaced. See the result with 'nettap mock list'.

            Exit codes: 0 saved, 1 missing or invalid file or an entry that cannot become a stub (no
            response), 2 usage error (including --entry out of range).
            """
    )

    /// How the entry is chosen.
    package enum Selection: Sendable, Hashable {
        /// The only entry of the file.
        case only
        /// The entry at this index of `log.entries` (from 0).
        case index(Int)
        /// The only entry whose request URL contains this text.
        case urlContaining(String)
    }

    /// The HAR file, as typed.
    package var harPath: String
    /// The mocks file, as typed.
    package var mocksPath: String
    /// How the entry is chosen.
    package var selection: Selection
    /// The scenario to add to, or `nil` for the base stubs.
    package var scenario: String?
    /// The stub's name, or `nil` for `METHOD /path`.
    package var stubName: String?
    /// Whether secrets are redacted.
    package var redacts: Bool
    /// Whether a HAR file with values read leniently is refused (`--strict`).
    package var strict: Bool
    /// Whether every value read leniently is listed (`--warnings`).
    package var listsWarnings: Bool

    /// Creates the command from parsed arguments.
    ///
    /// - Parameter arguments: Parsed with ``spec``.
    /// - Throws: A usage ``CLIError`` when `--entry` is not a whole number ≥ 0, when both `--entry` and
    ///   `--match` are given, or when a name is empty.
    package init(arguments: ParsedArguments) throws(CLIError) {
        harPath = arguments.positionals.first ?? ""
        mocksPath = arguments.value("--to") ?? ""
        let entry = arguments.value("--entry")
        let match = arguments.value("--match")
        switch (entry, match) {
        case (let text?, nil):
            guard let index = Int(text), index >= 0 else {
                throw CLIError.usage(
                    command: Self.spec.name,
                    input: "--entry \(Formatting.quoted(text))",
                    message: "must be a whole number >= 0 (an index in log.entries)"
                )
            }
            selection = .index(index)
        case (nil, let text?):
            guard !text.isEmpty else {
                throw CLIError.usage(command: Self.spec.name, input: "--match \"\"", message: "must not be empty")
            }
            selection = .urlContaining(text)
        case (_?, _?):
            throw CLIError.usage(
                command: Self.spec.name,
                input: "--entry, --match",
                message: "give one of them, not both"
            )
        case (nil, nil):
            selection = .only
        }
        for (key, value) in [("--scenario", arguments.value("--scenario")), ("--name", arguments.value("--name"))] {
            if let value, value.trimmingCharacters(in: .whitespaces).isEmpty {
                throw CLIError.usage(
                    command: Self.spec.name,
                    input: "\(key) \(Formatting.quoted(value))",
                    message: "must not be empty"
                )
            }
        }
        scenario = arguments.value("--scenario")
        stubName = arguments.value("--name")
        redacts = !arguments.has("--no-redact")
        strict = arguments.has("--strict")
        listsWarnings = arguments.has("--warnings")
        if mocksPath.isEmpty {
            throw CLIError.usage(command: Self.spec.name, input: "--to \"\"", message: "must name a file")
        }
    }

    /// Reads the HAR, chooses the entry, makes the stub and adds it to the mocks file.
    ///
    /// - Parameter environment: Outputs and working directory.
    /// - Returns: ``ExitCode/success``.
    /// - Throws: ``CLIError``: exit 1 naming the HAR file (and the JSON path) when it is missing or invalid,
    ///   naming the entry (`$.log.entries[N]`) when it cannot become a stub, naming the mocks file (and the
    ///   JSON path) when it is invalid or cannot be written; exit 2 when `--entry` is out of range, `--match`
    ///   finds no entry or several, or the HAR holds several entries and neither was given.
    package func run(in environment: CommandEnvironment) async throws(CLIError) -> ExitCode {
        let command = Self.spec.name
        let harURL = environment.fileURL(harPath)
        if let reason = Formatting.unreadableFileReason(harURL) {
            throw CLIError.failure(command: command, input: harPath, message: reason)
        }
        let document = try HARInput.load(
            harURL,
            path: harPath,
            command: command,
            strict: strict,
            listsWarnings: listsWarnings,
            in: environment
        )
        let index = try chooseEntry(in: document.log)
        let entry = document.log.entries[index].asRequestedByTheApp
        let place = "$.log.entries[\(document.log.filePosition(ofEntry: index))]"
        let stub: Stub
        let redactor = redacts ? (environment.configuredRedactor ?? .default) : .disabled
        do {
            stub = try Stub(recording: entry, name: stubName, redactor: redactor, in: document)
        } catch {
            throw CLIError.failure(command: command, input: "\(harPath): \(place)", message: "\(error)")
        }
        let fileNote = try save(stub, environment)
        let shownURL =
            redacts
            ? redactor.redactedURL(of: entry, sweeping: redactor.secrets(of: document.log.entries)) : entry.request.url
        environment.standardOutput.write(
            """
            Saved \(harPath) \(place) as stub "\(stub.name)" in \(target) of \(mocksPath)\(fileNote)
              request:  \(entry.request.method) \(shownURL)
              match:    \(stub.matcher.description)
              response: \(Self.answerText(of: stub, recordedIn: entry))
              secrets:  \(redacts ? "redacted (use --no-redact to keep them)" : "kept (--no-redact)")

            """
        )
        return .success
    }

    /// Where the stub goes, in words: `scenario "NAME"` or `the base stubs`.
    private var target: String {
        scenario.map { "scenario \"\($0)\"" } ?? "the base stubs"
    }

    /// Adds the stub to the mocks file (replacing a stub of the same name in that place).
    /// - Returns: What happened to the file, for the confirmation: ` (new file)`, a replacement or the new count.
    private func save(_ stub: Stub, _ environment: CommandEnvironment) throws(CLIError) -> String {
        let mocksURL = environment.fileURL(mocksPath)
        let existed = FileManager.default.fileExists(atPath: mocksURL.path)
        // Whether the file already has a stub of this name in that place (it is replaced, not duplicated).
        let previous = existed ? try? MockConfiguration.load(contentsOf: mocksURL) : nil
        let siblings =
            scenario.map { name in previous?.scenarios.first { $0.name == name }?.stubs ?? [] }
            ?? previous?.stubs ?? []
        let replaces = siblings.contains { $0.name == stub.name }
        let stubCount = siblings.count + (replaces ? 0 : 1)
        do {
            try MockConfiguration.append(stub, toScenario: scenario, inFileAt: mocksURL)
        } catch let error as ConfigurationError {
            let location = error.line.map { line in "\(line):\(error.column ?? 0)" } ?? error.path
            let message = location.isEmpty ? error.message : "\(location): \(error.message)"
            throw CLIError.failure(command: Self.spec.name, input: mocksPath, message: message)
        } catch {
            throw CLIError.failure(
                command: Self.spec.name,
                input: mocksPath,
                message: Formatting.unwritableFileReason(mocksURL, error: error)
            )
        }
        return !existed
            ? " (new file)"
            : replaces
                ? " (replacing the stub of that name; \(stubCount) stub\(stubCount == 1 ? "" : "s") there)"
                : " (\(stubCount) stubs there now)"
    }

    /// The stub's answer, in words: status, type and the saved body's size, or the recorded error.
    private static func answerText(of stub: Stub, recordedIn entry: HAREntry) -> String {
        if case .single(let response) = stub.responses, let code = response.failure {
            return "error \(URLErrorNames.name(of: code) ?? "code") (URLError \(code.rawValue)), as recorded"
        }
        // The body as saved (redaction may have rewritten it), as `mock list` shows it.
        var bodySize = 0
        if case .single(let response) = stub.responses, case .data(let data) = response.body { bodySize = data.count }
        let mimeType = entry.response.content.mimeType.isEmpty ? "" : ", \(entry.response.content.mimeType)"
        return "\(entry.response.status)\(mimeType), \(bodySize) bytes"
    }

    /// The index in `log.entries` of the chosen entry; `--entry` and the entries listed are positions in the
    /// file's `log.entries`, counting entries left out while reading.
    private func chooseEntry(in log: HARLog) throws(CLIError) -> Int {
        let command = Self.spec.name
        let entries = log.entries
        let fileCount = log.fileEntryCount
        let count = entries.count == 1 ? "1 entry" : "\(entries.count) entries"
        switch selection {
        case .index(let position):
            guard position < fileCount else {
                let range = fileCount == 0 ? "it has none" : "valid: 0 to \(fileCount - 1)"
                let total = fileCount == 1 ? "1 entry" : "\(fileCount) entries"
                throw CLIError.usage(
                    command: command,
                    input: "--entry \(position)",
                    message: "out of range: \(harPath) has \(total) (\(range))"
                )
            }
            guard let index = log.entryIndex(atFilePosition: position) else {
                throw CLIError.failure(
                    command: command,
                    input: "\(harPath): $.log.entries[\(position)]",
                    message: "not a HAR entry NetTap could read (left out: see the warning); choose another --entry"
                )
            }
            return index
        case .urlContaining(let text):
            let found = entries.indices.filter { entries[$0].request.url.contains(text) }
            guard let first = found.first else {
                throw CLIError.usage(
                    command: command,
                    input: "--match \(Formatting.quoted(text))",
                    message: "no request URL among the \(count) of \(harPath) contains it"
                )
            }
            guard found.count == 1 else {
                throw CLIError.usage(
                    command: command,
                    input: "--match \(Formatting.quoted(text))",
                    message: "\(found.count) entries of \(harPath) match (\(Self.list(found, of: log, redacts))); "
                        + "choose one with --entry N"
                )
            }
            return first
        case .only:
            guard entries.count == 1 else {
                throw CLIError.usage(
                    command: command,
                    input: harPath,
                    message: entries.isEmpty
                        ? "has no entries"
                        : "has \(count) (\(Self.list(Array(entries.indices), of: log, redacts))); "
                            + "choose one with --entry N or --match URL_SUBSTRING"
                )
            }
            return 0
        }
    }

    /// `0 GET https://a.example/, 2 GET https://b.example/x`, at most five, then `…`.
    ///
    /// URLs are shown as a redacted export shows them unless `--no-redact`.
    private static func list(_ indices: [Int], of log: HARLog, _ redacts: Bool) -> String {
        let redactor = redacts ? Redactor.default : .disabled
        let entries = log.entries
        let secrets = redactor.secrets(of: entries)
        let shown = indices.prefix(5).map {
            "\(log.filePosition(ofEntry: $0)) \(entries[$0].request.method) "
                + redactor.redactedURL(of: entries[$0], sweeping: secrets)
        }
        return shown.joined(separator: ", ") + (indices.count > 5 ? ", …" : "")
    }
}
