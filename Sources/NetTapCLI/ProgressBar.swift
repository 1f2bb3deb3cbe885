import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A one-line progress bar on standard error for long imports and reports, drawn only when standard error is a
/// terminal.
///
/// ```
/// importing capture.sqlite [##########----------]  50%
/// ```
///
/// Whether standard error is a terminal is decided once per run by ``NetTapCLI/main(arguments:stdout:stderr:)``
/// (`isatty(2)`); runs through ``NetTapCLI/run(arguments:in:)`` (tests, embedding) draw nothing, so their
/// standard error holds only diagnostics. The bar redraws in place with `\r` and erases itself when done.
struct ProgressBar {
    /// Whether the process's standard error is a terminal; `false` unless `NetTapCLI.main` found one.
    @TaskLocal static var isStandardErrorTerminal = false

    /// Whether standard error (file descriptor 2) is a terminal.
    static var processStandardErrorIsTerminal: Bool { isatty(2) == 1 }

    private let output: CommandOutput
    private let label: String
    /// Whether anything is drawn.
    let isEnabled: Bool
    private static let width = 24

    /// Creates a bar for a step such as `importing capture.har`.
    init(_ label: String, output: CommandOutput, isEnabled: Bool = ProgressBar.isStandardErrorTerminal) {
        self.label = label
        self.output = output
        self.isEnabled = isEnabled
    }

    /// The text of the bar at a fraction from 0 to 1, without `\r`.
    static func line(_ label: String, fraction: Double) -> String {
        let clamped = min(1, max(0, fraction.isFinite ? fraction : 0))
        let filled = Int((clamped * Double(width)).rounded(.down))
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        let percent = String(Int((clamped * 100).rounded(.down)))
        return "\(label) [\(bar)] \(String(repeating: " ", count: 3 - percent.count))\(percent)%"
    }

    /// Draws the bar at a fraction from 0 to 1.
    func update(_ fraction: Double) {
        guard isEnabled else { return }
        output.write("\r" + Self.line(label, fraction: fraction))
    }

    /// Erases the bar's line.
    func finish() {
        guard isEnabled else { return }
        output.write("\r\u{1B}[2K")
    }
}
