import Foundation
import NetTapCore

/// Where a command writes: standard output, standard error, or a buffer in tests.
///
/// ```swift
/// let buffer = CommandOutput.Buffer()
/// let output = CommandOutput(buffer)
/// output.write("hello\n")
/// buffer.text  // "hello\n"
/// ```
///
/// Thread safety: writes may come from any thread; each write is passed on whole.
public struct CommandOutput: Sendable {
    private let sink: @Sendable (Data) -> Void

    /// Creates an output that hands every write to `sink`.
    ///
    /// - Parameter sink: Receives the bytes of each write.
    package init(_ sink: @escaping @Sendable (Data) -> Void) {
        self.sink = sink
    }

    /// Creates an output that appends to a buffer.
    ///
    /// - Parameter buffer: The buffer to append to.
    package init(_ buffer: Buffer) {
        self.sink = { buffer.append($0) }
    }

    /// The process's standard output.
    public static let standardOutput = CommandOutput { FileHandle.standardOutput.write($0) }
    /// The process's standard error.
    public static let standardError = CommandOutput { FileHandle.standardError.write($0) }

    /// Writes text, encoded as UTF-8.
    ///
    /// - Parameter text: The text; include the newline.
    package func write(_ text: String) {
        sink(Data(text.utf8))
    }

    /// Writes bytes as they are.
    ///
    /// - Parameter data: The bytes.
    package func write(_ data: Data) {
        sink(data)
    }

    /// Collects everything written to it, for tests and for running commands in-process.
    ///
    /// Thread safety: every member may be used from any thread.
    package final class Buffer: Sendable {
        private typealias Waiter = (until: @Sendable (String) -> Bool, continuation: CheckedContinuation<String, Never>)
        private let bytes = Locked(Data())
        private let waiters = Locked<[Waiter]>([])

        /// Creates an empty buffer.
        package init() {}

        /// Appends bytes.
        ///
        /// - Parameter data: The bytes.
        package func append(_ data: Data) {
            let text = bytes.withLock { bytes in
                bytes.append(data)
                return String(decoding: bytes, as: UTF8.self)
            }
            let ready = waiters.withLock { waiters in
                let ready = waiters.filter { $0.until(text) }
                waiters.removeAll { $0.until(text) }
                return ready
            }
            for waiter in ready { waiter.continuation.resume(returning: text) }
        }

        /// The text once `until` holds for it (at once if it already does), for a test that waits on a running
        /// command's output.
        package func text(until: @escaping @Sendable (String) -> Bool) async -> String {
            await withCheckedContinuation { continuation in
                let now = waiters.withLock { waiters -> String? in
                    let text = String(decoding: bytes.current, as: UTF8.self)
                    if until(text) { return text }
                    waiters.append((until, continuation))
                    return nil
                }
                if let now { continuation.resume(returning: now) }
            }
        }

        /// Everything written so far.
        package var data: Data { bytes.current }

        /// Everything written so far, decoded as UTF-8 (invalid bytes replaced).
        package var text: String { String(decoding: data, as: UTF8.self) }
    }
}
