import Foundation
import NetTapCore
import NetTapReport

extension ReportCommand {
    /// Writes the self-contained HTML report of the transactions (`--html OUT.html`), redacted with the default
    /// rules (unless `--no-redact`, which the page then says), and prints `HTML report: PATH` (to standard error
    /// with `--json`, so standard output stays JSON).
    ///
    /// The progress bar follows ``HTMLReport/render(progress:)`` step by step (statistics, redacting, encoding,
    /// assembling), then the write.
    func writeHTML(
        _ transactions: [CapturedTransaction],
        to output: String,
        in environment: CommandEnvironment
    ) throws(CLIError) {
        let url = environment.fileURL(output)
        let progress = ProgressBar("rendering \(url.lastPathComponent)", output: environment.standardError)
        defer { progress.finish() }
        progress.update(0)
        let report = HTMLReport(
            transactions: transactions,
            title: URL(fileURLWithPath: path).lastPathComponent,
            redactor: redacts ? .default : .disabled
        )
        // Rendering is 95 % of the bar, writing the file the rest.
        let html = report.render { progress.update($0.fraction * 0.95, step: $0.step.rawValue) }
        progress.update(0.95, step: "writing")
        do {
            try Data(html.utf8).write(to: url, options: .atomic)
        } catch {
            throw CLIError.failure(
                command: "report",
                input: "--html \(output)",
                message: Formatting.unwritableFileReason(url, error: error)
            )
        }
        progress.update(1, step: "written")
        progress.finish()
        let line = "HTML report: \(url.standardizedFileURL.path)\n"
        (printsJSON ? environment.standardError : environment.standardOutput).write(line)
    }
}
