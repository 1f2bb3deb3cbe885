#if canImport(CNetTapCurl)
import CNetTapCurl
import Foundation
import FoundationNetworking

/// The header lines handed to libcurl (`CURLOPT_HTTPHEADER`), built as FoundationNetworking 6.3.1 builds them
/// (`_HTTPURLProtocol.curlHeaders(for:)`, `curlHeadersToSet`, `curlHeadersToRemove`).
///
/// The request's own fields first (one per name, case-insensitively; an empty value as `Name;`, which libcurl
/// sends as an empty header), then `Connection: keep-alive`, `User-Agent` and `Accept-Language` where the
/// request has none, then `Expect:` (libcurl's `Expect: 100-continue` removed) when a body is known, and
/// `Content-Type:application/x-www-form-urlencoded` for a POST whose `httpBody` or stream is not empty and that
/// names no type. libcurl itself adds `Host`, `Accept: */*`, `Accept-Encoding` (what it decodes),
/// `Content-Length` or `Transfer-Encoding: chunked`.
enum CurlRequestHeaders {
    /// The header lines for a request.
    static func lines(for request: URLRequest, body: CurlRequestBody) -> [String] {
        var lines: [String] = []
        var names = Set<String>()
        func add(_ name: String, _ value: String) {
            guard names.insert(name.lowercased()).inserted else { return }
            lines.append(value.isEmpty ? name + ";" : name + ": " + value)
        }
        for (name, value) in request.allHTTPHeaderFields ?? [:] { add(name, value) }
        add("Connection", "keep-alive")
        add("User-Agent", userAgent)
        if let language { add("Accept-Language", language) }
        if body.isKnown, names.insert("expect").inserted { lines.append("Expect:") }
        if needsFormContentType(request, body: body) {
            lines.append("Content-Type:application/x-www-form-urlencoded")
        }
        return lines
    }

    /// Whether the platform adds its default `Content-Type` (a POST with a non-empty `httpBody` or a stream, and
    /// no type of its own; an upload task's data does not count, as it is not the request's `httpBody`).
    static func needsFormContentType(_ request: URLRequest, body: CurlRequestBody) -> Bool {
        guard request.httpMethod == "POST", request.value(forHTTPHeaderField: "Content-Type") == nil else {
            return false
        }
        switch body {
        case .none, .data(_, fromUploadTask: true): return false
        case .data(let data, fromUploadTask: false): return !data.isEmpty
        case .stream: return true
        }
    }

    /// `PROCESS (unknown version) curl/X.Y.Z`, the platform's User-Agent on Linux.
    static let userAgent: String = {
        let name = ProcessInfo.processInfo.processName
        guard let info = nettap_curl_version() else { return "\(name) (unknown version)" }
        let number = info.pointee.version_num
        return "\(name) (unknown version) curl/\(number >> 16 & 0xFF).\(number >> 8 & 0xFF).\(number & 0xFF)"
    }()

    /// The current locale's language code, as the platform sends it in `Accept-Language`.
    static let language: String? = NSLocale.current.languageCode
}
#endif
