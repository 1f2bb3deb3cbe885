import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A `URLProtocolClient` that forwards every call unchanged to the real client and tells a recorder what
/// passed, so requests handed untouched to the platform's own HTTP protocol are still captured.
final class ObservingClient: NSObject, URLProtocolClient, @unchecked Sendable {
    private let target: any URLProtocolClient
    private let recorder: TransactionRecorder
    private let requestURL: URL

    init(target: any URLProtocolClient, recorder: TransactionRecorder, requestURL: URL) {
        self.target = target
        self.recorder = recorder
        self.requestURL = requestURL
    }

    func urlProtocol(_ protocol: URLProtocol, wasRedirectedTo request: URLRequest, redirectResponse: URLResponse) {
        target.urlProtocol(`protocol`, wasRedirectedTo: request, redirectResponse: redirectResponse)
    }

    func urlProtocol(_ protocol: URLProtocol, cachedResponseIsValid cachedResponse: CachedURLResponse) {
        target.urlProtocol(`protocol`, cachedResponseIsValid: cachedResponse)
    }

    func urlProtocol(
        _ protocol: URLProtocol,
        didReceive response: URLResponse,
        cacheStoragePolicy policy: URLCache.StoragePolicy
    ) {
        if let http = response as? HTTPURLResponse {
            let head = HandlerResponse(
                statusCode: http.statusCode,
                headers: HeaderFields(http.allHeaderFields),
                url: http.url,
                body: .empty
            )
            recorder.responseHead(head, requestURL: requestURL)
        }
        target.urlProtocol(`protocol`, didReceive: response, cacheStoragePolicy: policy)
    }

    func urlProtocol(_ protocol: URLProtocol, didLoad data: Data) {
        recorder.responseChunk(data)
        target.urlProtocol(`protocol`, didLoad: data)
    }

    func urlProtocolDidFinishLoading(_ protocol: URLProtocol) {
        if recorder.snapshot.response == nil, let http = `protocol`.task?.response as? HTTPURLResponse {
            recorder.responseHead(
                HandlerResponse(
                    statusCode: http.statusCode,
                    headers: HeaderFields(http.allHeaderFields),
                    url: http.url
                ),
                requestURL: requestURL
            )
        }
        if let task = `protocol`.task, task is URLSessionDownloadTask {
            // FoundationNetworking counts received bytes only for delegate callers; Content-Length covers the rest.
            let expected = task.response?.expectedContentLength ?? -1
            recorder.responseBodyNotKept(totalByteCount: max(task.countOfBytesReceived, expected))
        }
        recorder.finish(error: nil)
        target.urlProtocolDidFinishLoading(`protocol`)
    }

    func urlProtocol(_ protocol: URLProtocol, didFailWithError error: any Error) {
        recorder.finish(error: error)
        target.urlProtocol(`protocol`, didFailWithError: error)
    }

    func urlProtocol(_ protocol: URLProtocol, didReceive challenge: URLAuthenticationChallenge) {
        target.urlProtocol(`protocol`, didReceive: challenge)
    }

    func urlProtocol(_ protocol: URLProtocol, didCancel challenge: URLAuthenticationChallenge) {
        target.urlProtocol(`protocol`, didCancel: challenge)
    }
}
