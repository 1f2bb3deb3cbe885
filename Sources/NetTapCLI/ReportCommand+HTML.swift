import Foundation
import NetTapCore
import NetTapReport

extension ReportCommand {
    /// Writes the self-contained HTML report of the file (`--html OUT.html`), redacted with the default rules
    /// (unless `--no-redact`, which the page then says), and prints `HTML report: PATH` (to standard error with
    /// `--json`, so standard output stays JSON).
    func writeHTML(to output: String, in environment: CommandEnvironment) async throws(CLIError) {
        let transactions = try await CaptureFile.transactions(path, command: "report", in: environment)
        let url = environment.fileURL(output)
        let progress = ProgressBar("rendering \(url.lastPathComponent)", output: environment.standardError)
        progress.update(0)
        let report = HTMLReport(
            transactions: transactions,
            title: URL(fileURLWithPath: path).lastPathComponent,
            redactor: redacts ? .default : .disabled
        )
        let html = report.render()
        progress.update(0.9)
        do {
            try Data(html.utf8).write(to: url, options: .atomic)
        } catch {
            progress.finish()
            throw CLIError.failure(
                command: "report",
                input: "--html \(output)",
                message: Formatting.unwritableFileReason(url, error: error)
            )
        }
        progress.update(1)
        progress.finish()
        let line = "HTML report: \(url.standardizedFileURL.path)\n"
        (printsJSON ? environment.standardError : environment.standardOutput).write(line)
    }
}
