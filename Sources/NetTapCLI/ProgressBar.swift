import Foundation
import NetTapCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A one-line progress bar on standard error for long imports and reports, drawn only when standard error is a
/// terminal.
///
/// ```
/// rendering report.html [############------------]  50% redacting · 3.2 s
/// ```
///
/// Whether standard error is a terminal is decided once per run by ``NetTapCLI/main(arguments:stdout:stderr:)``
/// (`isatty(2)`); runs through ``NetTapCLI/run(arguments:in:)`` (tests, embedding) draw nothing, so their
/// standard error holds only diagnostics. The bar redraws in place with `\r` and erases itself when done.
/// While it is drawn, it also redraws every ``tickInterval`` with the time elapsed, so a long step that cannot
/// report its progress (decoding one large JSON file) still visibly moves.
///
/// Thread safety: every member may be used from any thread; the ticking redraws come from a dispatch queue.
final class ProgressBar: Sendable {
    /// Whether the process's standard error is a terminal; `false` unless `NetTapCLI.main` found one.
    @TaskLocal static var isStandardErrorTerminal = false

    /// Whether standard error (file descriptor 2) is a terminal.
    static var processStandardErrorIsTerminal: Bool { isatty(2) == 1 }

    /// How often the bar redraws on its own with the elapsed time.
    static let tickInterval = DispatchTimeInterval.milliseconds(250)

    private struct State {
        var fraction = 0.0
        var step: String?
        var isDrawn = false
        var isFinished = false
        var timer: (any DispatchSourceTimer)?
    }

    private let output: CommandOutput
    private let label: String
    private let started = Date()
    private let tickInterval: DispatchTimeInterval?
    private let state = Locked(State())
    /// Whether anything is drawn.
    let isEnabled: Bool
    private static let width = 24

    /// Creates a bar for a step such as `importing capture.har`; `tickInterval` `nil` draws only on updates.
    init(
        _ label: String,
        output: CommandOutput,
        isEnabled: Bool = ProgressBar.isStandardErrorTerminal,
        tickInterval: DispatchTimeInterval? = ProgressBar.tickInterval
    ) {
        self.label = label
        self.output = output
        self.isEnabled = isEnabled
        self.tickInterval = tickInterval
    }

    deinit {
        state.withLock { $0.timer?.cancel() }
    }

    /// The text of the bar at a fraction from 0 to 1, without `\r`; with the step being done and the seconds
    /// elapsed when given.
    static func line(_ label: String, fraction: Double, step: String? = nil, elapsed: Double? = nil) -> String {
        let clamped = min(1, max(0, fraction.isFinite ? fraction : 0))
        let filled = Int((clamped * Double(width)).rounded(.down))
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        let percent = String(Int((clamped * 100).rounded(.down)))
        var line = "\(label) [\(bar)] \(String(repeating: " ", count: 3 - percent.count))\(percent)%"
        let notes = [step, elapsed.map { String(format: "%.1f s", $0) }].compactMap { $0 }
        if !notes.isEmpty { line += " " + notes.joined(separator: " · ") }
        return line
    }

    /// Draws the bar at a fraction from 0 to 1, naming the step being done (`redacting`) when given; the first
    /// call starts the ticking redraws.
    func update(_ fraction: Double, step: String? = nil) {
        guard isEnabled else { return }
        let shouldStart = state.withLock { state -> Bool in
            guard !state.isFinished else { return false }
            state.fraction = fraction
            if let step { state.step = step }
            defer { state.isDrawn = true }
            return state.timer == nil
        }
        if shouldStart { startTicking() }
        draw()
    }

    /// Stops the ticking and erases the bar's line.
    func finish() {
        guard isEnabled else { return }
        let wasDrawn = state.withLock { state -> Bool in
            state.timer?.cancel()
            state.timer = nil
            state.isFinished = true
            defer { state.isDrawn = false }
            return state.isDrawn
        }
        if wasDrawn { output.write("\r\u{1B}[2K") }
    }

    private func draw() {
        let elapsed = Date().timeIntervalSince(started)
        // The line is written under the lock, so a tick never overwrites a newer update or the erasure.
        state.withLock { state in
            guard !state.isFinished else { return }
            output.write(
                "\r\u{1B}[2K"
                    + Self.line(
                        label,
                        fraction: state.fraction,
                        step: state.step,
                        elapsed: elapsed >= 1 ? elapsed : nil
                    )
            )
        }
    }

    private func startTicking() {
        guard let tickInterval else { return }
        let timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
        timer.schedule(deadline: .now() + tickInterval, repeating: tickInterval)
        timer.setEventHandler { [weak self] in self?.draw() }
        let isKept = state.withLock { state -> Bool in
            guard state.timer == nil, !state.isFinished else { return false }
            state.timer = timer
            return true
        }
        if isKept { timer.resume() }
    }
}
