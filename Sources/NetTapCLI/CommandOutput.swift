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
    public init(_ sink: @escaping @Sendable (Data) -> Void) {
        self.sink = sink
    }

    /// Creates an output that appends to a buffer.
    ///
    /// - Parameter buffer: The buffer to append to.
    public init(_ buffer: Buffer) {
        self.sink = { buffer.append($0) }
    }

    /// The process's standard output.
    public static let standardOutput = CommandOutput { FileHandle.standardOutput.write($0) }
    /// The process's standard error.
    public static let standardError = CommandOutput { FileHandle.standardError.write($0) }

    /// Writes text, encoded as UTF-8.
    ///
    /// - Parameter text: The text; include the newline.
    public func write(_ text: String) {
        sink(Data(text.utf8))
    }

    /// Writes bytes as they are.
    ///
    /// - Parameter data: The bytes.
    public func write(_ data: Data) {
        sink(data)
    }

    /// Collects everything written to it, for tests and for running commands in-process.
    ///
    /// Thread safety: every member may be used from any thread.
    public final class Buffer: Sendable {
        private let bytes = Locked(Data())

        /// Creates an empty buffer.
        public init() {}

        /// Appends bytes.
        ///
        /// - Parameter data: The bytes.
        public func append(_ data: Data) {
            bytes.withLock { $0.append(data) }
        }

        /// Everything written so far.
        public var data: Data { bytes.current }

        /// Everything written so far, decoded as UTF-8 (invalid bytes replaced).
        public var text: String { String(decoding: data, as: UTF8.self) }
    }
}
