#if canImport(CNetTapCurl)
import CNetTapCurl
import Foundation
import FoundationNetworking

/// The easy-handle options of one transfer, set as FoundationNetworking 6.3.1 sets them.
///
/// The sources are `_HTTPURLProtocol.configureEasyHandle(for:body:)` and `_EasyHandle.setupCallbacks()`, so that libcurl sends
/// byte for byte what a plain URLSession sends: the same method, URL, header list, body framing, decoding,
/// protocols and CA bundle. Everything is set on every transfer (a reused handle was reset).
enum CurlTransferOptions {
    /// A request the platform refuses before sending anything: a GET with a body (`-1103`), a URL without a
    /// host or one libcurl reads differently (`-1000`).
    static func refusal(for request: URLRequest, body: CurlRequestBody) -> (code: Int, description: String)? {
        if request.httpMethod == "GET", body.isKnown {
            return (NSURLErrorDataLengthExceedsMaximum, "resource exceeds maximum size")
        }
        guard let url = request.url, let host = url.host else {
            return (NSURLErrorBadURL, "HTTP URL must have a host")
        }
        guard curlAgrees(on: host, in: url.absoluteString) else {
            return (NSURLErrorBadURL, "URLSession and curl did not agree on URL host")
        }
        return nil
    }

    /// Whether libcurl's URL parser finds the same host as Foundation's.
    private static func curlAgrees(on host: String, in url: String) -> Bool {
        guard let parsed = curl_url() else { return false }
        defer { curl_url_cleanup(parsed) }
        guard curl_url_set(parsed, CURLUPART_URL, url, 0) == CURLUE_OK else { return false }
        var curlHost: UnsafeMutablePointer<CChar>?
        guard curl_url_get(parsed, CURLUPART_HOST, &curlHost, 0) == CURLUE_OK, let curlHost else { return false }
        defer { curl_free(curlHost) }
        return String(cString: curlHost) == host
    }

    /// Sets every option of the exchange's current request on `handle`.
    static func configure(_ exchange: CurlExchange, handle: UnsafeMutableRawPointer) {
        let request = exchange.request
        let body = exchange.currentBody
        let method = request.httpMethod ?? "GET"
        setLong(handle, CURLOPT_NOSIGNAL, 1)
        setLong(handle, CURLOPT_NOPROGRESS, 1)
        setLong(handle, CURLOPT_HEADER, 0)
        setLong(handle, CURLOPT_FAILONERROR, 0)
        setLong(handle, CURLOPT_FOLLOWLOCATION, 0)
        _ = nettap_easy_set_pointer(handle, CURLOPT_ERRORBUFFER, exchange.errorBuffer)
        _ = nettap_easy_set_pointer(handle, CURLOPT_URL, request.url?.absoluteString ?? "")
        _ = nettap_easy_set_pointer(handle, CURLOPT_PROTOCOLS_STR, "http,https")
        _ = nettap_easy_set_pointer(handle, CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        if let bundle = CurlCertificateBundle.fallbackPath {
            _ = nettap_easy_set_pointer(handle, CURLOPT_CAINFO, bundle)
        }
        if let rule = exchange.context.trustRules.first(where: { $0.applies(to: request.url) }) {
            CurlTrust.apply(rule, to: handle)
        }
        switch body {
        case .none:
            setLong(handle, CURLOPT_UPLOAD, method == "GET" ? 0 : 1)
            _ = nettap_easy_set_offset(handle, CURLOPT_INFILESIZE_LARGE, 0)
        case .data(let data, _):
            setLong(handle, CURLOPT_UPLOAD, 1)
            _ = nettap_easy_set_offset(handle, CURLOPT_INFILESIZE_LARGE, curl_off_t(data.count))
        case .stream:
            setLong(handle, CURLOPT_UPLOAD, 1)
            _ = nettap_easy_set_offset(handle, CURLOPT_INFILESIZE_LARGE, -1)
        }
        var list: UnsafeMutablePointer<curl_slist>?
        for line in CurlRequestHeaders.lines(for: request, body: body) { list = curl_slist_append(list, line) }
        exchange.headerList = list
        _ = nettap_easy_set_pointer(handle, CURLOPT_HTTPHEADER, list)
        _ = nettap_easy_set_pointer(handle, CURLOPT_ACCEPT_ENCODING, "")
        setLong(handle, CURLOPT_HTTP_CONTENT_DECODING, 1)
        _ = nettap_easy_set_pointer(handle, CURLOPT_CUSTOMREQUEST, method)
        setLong(handle, CURLOPT_NOBODY, method == "HEAD" ? 1 : 0)
        CurlCallbacks.install(on: handle, for: exchange)
    }

    private static func setLong(_ handle: UnsafeMutableRawPointer, _ option: CURLoption, _ value: Int) {
        _ = nettap_easy_set_long(handle, option, value)
    }
}

/// A ``TrustRule`` on a transfer.
///
/// Its CA certificates are added to the system's bundle (`CURLOPT_CAINFO_BLOB`), or its public-key digests pinned (`CURLOPT_PINNEDPUBLICKEY`) in place of the chain check; the host name is checked
/// either way. libcurl never reuses a connection made with other TLS settings, so other requests are unaffected.
enum CurlTrust {
    private static let bundles = Locked<[Data: Data]>([:])

