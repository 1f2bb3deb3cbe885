import Foundation

/// A response body: an asynchronous sequence of `Data` chunks with a known or unknown length.
///
/// Bodies are streamed so that a 1 GiB download is never held whole by NetTap. A handler that answers
/// with bytes it already has uses ``data(_:)``; the forwarding transport produces a streamed body.
///
/// A body can be iterated once. ``collect(upTo:)`` gathers it into memory.
public struct ResponseBody: AsyncSequence, Sendable {
    /// One chunk of body bytes.
    public typealias Element = Data

    /// The length of the body in bytes when known in advance (for example from `Content-Length`
    /// of a decoded body), otherwise `nil`.
    public let expectedLength: Int64?

    package let channel: BodyChannel

    /// An empty body.
    public static var empty: ResponseBody { .data(Data()) }

    /// A body made of bytes already in memory, delivered as one chunk.
    /// - Parameter data: The body bytes.
    /// - Returns: A body whose ``expectedLength`` is `data.count`.
    public static func data(_ data: Data) -> ResponseBody {
        let channel = BodyChannel()
        if !data.isEmpty { channel.send(data) }
        channel.finish()
        return ResponseBody(channel: channel, expectedLength: Int64(data.count))
    }

    /// A body made of a UTF-8 string.
    /// - Parameter string: The text; encoded as UTF-8.
    /// - Returns: A body whose ``expectedLength`` is the UTF-8 byte count.
    public static func string(_ string: String) -> ResponseBody {
        .data(Data(string.utf8))
    }

    /// A streamed body fed by a writer.
    ///
    /// ```swift
    /// let body = ResponseBody.stream(expectedLength: nil) { writer in
    ///     writer.write(Data("hello ".utf8))
    ///     writer.write(Data("world".utf8))
    ///     writer.finish()
    /// }
    /// ```
    /// - Parameters:
    ///   - expectedLength: The total length in bytes when known, else `nil`.
    ///   - produce: Called once, synchronously, with the writer; it may keep the writer and write later.
    /// - Returns: The body.
    public static func stream(
        expectedLength: Int64?,
        _ produce: (BodyWriter) -> Void
    ) -> ResponseBody {
        let channel = BodyChannel()
        produce(BodyWriter(channel: channel))
        return ResponseBody(channel: channel, expectedLength: expectedLength)
    }

    package init(channel: BodyChannel, expectedLength: Int64?) {
        self.channel = channel
        self.expectedLength = expectedLength
    }

    /// Creates the iterator; a body can be iterated once.
    public func makeAsyncIterator() -> Iterator {
        Iterator(channel: channel)
    }

    /// Reads the whole body into memory.
    /// - Parameter limit: The most bytes to keep; later bytes are read and dropped. `nil` keeps all.
    /// - Returns: The bytes kept.
    /// - Throws: The error that ended the body, for example a `URLError` from the network, or
    ///   `CancellationError` when the surrounding task is cancelled.
    public func collect(upTo limit: Int? = nil) async throws -> Data {
        var result = Data()
        for try await chunk in self {
            if let limit {
                let room = Swift.max(0, limit - result.count)
                if room > 0 { result.append(chunk.prefix(room)) }
            } else {
                result.append(chunk)
            }
        }
        return result
    }

    /// The iterator over a body's chunks.
    public struct Iterator: AsyncIteratorProtocol {
        let channel: BodyChannel

        /// The next chunk, or `nil` at the end of the body.
        /// - Throws: The error that ended the body.
        public mutating func next() async throws -> Data? {
            try await channel.next()
        }
    }
}

/// Writes the chunks of a streamed ``ResponseBody``.
///
/// Thread safety: a writer may be used from any thread, but writes from several threads at once have
/// no defined order.
public struct BodyWriter: Sendable {
    let channel: BodyChannel

    /// Appends a chunk to the body.
    ///
    /// Empty chunks are ignored; writes after ``finish(throwing:)`` are dropped.
    /// - Parameter data: The bytes.
    public func write(_ data: Data) {
        channel.send(data)
    }

    /// Ends the body, normally or with an error that the reader receives after the chunks already written.
    /// - Parameter error: The error to end with, or `nil` for a normal end.
    public func finish(throwing error: (any Error)? = nil) {
        channel.finish(throwing: error)
    }

    /// Whether the reader has gone away (cancelled), so that producing more is pointless.
    public var isCancelled: Bool { channel.isCancelled }

    /// Registers what to do when the reader goes away, for example cancel the task that produces the body.
    ///
    /// The app cancelling its request, a request timeout and a body that may not be delivered (a response to
    /// `HEAD`, a 204 or 304) all cancel the reader. Runs at once when the reader is already gone; a later
    /// registration replaces an earlier one.
    ///
    /// ```swift
    /// ResponseBody.stream(expectedLength: nil) { writer in
    ///     let producer = Task {
    ///         for chunk in chunks {
    ///             try await context.clock.sleep(for: .milliseconds(100))   // paced
    ///             writer.write(chunk)
    ///         }
    ///         writer.finish()
    ///     }
    ///     writer.onCancel { producer.cancel() }
    /// }
    /// ```
    /// - Parameter action: Run once, on the thread that cancels.
    public func onCancel(_ action: @escaping @Sendable () -> Void) {
        channel.onCancel(action)
    }
}
