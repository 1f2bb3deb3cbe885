import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Turns the app's request into the request NetTap forwards: the body made visible and the caller
/// session's additional headers merged, exactly once.
///
/// Body sources, in order: `httpBody`; `httpBodyStream` (read once, here, and re-sent as a stream so the
/// wire looks the same); an upload task's data, file or stream. Reading may block, so this runs on a
/// global queue, never on URLSession's work queue.
enum RequestBodyResolver {
    struct Resolved {
        var request: URLRequest
        var body: Data?
        var bodyWasStream: Bool
    }

    /// What went wrong reading a body.
    struct ReadFailure: Error {
        var underlying: any Error
    }

    static func resolve(
        _ original: URLRequest,
        upload: CallerInfo.UploadBody,
        additionalHeaders: [AnyHashable: Any]?
    ) throws -> Resolved {
        var request = original
        if let additionalHeaders {
            for (key, value) in additionalHeaders {
                guard let name = key.base as? String, let value = value as? String else { continue }
                if request.value(forHTTPHeaderField: name) == nil {
                    request.setValue(value, forHTTPHeaderField: name)
                }
            }
        }
        var body = request.httpBody
        var wasStream = false
        switch upload {
        case .data(let data):
            body = data
        case .file(let url):
            do {
                body = try Data(contentsOf: url, options: .alwaysMapped)
            } catch {
                throw ReadFailure(underlying: error)
            }
        case .stream(let stream):
            body = try read(stream)
            wasStream = true
        case .none, .unknown:
            if body == nil, let stream = request.httpBodyStream {
                body = try read(stream)
                wasStream = true
            }
        }
        // Only what changes is set: every setter copies the request's storage (`NSURLRequest.mutableCopy`).
        if request.httpBodyStream != nil { request.httpBodyStream = nil }
        if request.httpBody != body { request.httpBody = body }
        return Resolved(request: request, body: body, bodyWasStream: wasStream)
    }

    private static func read(_ stream: InputStream) throws -> Data {
        if stream.streamStatus == .notOpen { stream.open() }
        defer { stream.close() }
        var data = Data()
        let size = 64 * 1024
        var buffer = [UInt8](repeating: 0, count: size)
        while true {
            let count = stream.read(&buffer, maxLength: size)
            if count < 0 {
                throw ReadFailure(underlying: stream.streamError ?? URLError(.cannotDecodeRawData))
            }
            if count == 0 { break }
            data.append(buffer, count: count)
        }
        return data
    }
}
