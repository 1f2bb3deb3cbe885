#if canImport(CNetTapCurl)
import Foundation

/// The request body as FoundationNetworking classifies it (`URLSessionTask._Body`), which decides the upload
/// options and some headers.
///
/// A data task's empty `httpBody` counts as no body; an upload task's data or file always counts, even when
/// empty; a stream (`httpBodyStream`, or an upload task's stream) has no known length and goes chunked.
enum CurlRequestBody: Sendable {
    case none
    /// Bytes of known length; `fromUploadTask` when they came from an upload task rather than `httpBody`.
    case data(Data, fromUploadTask: Bool)
    /// Bytes that the app gave as a stream, sent with unknown length.
    case stream(Data)

    /// Classifies a resolved request's body.
    /// - Parameters:
    ///   - body: The bytes NetTap read.
    ///   - wasStream: Whether they came from a stream.
    ///   - fromUploadTask: Whether they came from an upload task's data or file.
    init(body: Data?, wasStream: Bool, fromUploadTask: Bool) {
        guard let body else {
            self = .none
            return
        }
        if wasStream {
            self = .stream(body)
        } else if fromUploadTask || !body.isEmpty {
            self = .data(body, fromUploadTask: fromUploadTask)
        } else {
            self = .none
        }
    }

    /// The bytes to send, if any.
    var bytes: Data? {
        switch self {
        case .none: return nil
        case .data(let data, _), .stream(let data): return data
        }
    }

    /// Whether the platform knows a body for the task (it then removes libcurl's `Expect` header).
    var isKnown: Bool {
        if case .none = self { return false }
        return true
    }
}
#endif
