import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The names of URL Loading System error codes, as NetTap's files and output spell them.
///
/// The names are the `URLError.Code` member names (`notConnectedToInternet` for -1009): one table for mock files,
/// the cache's `fallbackErrors`, the CLI's error lines and everything else that names a code.
package enum URLErrorNames {
    /// Every name, with its code.
    package static let codes: [String: URLError.Code] = [
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
    package static func code(named name: String) -> URLError.Code? {
        codes[name]
    }

    /// The name of a code.
    ///
    /// - Parameter code: The code.
    /// - Returns: Its member name, or `nil` for a code without one here (written as its number).
    package static func name(of code: URLError.Code) -> String? {
        namesByRawValue[code.rawValue]
    }

    /// The name of the `NSURLErrorDomain` code `rawValue` (`-1009`: `notConnectedToInternet`), or `nil`.
    package static func name(ofRawValue rawValue: Int) -> String? {
        namesByRawValue[rawValue]
    }

    private static let namesByRawValue: [Int: String] = Dictionary(
        codes.map { ($0.value.rawValue, $0.key) },
        uniquingKeysWith: { first, _ in first }
    )

    /// Everyday words for a failure, with the member name they mean, for suggestions in errors.
    private static let everydayWords: [String: String] = [
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
    /// - Parameters:
    ///   - name: The unknown name as written.
    ///   - candidates: The names that would be accepted; every name by default.
    /// - Returns: A member name among `candidates`, or `nil` when none is close.
    package static func suggestion(for name: String, among candidates: Set<String>? = nil) -> String? {
        let allowed = candidates ?? Set(codes.keys)
        let folded = name.lowercased().filter { $0.isLetter }
        if let meant = everydayWords[folded], allowed.contains(meant) { return meant }
        return ConfigNode.suggestion(for: name, among: allowed)
    }
}
