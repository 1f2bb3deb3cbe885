import Foundation
import NetTapCore

/// The bytes a stub answers with: in memory, a JSON value, or a file streamed from disk.
///
/// A file body is never loaded whole: it is read in 64 KiB chunks on a background queue while the app
/// consumes it, and reading stops when the request is cancelled.
public enum StubBody: Sendable, Hashable {
    /// Bytes in memory (also used for text, UTF-8 encoded).
    case data(Data)
    /// A JSON value, sent as compact UTF-8 JSON with sorted keys; the stub adds
    /// `Content-Type: application/json` unless its headers name a type.
    case json(JSONValue)
    /// A file whose bytes are streamed; `Content-Length` comes from its size when the request is answered.
    case file(URL)

    /// An empty body.
    public static var empty: StubBody { .data(Data()) }

    /// A UTF-8 text body.
    ///
    /// - Parameter text: The text.
    /// - Returns: A ``data(_:)`` body with the UTF-8 bytes.
    public static func text(_ text: String) -> StubBody {
        .data(Data(text.utf8))
    }
}
