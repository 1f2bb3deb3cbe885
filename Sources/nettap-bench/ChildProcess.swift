import Dispatch
import Foundation

/// What a child process measured, printed by the child as one line of JSON and parsed by the parent.
struct ChildReport: Codable, Sendable {
    /// `direct` or `nettap` (throughput children: also `floor` or `peer`).
    var variant: String
    /// `download`, `resources` or `throughput`.
    var scenario: String
    /// For downloads: `delegate` or `completion`.
    var mode: String?
    /// Response body bytes received in the measured part.
    var bytes: Int64
    /// Requests sent in the measured part.
    var requests: Int
    /// Wall-clock seconds of the measured part.
    var seconds: Double
    /// `VmRSS` just before the measured part, in bytes.
    var baselineResidentBytes: Int64
    /// `VmHWM` at the end, in bytes: the peak since the baseline when ``peakWasReset``, else since start.
    var peakResidentBytes: Int64
    /// `VmRSS` at the end, in bytes.
    var endResidentBytes: Int64
    /// Whether the peak was reset to the baseline through `/proc/self/clear_refs`.
    var peakWasReset: Bool
    /// Open file descriptors just before the measured part.
    var fileDescriptorsBefore: Int
    /// Open file descriptors at the end.
    var fileDescriptorsAfter: Int
    /// Open file descriptors by kind just before the measured part (see `ProcessMetrics.openFileDescriptorKinds`).
    var fileDescriptorKindsBefore: [String: Int] = [:]
    /// Open file descriptors by kind at the end.
    var fileDescriptorKindsAfter: [String: Int] = [:]
    /// Transactions kept by NetTap's capture log at the end (`nil` for direct).
    var capturedTransactions: Int?
    /// This process's CPU time (user + system) over the measured part, in seconds (throughput children).
    var cpuSeconds: Double?

    /// The peak resident growth over the baseline, in bytes.
    var peakResidentDelta: Int64 { peakResidentBytes - baselineResidentBytes }
    /// The resident growth from the baseline to the end, in bytes.
    var residentDelta: Int64 { endResidentBytes - baselineResidentBytes }
    /// The growth in open file descriptors from the baseline to the end.
    var fileDescriptorDelta: Int { fileDescriptorsAfter - fileDescriptorsBefore }

    /// The kinds whose count changed, for example `+1 socket`; empty when none did.
    var fileDescriptorKindChanges: String {
        let kinds = Set(fileDescriptorKindsBefore.keys).union(fileDescriptorKindsAfter.keys).sorted()
        return kinds.compactMap { kind in
            let change = (fileDescriptorKindsAfter[kind] ?? 0) - (fileDescriptorKindsBefore[kind] ?? 0)
            return change == 0 ? nil : (change > 0 ? "+" : "") + "\(change) \(kind)"
        }
        .joined(separator: ", ")
    }
}

/// Runs this executable again as a child (`nettap-bench child …`) so each variant gets a process of its own,
/// and therefore its own peak RSS and descriptor table.
enum ChildProcess {
    /// Runs one child to completion and parses its report.
    /// - Parameter arguments: The arguments after `child`, for example `["download", "--mode", "delegate", …]`.
    /// - Returns: The child's report.
    /// - Throws: ``BenchError`` when the child cannot start, exits with a non-zero status or a signal, or prints
    ///   no parsable report.
    static func run(_ arguments: [String]) async throws -> ChildReport {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try runBlocking(arguments) })
            }
        }
    }

    private static func runBlocking(_ arguments: [String]) throws -> ChildReport {
        let process = Process()
        process.executableURL = executableURL()
        process.arguments = ["child"] + arguments
        let output = Pipe()
        process.standardOutput = output
        do {
            try process.run()
        } catch {
            throw BenchError("could not start child \(arguments.joined(separator: " ")): \(error)")
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let command = "child " + arguments.joined(separator: " ")
        guard process.terminationReason == .exit else {
            throw BenchError("\(command): killed by signal \(process.terminationStatus)")
        }
        guard process.terminationStatus == 0 else {
            throw BenchError("\(command): exit status \(process.terminationStatus)")
        }
        let text = String(decoding: data, as: UTF8.self)
        guard let line = text.split(separator: "\n").last(where: { $0.hasPrefix("{") }) else {
            throw BenchError("\(command): printed no report")
        }
        do {
            return try JSONDecoder().decode(ChildReport.self, from: Data(line.utf8))
        } catch {
            throw BenchError("\(command): unreadable report \(line): \(error)")
        }
    }

    /// This executable: `/proc/self/exe` resolved, else the path it was started with.
    private static func executableURL() -> URL {
        let proc = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        if proc.path != "/proc/self/exe", FileManager.default.isExecutableFile(atPath: proc.path) {
            return proc
        }
        let argument = CommandLine.arguments.first ?? "nettap-bench"
        return URL(fileURLWithPath: argument).standardizedFileURL
    }
}
