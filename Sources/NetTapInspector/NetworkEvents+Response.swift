import Foundation
import NetTapCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension NetworkEvents {
    /// A CDP `Network.Response` object.
    static func responseObject(
        url: URL,
        status: Int,
        headers: HeaderFields,
        transaction: CapturedTransaction,
        isFinal: Bool
    ) -> [String: Any] {
        let contentType = headers["Content-Type"] ?? ""
        let parts = contentType.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        let charset = parts.dropFirst().first { $0.lowercased().hasPrefix("charset=") }.map { String($0.dropFirst(8)) }
        let wire = isFinal ? transaction.wire : nil
        var object: [String: Any] = [
            "url": url.absoluteString, "status": status,
            "statusText": statusText(status),
            "headers": headerObject(headers), "mimeType": parts.first ?? "",
            "charset": charset ?? "", "connectionReused": wire?.isNewConnection == false,
            "connectionId": wire?.localPort ?? 0,
            "encodedDataLength": isFinal ? transaction.response?.body?.totalByteCount ?? 0 : 0,
            "securityState": url.scheme?.lowercased() == "https" ? "secure" : "insecure",
            "responseTime": transaction.timings.startDate.timeIntervalSince1970 * 1000
                + (transaction.timings.firstByte ?? 0),
        ]
        if let address = wire?.remoteAddress { object["remoteIPAddress"] = address }
        if let port = wire?.remotePort { object["remotePort"] = port }
        if let version = isFinal ? wire?.httpVersion ?? transaction.response?.httpVersion : nil {
            object["protocol"] = cdpProtocol(version)
        }
        if isFinal, let timing = timing(of: transaction) { object["timing"] = timing }
        return object
    }

    /// The reason phrase: Foundation's, which on Linux is RFC 9110's (`OK`, `Not Found`); Apple's Foundation gives a
    /// lowercase description instead (`no error` for 200), so there the inspector's own table of common ones.
    static func statusText(_ status: Int) -> String {
        #if canImport(FoundationNetworking)
        return HTTPURLResponse.localizedString(forStatusCode: status)
        #else
        let own = HTTPResponseHead.reasonPhrase(for: status)
        return own == "Status" ? HTTPURLResponse.localizedString(forStatusCode: status).capitalized : own
        #endif
    }

    /// `http/1.1`, `h2`, `h3`, as Chrome names protocols.
    static func cdpProtocol(_ version: String) -> String {
        switch WireDetails.normalizedHTTPVersion(version) {
        case "HTTP/2": "h2"
        case "HTTP/3": "h3"
        case "HTTP/1.0": "http/1.0"
        default: "http/1.1"
        }
    }

    /// CDP's `ResourceTiming`: `requestTime` in seconds, every other field milliseconds after it, -1 where a
    /// phase did not happen; from the transport's phases, else from the milestones NetTap recorded.
    static func timing(of transaction: CapturedTransaction) -> [String: Any]? {
        let timings = transaction.timings
        var timing: [String: Any] = ["requestTime": timings.startDate.timeIntervalSince1970]
        for key in [
            "proxyStart", "proxyEnd", "dnsStart", "dnsEnd", "connectStart", "connectEnd", "sslStart", "sslEnd",
            "workerStart", "workerReady", "workerFetchStart", "workerRespondWithSettled",
        ] {
            timing[key] = -1.0
        }
        // Not pushed: 0, as Chrome sends it (the frontend writes "Push / " before the initiator of any other value).
        timing["pushStart"] = 0.0
        timing["pushEnd"] = 0.0
        let redirected = transaction.redirects.last?.elapsedMilliseconds ?? 0
        if let phases = transaction.wire?.phases {
            var cursor = redirected
            func span(_ duration: Double, _ start: String, _ end: String) {
                guard duration >= 0 else { return }
                timing[start] = cursor
                timing[end] = cursor + duration
                cursor += duration
            }
            span(phases.dns, "dnsStart", "dnsEnd")
            if phases.connect >= 0 {
                timing["connectStart"] = cursor
                timing["connectEnd"] = cursor + phases.connect
                if phases.ssl >= 0 {
                    timing["sslStart"] = cursor + phases.connect - phases.ssl
                    timing["sslEnd"] = cursor + phases.connect
                }
                cursor += phases.connect
            }
            timing["sendStart"] = cursor
            timing["sendEnd"] = cursor + max(0, phases.send)
            timing["receiveHeadersStart"] = cursor + max(0, phases.send) + max(0, phases.wait)
            timing["receiveHeadersEnd"] = timing["receiveHeadersStart"]
            return timing
        }
        let sent = timings.requestSent ?? redirected
        timing["sendStart"] = sent
        timing["sendEnd"] = sent
        timing["receiveHeadersStart"] = timings.firstByte ?? sent
        timing["receiveHeadersEnd"] = timings.firstByte ?? sent
        return timing
    }

    /// The resource type the Network panel files a response under, from its MIME type.
    static func resourceType(of response: CapturedResponse) -> String {
        let type = (response.headers["Content-Type"] ?? "").lowercased()
        if type.hasPrefix("image/") { return "Image" }
        if type.hasPrefix("text/css") { return "Stylesheet" }
        if type.contains("javascript") || type.contains("ecmascript") { return "Script" }
        if type.hasPrefix("text/html") { return "Document" }
        if type.hasPrefix("font/") || type.contains("font-woff") { return "Font" }
        if type.hasPrefix("audio/") || type.hasPrefix("video/") { return "Media" }
        return "Fetch"
    }
}
