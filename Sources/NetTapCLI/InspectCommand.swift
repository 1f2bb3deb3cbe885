import Foundation
import NetTapCore
import NetTapInspector

/// `nettap inspect FILE.(har|sqlite) [--port N] [--address A] [--no-redact]`: serves a recorded capture to Chrome
/// DevTools' Network panel as a running app's inspector does, until interrupted (Ctrl-C).
///
/// It prints the `devtools://` URL to open and the discovery address for `chrome://inspect`. The transactions are
/// redacted together with the default rules (a value redacted anywhere is redacted wherever it appears) unless
/// `--no-redact`. DevTools' throttling and blocking have nothing to act on and are answered without effect.
///
/// Exit codes: 0 after an interrupt, 1 the file is missing, not HAR or not a readable store, or the port is in
/// use, 2 usage error.
package struct InspectCommand: Command {
    /// The command's description.
    package static let spec = CommandSpec(
        name: "inspect",
        summary: "Serves a HAR file or NetTap store to Chrome DevTools' Network panel, as a live app's inspector.",
        positionals: [
            PositionalSpec(name: "FILE.(har|sqlite)", help: "The HAR 1.2 file, or NetTap SQLite store, to show.")
        ],
        options: [
            OptionSpec(names: ["--port"], valueName: "N", help: "The port to listen on (default 0: a free one)."),
            OptionSpec(
                names: ["--address"],
                valueName: "IPv4",
                help: "The address to listen on (default 127.0.0.1); another exposes the capture to the network."
            ),
            OptionSpec(names: ["--no-redact"], help: "Shows secrets as recorded instead of redacting them."),
            HARInput.strictOption,
            HARInput.warningsOption,
        ],
        discussion: """
            Open the printed devtools:// URL in Chrome, Edge or Brave, or add the printed address under
            chrome://inspect → Configure (Discover network targets): the capture appears as a target.
            Every request is shown with its headers, timing, bodies and who answered (initiator). Runs
            until interrupted (Ctrl-C). Exit codes: 1 missing or invalid file, or the port in use; 2 usage
            error.
            """
    )

    /// The file, as typed.
    package var path: String
    /// The port; 0 for a free one.
    package var port: Int
    /// The address to listen on.
    package var address: String
    /// Whether secrets are redacted (no `--no-redact`).
    package var redacts: Bool
    /// Whether a HAR file with values read leniently is refused (`--strict`).
    package var strict: Bool
    /// Whether every value read leniently is listed (`--warnings`).
    package var listsWarnings: Bool

    /// Creates the command from parsed arguments.
    ///
    /// - Parameter arguments: Parsed with ``spec``.
    /// - Throws: A usage ``CLIError`` for a port that is not a number from 0 to 65535.
    package init(arguments: ParsedArguments) throws(CLIError) {
        path = arguments.positionals.first ?? ""
        address = arguments.value("--address") ?? "127.0.0.1"
        redacts = !arguments.has("--no-redact")
        strict = arguments.has("--strict")
        listsWarnings = arguments.has("--warnings")
        let portText = arguments.value("--port") ?? "0"
        guard let port = Int(portText), (0...65_535).contains(port) else {
            throw CLIError.usage(
                command: "inspect",
                input: "--port \(Formatting.quoted(portText))",
                message: "must be a number from 0 to 65535"
            )
        }
        self.port = port
    }

    /// Reads the file, serves it, prints the URLs, and waits until the task is cancelled or the process interrupted.
    ///
    /// - Parameter environment: Outputs and working directory.
    /// - Returns: ``ExitCode/success`` once cancelled.
    /// - Throws: ``CLIError`` for a missing or invalid file, or a port in use.
    package func run(in environment: CommandEnvironment) async throws(CLIError) -> ExitCode {
        let read = try await CaptureFile.transactions(
            path,
            command: "inspect",
            strict: strict,
            listsWarnings: listsWarnings,
            in: environment
        )
        let transactions = redacts ? Redactor.default.redact(transactions: read).map(\.value) : read
        let inspector: DevToolsInspector
        do {
            inspector = try DevToolsInspector.serve(
                RecordedTraffic(transactions),
                controls: nil,
                title: URL(fileURLWithPath: path).lastPathComponent,
                address: address,
                port: port
            )
        } catch {
            throw CLIError.failure(
                command: "inspect",
                input: error.subject == .address ? "--address \(address)" : "--port \(port)",
                message: error.description
            )
        }
        defer { inspector.stop() }
        environment.standardOutput.write(
            "\(transactions.count) transactions from \(path)\(redacts ? "" : " (redaction off)")\n"
                + "DevTools: \(inspector.devToolsURL)\n"
                + "chrome://inspect → Configure: \(DevToolsInspector.authority(inspector.address, inspector.port))\n"
                + "page: \(inspector.controlPageURL.absoluteString)\n"
                + "serving until interrupted (Ctrl-C)\n"
        )
        await Self.waitUntilCancelled()
        return .success
    }

    /// Returns when the task running the command is cancelled (an interrupt ends the process before).
    static func waitUntilCancelled() async {
        let (stream, continuation) = AsyncStream<Never>.makeStream()
        await withTaskCancellationHandler {
            for await _ in stream {}
        } onCancel: {
            continuation.finish()
        }
    }
}
