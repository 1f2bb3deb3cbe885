import Foundation
import NetTapHAR

/// Reads the HAR file a command was given: one error line naming the file and the place when it is not HAR,
/// and the values read leniently either counted on standard error or, with `--strict`, refused.
enum HARInput {
    /// The `--strict` option of the commands that read HAR files.
    static let strictOption = OptionSpec(
        names: ["--strict"],
        help: "Refuses a HAR file with values NetTap would read leniently (null or a string where HAR 1.2 has a "
            + "number or date, a number where it has text, an object where it has an array, a missing time or "
            + "response) instead of counting them."
    )

    /// The `--warnings` option of the commands that read HAR files.
    static let warningsOption = OptionSpec(
        names: ["--warnings"],
        help: "Lists every value read leniently on standard error, one per line with its JSON path, instead of "
            + "counting them."
    )

    /// The document in `url`.
    ///
    /// - Parameters:
    ///   - url: The file.
    ///   - path: The path as typed, for messages.
    ///   - command: The command name, for messages.
    ///   - strict: Whether values read leniently make the file an error.
    ///   - listsWarnings: Whether every value read leniently is listed (`--warnings`) rather than counted.
    ///   - environment: Standard error, for the count of lenient values.
    /// - Returns: The document.
    /// - Throws: ``CLIError`` (exit 1) naming the file and the place: not JSON (line and column), not HAR (JSON
    ///   path), or, with `strict`, the first value read leniently.
    static func load(
        _ url: URL,
        path: String,
        command: String,
        strict: Bool,
        listsWarnings: Bool = false,
        in environment: CommandEnvironment
    ) throws(CLIError) -> HARDocument {
        var warnings: [HARWarning] = []
        let document: HARDocument
        do {
            document = try HARDocument.load(contentsOf: url, warnings: &warnings)
        } catch {
            // Name the file as typed; the HAR error adds where in it (JSON path, or line and column).
            let place = error.line.map { line in "\(line):\(error.column ?? 0)" } ?? error.path
            throw CLIError.failure(
                command: command,
                input: path,
                message: place.isEmpty ? error.message : "\(place): \(error.message)"
            )
        }
        guard let first = warnings.first else { return document }
        let more = warnings.count == 1 ? "" : " (and \(warnings.count - 1) more)"
        if strict {
            throw CLIError.failure(
                command: command,
                input: path,
                message:
                    "\(first.path): \(first.problem)\(more); not HAR 1.2 as written (read leniently without --strict)"
            )
        }
        let count = warnings.count == 1 ? "1 value" : "\(warnings.count) values"
        if listsWarnings {
            environment.standardError.write(
                "nettap: \(command): \(path): \(count) read leniently, not as HAR 1.2 writes them:\n"
                    + warnings.map { "  \($0)\n" }.joined()
            )
            return document
        }
        environment.standardError.write(
            "nettap: \(command): \(path): \(count) read leniently, not as HAR 1.2 writes them; first: \(first)"
                + " (--warnings lists them all; --strict refuses such files)\n"
        )
        return document
    }
}
