import Foundation
import NetTapCore

extension HAREntry {
    /// The TLS details of a Chrome DevTools Protocol `SecurityDetails` object (`_securityDetails`, as Chrome,
    /// Playwright and NetTap write it): `protocol`, `cipher`, `subjectName` (kept as the subject), `issuer`,
    /// and `validFrom`/`validTo` in seconds since 1970 (numbers or numeric strings).
    ///
    /// - Parameter value: The `_securityDetails` value.
    /// - Returns: The details, or `nil` when it is not an object with a non-empty `protocol` string.
    static func tlsDetails(_ value: HARValue) -> TLSDetails? {
        guard case .object = value, let version = text(value["protocol"]) else { return nil }
        return TLSDetails(
            protocolVersion: version,
            cipher: text(value["cipher"]),
            subject: text(value["subjectName"]),
            issuer: text(value["issuer"]),
            validFrom: seconds(value["validFrom"]).map(Date.init(timeIntervalSince1970:)),
            validTo: seconds(value["validTo"]).map(Date.init(timeIntervalSince1970:))
        )
    }

    /// A non-empty string value.
    private static func text(_ value: HARValue?) -> String? {
        guard let text = value?.stringValue?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        return text
    }

    /// A finite number of seconds (a JSON number or a numeric string).
    private static func seconds(_ value: HARValue?) -> Double? {
        let number: Double?
        switch value {
        case .integer(let integer): number = Double(integer)
        case .number(let double): number = double
        case .string(let text): number = Double(text.trimmingCharacters(in: .whitespaces))
        default: number = nil
        }
        return number.flatMap { $0.isFinite && $0.magnitude < 1e12 ? $0 : nil }
    }
}
