import Foundation
import NetTapCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension HAREntry {
    /// The network failure an entry without a response (status 0) records, when a stub or a cassette can give it
    /// again: the `URLError` code of a NetTap export's `_netTap.error`, or the code matching Chrome's `_error`
    /// (``urlErrorCode(chromeError:)``); `nil` for an entry with a response, a cancelled request, and failures that
    /// were no network's (blocked, aborted by the page, …).
    package var recordedNetworkFailure: URLError.Code? {
        guard response.status <= 0 else { return nil }
        let recorded = netTap?.error.flatMap { error -> URLError.Code? in
            guard error.domain == NSURLErrorDomain, error.code != 0 else { return nil }
            return URLError.Code(rawValue: error.code)
        }
        let chrome = response.customFields["_error"]?.stringValue.flatMap(Self.urlErrorCode(chromeError:))
        guard let code = recorded ?? chrome, code != .cancelled else { return nil }
        return code
    }

    /// The `URLError` code for a Chrome DevTools `_error` text (`net::ERR_INTERNET_DISCONNECTED`), for the network
    /// failures a stub or cassette can reproduce; `nil` for others (blocked, aborted by the page, …).
    ///
    /// - Parameter text: The `_error` value.
    /// - Returns: The code, or `nil`.
    package static func urlErrorCode(chromeError text: String) -> URLError.Code? {
        chromeErrorCodes[text.trimmingCharacters(in: .whitespaces)]
    }

    /// Chrome's `_error` texts of network failures a stub or cassette can reproduce, with their codes.
    private static let chromeErrorCodes: [String: URLError.Code] = [
        "net::ERR_INTERNET_DISCONNECTED": .notConnectedToInternet,
        "net::ERR_NAME_NOT_RESOLVED": .cannotFindHost,
        "net::ERR_CONNECTION_REFUSED": .cannotConnectToHost,
        "net::ERR_ADDRESS_UNREACHABLE": .cannotConnectToHost,
        "net::ERR_CONNECTION_TIMED_OUT": .timedOut,
        "net::ERR_TIMED_OUT": .timedOut,
        "net::ERR_CONNECTION_RESET": .networkConnectionLost,
        "net::ERR_CONNECTION_CLOSED": .networkConnectionLost,
        "net::ERR_EMPTY_RESPONSE": .networkConnectionLost,
        "net::ERR_NETWORK_CHANGED": .networkConnectionLost,
        "net::ERR_CERT_AUTHORITY_INVALID": .serverCertificateUntrusted,
        "net::ERR_CERT_DATE_INVALID": .serverCertificateHasBadDate,
    ]
}
