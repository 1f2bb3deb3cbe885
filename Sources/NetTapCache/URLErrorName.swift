import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The names of the `URLError` codes an offline fallback may replace, as configuration spells them (the Swift
/// case names, such as `notConnectedToInternet`).
enum URLErrorName {
    /// Every name a configuration may use, with its code.
    static let codes: [String: URLError.Code] = [
        "notConnectedToInternet": .notConnectedToInternet,
        "cannotConnectToHost": .cannotConnectToHost,
        "timedOut": .timedOut,
        "cannotFindHost": .cannotFindHost,
        "networkConnectionLost": .networkConnectionLost,
        "dnsLookupFailed": .dnsLookupFailed,
        "internationalRoamingOff": .internationalRoamingOff,
        "callIsActive": .callIsActive,
        "dataNotAllowed": .dataNotAllowed,
        "secureConnectionFailed": .secureConnectionFailed,
        "badServerResponse": .badServerResponse,
        "cannotLoadFromNetwork": .cannotLoadFromNetwork,
    ]

    /// The name of `code`, or `URLError <number>` for a code without one here.
    static func name(of code: URLError.Code) -> String {
        codes.first { $0.value == code }?.key ?? "URLError \(code.rawValue)"
    }
}
