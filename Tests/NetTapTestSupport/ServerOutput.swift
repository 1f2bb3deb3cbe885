import Foundation
import NetTapCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the httpbin launcher has written so far: access-log lines from its standard output, error-log text
/// from its standard error, and whether both streams have ended.
///
/// Each stream is read on its own thread with blocking `read(2)` calls, so the pipes never fill up and block
/// gunicorn, and every line is seen as soon as gunicorn flushes it. Waiters register a condition on the
/// ``Snapshot``; a waiter is resumed by the reading thread that made its condition true, or by a
/// `DispatchQueue` timer when its timeout passes first (no polling).
///
/// Thread safety: every member may be used from any thread.
final class ServerOutput: @unchecked Sendable {
    /// The output seen so far.
    struct Snapshot: Sendable {
        /// The parsed access-log lines, oldest first.
        var lines: [HTTPBin.LogLine] = []
        /// The access-log lines per `X-Test-ID`, oldest first.
        var linesByTestID: [String: [HTTPBin.LogLine]] = [:]
        /// Standard-output lines that are not in the httpbin access-log format (such as the ``TLSFront``'s nginx
        /// access log), oldest first.
        var unparsedLines: [String] = []
        /// The error-log text (gunicorn's error log and anything the launcher printed).
        var errorText = ""
        /// `true` once standard output has reached end-of-file.
        var hasOutputEnded = false
        /// `true` once standard error has reached end-of-file.
        var hasErrorEnded = false

        /// `true` once both streams have ended: the launcher, gunicorn and its workers have all exited.
        var hasEnded: Bool { hasOutputEnded && hasErrorEnded }
    }

    private struct Waiter {
        var condition: @Sendable (Snapshot) -> Bool
        var continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var snapshot = Snapshot()
        var waiters: [UInt64: Waiter] = [:]
        var nextWaiterID: UInt64 = 0
    }

    private let state = Locked(State())
    /// The error log on disk, for reading while the server runs; written by the standard-error thread only.
    private let errorLog: FileHandle?

    /// Starts reading both pipes' read ends; the write ends belong to the launcher.
    ///
    /// - Parameters:
    ///   - output: The pipe the launcher's standard output (the access log) goes to.
    ///   - error: The pipe the launcher's standard error (the error log) goes to.
    ///   - errorLog: A file that receives a copy of everything read from `error`.
    init(output: Pipe, error: Pipe, errorLog: URL) {
        self.errorLog = try? FileHandle(forWritingTo: errorLog)
        read(output.fileHandleForReading, stream: .output)
        read(error.fileHandleForReading, stream: .error)
    }

    /// The output seen so far.
    var current: Snapshot {
        state.withLock { $0.snapshot }
    }

    /// Waits until `condition` holds for the output, or until `timeout` has passed.
    ///
    /// - Parameters:
    ///   - timeout: The longest wait.
    ///   - condition: Evaluated now and after every chunk read from either stream, while a lock is held:
    ///     keep it quick and free of side effects.
    /// - Returns: `true` when the condition held, `false` when the timeout passed first.
    func wait(timeout: Duration, until condition: @escaping @Sendable (Snapshot) -> Bool) async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let id: UInt64? = state.withLock { state in
                if condition(state.snapshot) { return nil }
                let id = state.nextWaiterID
                state.nextWaiterID += 1
                state.waiters[id] = Waiter(condition: condition, continuation: continuation)
                return id
            }
            guard let id else {
                continuation.resume(returning: true)
                return
            }
            let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
            DispatchQueue.global().asyncAfter(deadline: .now() + max(0, seconds)) { [state] in
                state.withLock { $0.waiters.removeValue(forKey: id) }?.continuation.resume(returning: false)
            }
        }
    }

    private enum Stream {
        case output, error
    }

    /// Reads `handle` until end-of-file on a dedicated thread, delivering complete lines as they arrive.
    private func read(_ handle: FileHandle, stream: Stream) {
        let thread = Thread { [self] in
            let descriptor = handle.fileDescriptor
            var pending: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = buffer.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                let hasEnded = count <= 0
                if !hasEnded {
                    pending.append(contentsOf: buffer[0..<count])
                }
                var lines: [String] = []
                var start = pending.startIndex
                while let newline = pending[start...].firstIndex(of: UInt8(ascii: "\n")) {
                    lines.append(String(decoding: pending[start..<newline], as: UTF8.self))
                    start = newline + 1
                }
                pending.removeSubrange(..<start)
                if hasEnded, !pending.isEmpty {
                    lines.append(String(decoding: pending, as: UTF8.self))
                    pending.removeAll()
                }
                deliver(lines, from: stream, hasEnded: hasEnded)
                if hasEnded { break }
            }
            try? handle.close()
            if stream == .error { try? errorLog?.close() }
        }
        thread.name = stream == .output ? "httpbin access log" : "httpbin error log"
        thread.start()
    }

    /// Adds new lines to the snapshot and resumes every waiter whose condition now holds.
    private func deliver(_ lines: [String], from stream: Stream, hasEnded: Bool) {
        if stream == .error, !lines.isEmpty {
            errorLog?.write(Data(lines.map { $0 + "\n" }.joined().utf8))
        }
        let satisfied = state.withLock { state -> [CheckedContinuation<Bool, Never>] in
            switch stream {
            case .output:
                for text in lines {
                    guard let line = HTTPBin.LogLine(parsing: Substring(text)) else {
                        if !text.isEmpty { state.snapshot.unparsedLines.append(text) }
                        continue
                    }
                    state.snapshot.lines.append(line)
                    if let id = line.testID {
                        state.snapshot.linesByTestID[id, default: []].append(line)
                    }
                }
                if hasEnded { state.snapshot.hasOutputEnded = true }
            case .error:
                for text in lines {
                    state.snapshot.errorText += text + "\n"
                }
                if hasEnded { state.snapshot.hasErrorEnded = true }
            }
            let snapshot = state.snapshot
            let ready = state.waiters.filter { $0.value.condition(snapshot) }
            for id in ready.keys {
                state.waiters.removeValue(forKey: id)
            }
            return ready.values.map(\.continuation)
        }
        for continuation in satisfied {
            continuation.resume(returning: true)
        }
    }
}

#if canImport(Glibc)
private let systemRead = Glibc.read
#elseif canImport(Darwin)
private let systemRead = Darwin.read
#endif
