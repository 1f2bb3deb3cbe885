import Foundation
import NetTapCore

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

    /// Everyday words for a failure, with the member name they mean, for suggestions in errors.
    static let everydayWords: [String: String] = [
        "offline": "notConnectedToInternet",
        "nointernet": "notConnectedToInternet",
        "noconnection": "notConnectedToInternet",
        "nonetwork": "notConnectedToInternet",
        "timeout": "timedOut",
        "dns": "cannotFindHost",
        "hostnotfound": "cannotFindHost",
        "unknownhost": "cannotFindHost",
        "refused": "cannotConnectToHost",
        "connectionrefused": "cannotConnectToHost",
        "connectionlost": "networkConnectionLost",
        "connectionreset": "networkConnectionLost",
        "reset": "networkConnectionLost",
        "ssl": "secureConnectionFailed",
        "tls": "secureConnectionFailed",
        "certificate": "serverCertificateUntrusted",
        "cancel": "cancelled",
        "canceled": "cancelled",
    ]

    /// The member name most likely meant by an unknown name, for a "did you mean" hint.
    ///
    /// An everyday word (`offline`, `timeout`, `dns`) gives the member it describes; otherwise the one name
    /// within a small edit distance, or with the same letters in another case.
    /// - Parameter name: The unknown name as written.
    /// - Returns: A member name, or `nil` when none is close.
    static func suggestion(for name: String) -> String? {
        let folded = name.lowercased().filter { $0.isLetter }
        if let meant = everydayWords[folded] { return meant }
        return ConfigNode.suggestion(for: name, among: Set(codes.keys))
    }

    /// The text that follows `unknown URLError code "…"` in a configuration error: a suggestion, or the list
    /// of valid names.
    /// - Parameter name: The unknown name as written.
    /// - Returns: For example `; did you mean "notConnectedToInternet"?`.
    static func hint(for name: String) -> String {
        if let suggestion = suggestion(for: name) { return "; did you mean \"\(suggestion)\"?" }
        return "; expected a URLError.Code member name (" + codes.keys.sorted().joined(separator: ", ")
            + ") or its number, such as -1009"
    }

    /// The name of a code.
    ///
    /// - Parameter code: The code.
    /// - Returns: Its member name, or `nil` for a code without one here (write it as its number).
    public static func name(of code: URLError.Code) -> String? {
        codes.first { $0.value == code }?.key
    }
}
