import Foundation

#if canImport(CNetTapCurl)
import CNetTapCurl
#endif

/// The "floor" route: the same small GETs through libcurl alone, from Swift, with no URLSession and no NetTap.
///
/// Sequential requests reuse one easy handle (`curl_easy_perform`); concurrent ones run on one multi handle with
/// ``Plan/width`` easy handles in flight (`curl_multi_perform` / `curl_multi_poll`), each handle added again as
/// soon as its transfer ends. Only the URL, the write callback and `CURLOPT_NOSIGNAL` are set: libcurl's own
/// defaults otherwise (keep-alive, HTTP/2 over TLS through ALPN, the system CA bundle), as in
/// `../shared/tools/curl-floor/curlfloor.c`. Unlike that tool, every answer's status and body are checked.
///
/// Not thread-safe: one task uses an instance at a time.
final class CurlFloor {
    /// The URL every request gets.
    let url: URL
    /// The body every answer must have.
    private let expected: [UInt8]

    #if canImport(CNetTapCurl)
    /// The easy handle of the sequential requests.
    private let easy: UnsafeMutableRawPointer
    /// Its body sink.
    private let sink = CurlSink()
    /// The multi handle of the concurrent requests, with its easy handles and their sinks (made on first use).
    private var multi: (handle: UnsafeMutableRawPointer, transfers: [UnsafeMutableRawPointer: CurlSink])?
    #endif

    /// Creates the sequential handle.
    /// - Parameters:
    ///   - url: The URL to get.
    ///   - body: The body every answer must have.
    /// - Throws: ``BenchError`` when libcurl is not available or gives no handle.
    init(url: URL, body: Data) throws {
        self.url = url
        self.expected = Array(body)
        #if canImport(CNetTapCurl)
        _ = curl_global_init(Int(CURL_GLOBAL_ALL))
        guard let easy = curl_easy_init() else { throw BenchError("floor: curl_easy_init failed") }
        self.easy = easy
        Self.configure(easy, url: url, sink: sink)
        #else
        throw BenchError("floor: libcurl is only used on Linux")
        #endif
    }

    deinit {
        #if canImport(CNetTapCurl)
        if let multi {
            for easy in multi.transfers.keys {
                _ = curl_multi_remove_handle(multi.handle, easy)
                curl_easy_cleanup(easy)
            }
            _ = curl_multi_cleanup(multi.handle)
        }
        curl_easy_cleanup(easy)
        #endif
    }

    /// The HTTP version the last sequential request used, for example `HTTP/2`.
    var httpVersion: String {
        #if canImport(CNetTapCurl)
        var version = 0
        guard nettap_easy_get_long(easy, CURLINFO_HTTP_VERSION, &version) == CURLE_OK else { return "?" }
        switch version {
        case Int(CURL_HTTP_VERSION_1_0): return "HTTP/1.0"
        case Int(CURL_HTTP_VERSION_1_1): return "HTTP/1.1"
        case Int(CURL_HTTP_VERSION_2_0): return "HTTP/2"
        case Int(CURL_HTTP_VERSION_3): return "HTTP/3"
        default: return "? (\(version))"
        }
        #else
        return "?"
        #endif
    }

    /// Sends one request on the sequential handle and checks the answer.
    /// - Throws: ``BenchError`` for a libcurl error, a status other than 200 or a different body.
    func get() throws {
        #if canImport(CNetTapCurl)
        sink.bytes.removeAll(keepingCapacity: true)
        try check(curl_easy_perform(easy), easy: easy, sink: sink)
        #endif
    }

