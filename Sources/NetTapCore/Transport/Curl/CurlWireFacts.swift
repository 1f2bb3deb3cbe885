#if canImport(CNetTapCurl)
import CNetTapCurl
import Foundation

/// What libcurl knows about a transfer's connection, phases and TLS session, read into ``WireDetails``.
///
/// The request header block comes from libcurl's debug callback (`CURLINFO_HEADER_OUT`: the bytes it sent, or
/// for HTTP/2 the fields it encoded); the rest from `curl_easy_getinfo` once the head arrived and when the
/// transfer ended.
enum CurlWireFacts {
    /// The connection, protocol and TLS facts, read when the final head arrived.
    static func connection(of handle: UnsafeMutableRawPointer, isHTTPS: Bool) -> WireDetails {
        var details = WireDetails(transport: WireDetails.libcurl)
        var version = 0
        if nettap_easy_get_long(handle, CURLINFO_HTTP_VERSION, &version) == CURLE_OK {
            details.httpVersion = httpVersionName(version)
        }
        var address: UnsafeMutablePointer<CChar>?
        if nettap_easy_get_string(handle, CURLINFO_PRIMARY_IP, &address) == CURLE_OK, let address {
            details.remoteAddress = String(cString: address)
        }
        var number = 0
        if nettap_easy_get_long(handle, CURLINFO_PRIMARY_PORT, &number) == CURLE_OK, number > 0 {
            details.remotePort = number
        }
        if nettap_easy_get_long(handle, CURLINFO_LOCAL_PORT, &number) == CURLE_OK, number > 0 {
            details.localPort = number
        }
        if nettap_easy_get_long(handle, CURLINFO_NUM_CONNECTS, &number) == CURLE_OK {
            details.isNewConnection = number > 0
        }
        if isHTTPS { details.tls = tls(of: handle) }
        return details
    }

    /// `HTTP/1.0`, `HTTP/1.1`, `HTTP/2` or `HTTP/3` for `CURLINFO_HTTP_VERSION`.
    static func httpVersionName(_ version: Int) -> String? {
        switch version {
        case Int(CURL_HTTP_VERSION_1_0): return "HTTP/1.0"
        case Int(CURL_HTTP_VERSION_1_1): return "HTTP/1.1"
        case Int(CURL_HTTP_VERSION_2_0): return "HTTP/2"
        case Int(CURL_HTTP_VERSION_3): return "HTTP/3"
        default: return nil
        }
    }

    /// The TLS session's version, cipher and server certificate (OpenSSL builds of libcurl only).
    static func tls(of handle: UnsafeMutableRawPointer) -> TLSDetails? {
        var session: UnsafeMutablePointer<curl_tlssessioninfo>?
        guard nettap_easy_get_tls_session(handle, &session) == CURLE_OK, let session,
            session.pointee.backend == CURLSSLBACKEND_OPENSSL, let ssl = session.pointee.internals,
            let version = nettap_tls_version(ssl)
        else { return nil }
        var details = TLSDetails(protocolVersion: String(cString: version))
        if let cipher = nettap_tls_cipher(ssl) { details.cipher = String(cString: cipher) }
        var subject = [CChar](repeating: 0, count: 1024)
        var issuer = [CChar](repeating: 0, count: 1024)
        var notBefore = 0
        var notAfter = 0
        if nettap_tls_peer_certificate(ssl, &subject, 1024, &issuer, 1024, &notBefore, &notAfter) == 1 {
            details.subject = text(subject)
            details.issuer = text(issuer)
            details.validFrom = notBefore > 0 ? Date(timeIntervalSince1970: TimeInterval(notBefore)) : nil
            details.validTo = notAfter > 0 ? Date(timeIntervalSince1970: TimeInterval(notAfter)) : nil
        }
        return details
    }

    /// The text of a NUL-terminated buffer.
    private static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// HAR's phases from libcurl's clocks (microseconds since the transfer started), read when it ended.
    static func phases(of handle: UnsafeMutableRawPointer, reusedConnection: Bool) -> WirePhases {
        func time(_ info: CURLINFO) -> Double {
            var value: curl_off_t = 0
            return nettap_easy_get_offset(handle, info, &value) == CURLE_OK ? Double(value) / 1000 : 0
        }
        let lookup = time(CURLINFO_NAMELOOKUP_TIME_T)
        let connected = time(CURLINFO_CONNECT_TIME_T)
        let secured = time(CURLINFO_APPCONNECT_TIME_T)
        let sent = time(CURLINFO_PRETRANSFER_TIME_T)
        let firstByte = time(CURLINFO_STARTTRANSFER_TIME_T)
        let total = time(CURLINFO_TOTAL_TIME_T)
        let ready = max(sent, secured, connected)
        return WirePhases(
            dns: reusedConnection ? -1 : max(0, lookup),
            connect: reusedConnection ? -1 : max(0, max(connected, secured) - lookup),
            ssl: reusedConnection || secured == 0 ? -1 : max(0, secured - connected),
            send: 0,
            wait: max(0, firstByte - ready),
            receive: max(0, total - max(firstByte, ready))
        )
    }

    /// The header fields of a request header block as libcurl sent it (the request line skipped).
    static func requestHeaders(_ block: UnsafeRawBufferPointer) -> HeaderFields {
        let text = String(decoding: block, as: UTF8.self)
        var fields: [HeaderFields.Field] = []
        for line in text.split(separator: "\r\n", omittingEmptySubsequences: true).dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let value = line[line.index(after: colon)...].drop { $0 == " " || $0 == "\t" }
            fields.append(HeaderFields.Field(name: String(line[..<colon]), value: String(value)))
        }
        return HeaderFields(fields)
    }
}
#endif
