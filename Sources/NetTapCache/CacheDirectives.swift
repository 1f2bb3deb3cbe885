import Foundation
import NetTapCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The parts of HTTP caching (RFC 9111) the offline cache reads: `Cache-Control: no-store`, `Vary` and the
/// inputs of `Age`.
enum CacheDirectives {
    /// What a response's `Vary` field says (RFC 9110 §12.5.5).
    enum Vary: Equatable {
        /// The response does not vary: no `Vary` field, or only empty ones.
        case none
        /// The response varies on these request fields (lower-cased, in order, without repeats).
        case fields([String])
        /// `Vary: *`: the response varies on something outside the request; it is never reused.
        case any
    }

    /// Whether `Cache-Control` values contain the `no-store` directive (RFC 9111 §5.2.1.5, §5.2.2.5).
    ///
    /// Directive names compare case-insensitively; arguments (`no-store="x"` is not valid, but is tolerated)
    /// are ignored.
    /// - Parameter values: Every `Cache-Control` field value, in order.
    /// - Returns: `true` when any directive is `no-store`.
    static func hasNoStore(_ values: [String]) -> Bool {
        values.contains { value in
            value.split(separator: ",").contains { directive in
                let name = directive.split(separator: "=", maxSplits: 1).first ?? ""
                return name.trimmingCharacters(in: .whitespaces).lowercased() == "no-store"
            }
        }
    }

    /// Whether the request says `Cache-Control: no-store`.
    static func hasNoStore(_ request: URLRequest) -> Bool {
        guard let value = request.value(forHTTPHeaderField: "Cache-Control") else { return false }
        return hasNoStore([value])
    }

    /// The response's `Vary` fields (every `Vary` line, comma-separated names).
    static func vary(_ headers: HeaderFields) -> Vary {
        var names: [String] = []
        for value in headers.values(for: "Vary") {
            for part in value.split(separator: ",") {
                let name = part.trimmingCharacters(in: .whitespaces).lowercased()
                if name == "*" { return .any }
                if !name.isEmpty, !names.contains(name) { names.append(name) }
            }
        }
        return names.isEmpty ? .none : .fields(names)
    }

    /// The request's values of the named fields, as a stored entry records them (RFC 9111 §4.1).
    ///
    /// Values are the platform's combined value of the field (repeated fields joined by `,`) with white space
    /// around it removed; an absent field is `nil`, which matches only another absent field.
    /// - Parameters:
    ///   - names: Lower-cased field names.
    ///   - request: The request.
    /// - Returns: One value per name, in the order of `names`.
    static func values(of names: [String], in request: URLRequest) -> [CachedVaryField] {
        names.map { name in
            CachedVaryField(
                name: name,
                value: request.value(forHTTPHeaderField: name)?.trimmingCharacters(in: .whitespaces)
            )
        }
    }

    /// The `Age` a response had when it arrived: RFC 9111 §4.2.3's `corrected_initial_age`, in whole seconds.
    ///
    /// `apparent_age = max(0, response_time − date_value)`, `corrected_age_value = age_value + response_delay`,
    /// `corrected_initial_age = max(apparent_age, corrected_age_value)`. A missing or unparsable `Date` or `Age`
    /// counts as 0.
    /// - Parameters:
    ///   - headers: The response's header fields.
    ///   - requestTime: When the request was sent.
    ///   - responseTime: When the response head arrived.
    /// - Returns: Seconds, ≥ 0.
    static func initialAge(headers: HeaderFields, requestTime: Date, responseTime: Date) -> Int {
        let date = headers["Date"].flatMap(HTTPDate.date(from:))
        let apparentAge = date.map { max(0, responseTime.timeIntervalSince($0)) } ?? 0
        let ageValue = headers["Age"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }.map { max(0, $0) } ?? 0
        let responseDelay = max(0, responseTime.timeIntervalSince(requestTime))
        let corrected = Double(ageValue) + responseDelay
        let seconds = max(apparentAge, corrected)
        guard seconds.isFinite, seconds < Double(Int32.max) else { return Int(Int32.max) }
        return Int(seconds)
    }
}