    /// Sends `count` requests with `width` in flight on the multi handle.
    /// - Parameters:
    ///   - count: How many requests in total.
    ///   - width: How many in flight at once (the multi handle's easy handles; fixed on first use).
    /// - Returns: The wall-clock time from the first send to the last answer.
    /// - Throws: ``BenchError`` for the first libcurl error, status other than 200 or different body.
    func concurrently(count: Int, width: Int) throws -> Duration {
        #if canImport(CNetTapCurl)
        let (handle, transfers) = try multiHandle(width: width)
        let clock = ContinuousClock()
        let start = clock.now
        var started = 0
        var done = 0
        for (easy, sink) in transfers where started < count {
            sink.bytes.removeAll(keepingCapacity: true)
            _ = curl_multi_add_handle(handle, easy)
            started += 1
        }
        var running: Int32 = 0
        var queued: Int32 = 0
        while done < count {
            let performed = curl_multi_perform(handle, &running)
            guard performed == CURLM_OK else {
                throw BenchError("floor: curl_multi_perform: \(String(cString: curl_multi_strerror(performed)))")
            }
            while let message = curl_multi_info_read(handle, &queued) {
                guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
                let result = message.pointee.data.result
                _ = curl_multi_remove_handle(handle, easy)
                guard let sink = transfers[easy] else { throw BenchError("floor: an unknown easy handle finished") }
                try check(result, easy: easy, sink: sink)
                done += 1
                if started < count {
                    sink.bytes.removeAll(keepingCapacity: true)
                    _ = curl_multi_add_handle(handle, easy)
                    started += 1
                }
            }
            if done < count { _ = curl_multi_poll(handle, nil, 0, 100, nil) }
        }
        return clock.now - start
        #else
        throw BenchError("floor: libcurl is only used on Linux")
        #endif
    }

    #if canImport(CNetTapCurl)
    /// The multi handle and its `width` easy handles, made on the first call.
    private func multiHandle(
        width: Int
    ) throws -> (UnsafeMutableRawPointer, [UnsafeMutableRawPointer: CurlSink]) {
        if let multi { return (multi.handle, multi.transfers) }
        guard let handle = curl_multi_init() else { throw BenchError("floor: curl_multi_init failed") }
        var transfers: [UnsafeMutableRawPointer: CurlSink] = [:]
        for _ in 0..<width {
            guard let easy = curl_easy_init() else { throw BenchError("floor: curl_easy_init failed") }
            let sink = CurlSink()
            Self.configure(easy, url: url, sink: sink)
            transfers[easy] = sink
        }
        multi = (handle, transfers)
        return (handle, transfers)
    }

    /// Checks one finished transfer: libcurl's result, the status and the body.
    private func check(_ result: CURLcode, easy: UnsafeMutableRawPointer, sink: CurlSink) throws {
        guard result == CURLE_OK else {
            throw BenchError("floor: \(url.absoluteString): \(String(cString: curl_easy_strerror(result)))")
        }
        var status = 0
        _ = nettap_easy_get_long(easy, CURLINFO_RESPONSE_CODE, &status)
        guard status == 200 else { throw BenchError("floor: \(url.absoluteString): status \(status), expected 200") }
        guard sink.bytes == expected else {
            throw BenchError("floor: \(url.absoluteString): \(sink.bytes.count) bytes differ from the expected body")
        }
    }

    /// Sets the URL, the write callback into `sink` and `CURLOPT_NOSIGNAL` (the process has other threads).
    private static func configure(_ easy: UnsafeMutableRawPointer, url: URL, sink: CurlSink) {
        _ = url.absoluteString.withCString { nettap_easy_set_pointer(easy, CURLOPT_URL, $0) }
        _ = nettap_easy_set_long(easy, CURLOPT_NOSIGNAL, 1)
        _ = nettap_easy_set_data_callback(easy, CURLOPT_WRITEFUNCTION) { buffer, size, count, user in
            let total = size * count
            guard let buffer, let user else { return total }
            let sink = Unmanaged<CurlSink>.fromOpaque(user).takeUnretainedValue()
            buffer.withMemoryRebound(to: UInt8.self, capacity: total) { bytes in
                sink.bytes.append(contentsOf: UnsafeBufferPointer(start: bytes, count: total))
            }
            return total
        }
        _ = nettap_easy_set_pointer(easy, CURLOPT_WRITEDATA, Unmanaged.passUnretained(sink).toOpaque())
    }
    #endif
}

/// The body bytes of one libcurl transfer, appended by the write callback (on the thread running the transfer).
final class CurlSink {
    /// The bytes received so far.
    var bytes: [UInt8] = []

    /// Creates an empty sink with room for a small body.
    init() {
        bytes.reserveCapacity(4096)
    }
}
