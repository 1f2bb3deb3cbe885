import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The names of URL Loading System error codes used in mock files (`"error": "notConnectedToInternet"`):
/// the `URLError.Code` member names.
public enum URLErrorCodeName {
    /// Every name a mock file may use, with its code.
    public static let codes: [String: URLError.Code] = [
        "appTransportSecurityRequiresSecureConnection": .appTransportSecurityRequiresSecureConnection,
        "badServerResponse": .badServerResponse,
        "badURL": .badURL,
        "callIsActive": .callIsActive,
        "cancelled": .cancelled,
        "cannotConnectToHost": .cannotConnectToHost,
        "cannotDecodeContentData": .cannotDecodeContentData,
        "cannotDecodeRawData": .cannotDecodeRawData,
        "cannotFindHost": .cannotFindHost,
        "cannotLoadFromNetwork": .cannotLoadFromNetwork,
        "cannotParseResponse": .cannotParseResponse,
        "clientCertificateRejected": .clientCertificateRejected,
        "clientCertificateRequired": .clientCertificateRequired,
        "dataLengthExceedsMaximum": .dataLengthExceedsMaximum,
        "dataNotAllowed": .dataNotAllowed,
        "dnsLookupFailed": .dnsLookupFailed,
        "fileDoesNotExist": .fileDoesNotExist,
        "httpTooManyRedirects": .httpTooManyRedirects,
        "internationalRoamingOff": .internationalRoamingOff,
        "networkConnectionLost": .networkConnectionLost,
        "notConnectedToInternet": .notConnectedToInternet,
        "redirectToNonExistentLocation": .redirectToNonExistentLocation,
        "resourceUnavailable": .resourceUnavailable,
        "secureConnectionFailed": .secureConnectionFailed,
        "serverCertificateHasBadDate": .serverCertificateHasBadDate,
        "serverCertificateHasUnknownRoot": .serverCertificateHasUnknownRoot,
        "serverCertificateNotYetValid": .serverCertificateNotYetValid,
        "serverCertificateUntrusted": .serverCertificateUntrusted,
        "timedOut": .timedOut,
        "unknown": .unknown,
        "unsupportedURL": .unsupportedURL,
        "userAuthenticationRequired": .userAuthenticationRequired,
        "userCancelledAuthentication": .userCancelledAuthentication,
        "zeroByteResource": .zeroByteResource,
    ]

    /// The code for a name.
    ///
    /// - Parameter name: A member name such as `timedOut`.
    /// - Returns: The code, or `nil` for an unknown name.
    public static func code(named name: String) -> URLError.Code? {
        codes[name]
    }

    /// The name of a code.
    ///
    /// - Parameter code: The code.
    /// - Returns: Its member name, or `nil` for a code without one here (write it as its number).
    public static func name(of code: URLError.Code) -> String? {
        codes.first { $0.value == code }?.key
    }
}
