import Foundation

/// A fault inside a response body: the head arrives, then the connection fails after some body bytes, as a
/// misbehaving server or a bad network makes it fail.
///
/// Each fault gives the app exactly what the real one gives (measured against a loopback server that does the same
/// thing, platform-notes §15): a delegate receives the head and the bytes before the fault, then the error;
/// async and completion-handler callers get the error alone.
///
/// | fault | on the wire | the app gets (FoundationNetworking) |
/// | --- | --- | --- |
/// | ``dropConnection(afterBytes:)`` | a TCP reset | `-1005` "Recv failure: Connection reset by peer" |
/// | ``truncate(afterBytes:)`` | a normal close before the end | `-1` "transfer closed with N bytes remaining to read" (`-1005` on Apple platforms) |
/// | ``stall(afterBytes:)`` | silence | `-1001` from the request's own idle timeout, when it comes due |
///
/// A stall sets no timer of its own: the request's timeout (`timeoutInterval`, or the session's
/// `timeoutIntervalForRequest`) fails it on the interceptor's clock, as the platform's idle timer fails a silent
/// server; with no timeout it waits until the app cancels.
///
/// The fault happens when the body has `afterBytes` bytes and more would follow. A body that ends first is not
/// touched, as a server that finished before the fault: a body of known length no longer than `afterBytes`, or
/// a streamed body of unknown length (framed as chunked) that ends by then.
///
/// ```swift
/// StubResponse.data(photo).withFault(.dropConnection(afterBytes: 4096))   // -1005 after 4 KiB
/// NetworkProfile(fault: .stall(afterBytes: 0))    // every head arrives, then no byte until the timeout
/// ```
public enum BodyFault: Sendable, Hashable, CustomStringConvertible {
    /// The connection is reset (TCP RST) after `afterBytes` body bytes: `URLError(.networkConnectionLost)`.
    case dropConnection(afterBytes: Int64)
    /// The server closes the connection normally after `afterBytes` body bytes, short of the body's end: the
    /// platform's "transfer closed" error (`-1` on FoundationNetworking, `-1005` on Apple platforms).
    case truncate(afterBytes: Int64)
    /// The server sends `afterBytes` body bytes, then nothing: the request's own timeout fails it with
    /// `URLError(.timedOut)`.
    case stall(afterBytes: Int64)

    /// The body bytes delivered before the fault; a negative count counts as 0.
    public var afterBytes: Int64 {
        switch self {
        case .dropConnection(let bytes), .truncate(let bytes), .stall(let bytes): max(0, bytes)
        }
    }

    /// The fault's name in configuration files: `drop-connection`, `truncate` or `stall`.
    public var typeName: String {
        switch self {
        case .dropConnection: "drop-connection"
        case .truncate: "truncate"
        case .stall: "stall"
        }
    }

    /// `connection dropped after 400 bytes`, `truncated after 400 bytes`, `stalls after the head`.
    public var description: String {
        let bytes = afterBytes == 0 ? "the head" : "\(afterBytes) byte\(afterBytes == 1 ? "" : "s")"
        switch self {
        case .dropConnection: return "connection dropped after \(bytes)"
        case .truncate: return "truncated after \(bytes)"
        case .stall: return "stalls after \(bytes)"
        }
    }
}
