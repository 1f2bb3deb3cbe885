import Foundation
import NetTapCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Chrome's words for a failed request (`net::ERR_…`, from Chromium's `net/base/net_error_list.h`), for
/// `Network.loadingFailed`'s `errorText`.
enum ChromeNetError {
    /// The text for a transaction's error; `net::ERR_ABORTED` for a cancelled one, as Chrome writes it.
    static func text(for error: TransactionError?, cancelled: Bool) -> String {
        if cancelled { return "net::ERR_ABORTED" }
        guard let error, error.domain == NSURLErrorDomain else { return "net::ERR_FAILED" }
        let names: [URLError.Code: String] = [
            .cancelled: "ERR_ABORTED", .timedOut: "ERR_TIMED_OUT", .cannotFindHost: "ERR_NAME_NOT_RESOLVED",
            .dnsLookupFailed: "ERR_NAME_NOT_RESOLVED", .cannotConnectToHost: "ERR_CONNECTION_REFUSED",
            .networkConnectionLost: "ERR_CONNECTION_RESET", .notConnectedToInternet: "ERR_INTERNET_DISCONNECTED",
            .badServerResponse: "ERR_INVALID_RESPONSE", .secureConnectionFailed: "ERR_SSL_PROTOCOL_ERROR",
            .serverCertificateUntrusted: "ERR_CERT_AUTHORITY_INVALID",
            .serverCertificateHasUnknownRoot: "ERR_CERT_AUTHORITY_INVALID",
            .serverCertificateHasBadDate: "ERR_CERT_DATE_INVALID", .badURL: "ERR_INVALID_URL",
            .unsupportedURL: "ERR_UNKNOWN_URL_SCHEME", .httpTooManyRedirects: "ERR_TOO_MANY_REDIRECTS",
            .dataLengthExceedsMaximum: "ERR_FILE_TOO_BIG", .cannotDecodeContentData: "ERR_CONTENT_DECODING_FAILED",
            .resourceUnavailable: "ERR_FAILED", .zeroByteResource: "ERR_EMPTY_RESPONSE",
        ]
        let code: URLError.Code? = URLError.Code(rawValue: error.code)
        return "net::" + (code.flatMap { names[$0] } ?? "ERR_FAILED")
    }
}