    static func apply(_ rule: TrustRule, to handle: UnsafeMutableRawPointer) {
        switch rule.anchor {
        case .certificateAuthority(let pem, _):
            let bundle = bundle(adding: pem, handle: handle)
            _ = bundle.withUnsafeBytes { bytes in
                nettap_easy_set_blob(handle, CURLOPT_CAINFO_BLOB, bytes.baseAddress, bytes.count)
            }
        case .publicKeySHA256(let digests):
            let pins = digests.map { "sha256//" + $0 }.joined(separator: ";")
            _ = nettap_easy_set_pointer(handle, CURLOPT_PINNEDPUBLICKEY, pins)
            _ = nettap_easy_set_long(handle, CURLOPT_SSL_VERIFYPEER, 0)
        }
    }

    /// The system's CA bundle followed by `pem`, made once per CA file content.
    private static func bundle(adding pem: Data, handle: UnsafeMutableRawPointer) -> Data {
        if let made = bundles.withLock({ $0[pem] }) { return made }
        var path: UnsafeMutablePointer<CChar>?
        var system = Data()
        if let fallback = CurlCertificateBundle.fallbackPath {
            system = (try? Data(contentsOf: URL(fileURLWithPath: fallback))) ?? Data()
        } else if nettap_easy_get_string(handle, CURLINFO_CAINFO, &path) == CURLE_OK, let path {
            system = (try? Data(contentsOf: URL(fileURLWithPath: String(cString: path)))) ?? Data()
        }
        let made = system + Data("\n".utf8) + pem
        bundles.withLock { $0[pem] = made }
        return made
    }
}

/// The CA bundle FoundationNetworking names when libcurl has no default of its own
/// (`_EasyHandle.setCARootBundlePath()`): the first of the usual Linux places that is a file.
enum CurlCertificateBundle {
    static let fallbackPath: String? = {
        guard let probe = curl_easy_init() else { return nil }
        defer { curl_easy_cleanup(probe) }
        var path: UnsafeMutablePointer<CChar>?
        if nettap_easy_get_string(probe, CURLINFO_CAINFO, &path) == CURLE_OK, path != nil { return nil }
        let candidates = [
            "/etc/ssl/certs/ca-certificates.crt", "/etc/pki/tls/certs/ca-bundle.crt",
            "/usr/share/ssl/certs/ca-bundle.crt", "/usr/local/share/certs/ca-root-nss.crt", "/etc/ssl/cert.pem",
        ]
        return candidates.first { candidate in
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: candidate, isDirectory: &isFolder) && !isFolder.boolValue
        }
    }()
}
#endif
