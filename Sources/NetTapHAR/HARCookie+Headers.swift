import Foundation
import NetTapCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension HARCookie {
    /// The cookies of `Cookie` request headers (`name=value; name2=value2`, RFC 6265 §5.4).
    ///
    /// - Parameter headers: The request's header fields.
    /// - Returns: One cookie per pair, in order; path, domain and flags are unknown in a request.
    public static func requestCookies(in headers: HeaderFields) -> [HARCookie] {
        headers.values(for: "Cookie")
            .flatMap { $0.split(separator: ";") }
            .compactMap { pair -> HARCookie? in
                let trimmed = pair.trimmingCharacters(in: .whitespaces)
                guard !trimmed.isEmpty else { return nil }
                let parts = trimmed.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                return HARCookie(name: String(parts[0]), value: parts.count > 1 ? String(parts[1]) : "")
            }
    }

    /// The cookies of `Set-Cookie` response headers (RFC 6265 §4.1), read with Foundation's `HTTPCookie`
    /// (safe for any text, including names swift-corelibs-foundation's parser would trap on).
    ///
    /// - Parameters:
    ///   - headers: The response's header fields.
    ///   - url: The response URL, the default domain and path of the cookies.
    /// - Returns: One cookie per `Set-Cookie` cookie with path, domain, expiry (ISO 8601) and flags.
    public static func responseCookies(in headers: HeaderFields, url: URL) -> [HARCookie] {
        headers.values(for: "Set-Cookie").flatMap { value in
            SetCookieReader.cookies(in: value, for: url).map { cookie in
                HARCookie(
                    name: cookie.name,
                    value: cookie.value,
                    path: cookie.path,
                    domain: cookie.domain,
                    expires: cookie.expiresDate.map(HARDate.string(from:)),
                    httpOnly: cookie.isHTTPOnly,
                    secure: cookie.isSecure
                )
            }
        }
    }

    /// The cookies of `cookies` whose `name=value` is in no `header` field of `fields` (`Cookie` or `Set-Cookie`).
    static func notIn(_ fields: HeaderFields, named header: String, _ cookies: [HARCookie]) -> [HARCookie] {
        guard !cookies.isEmpty else { return [] }
        let texts = fields.filter { $0.name.caseInsensitiveCompare(header) == .orderedSame }.map(\.value)
        return cookies.filter { cookie in
            let pair = "\(cookie.name)=\(cookie.value)"
            return !texts.contains { $0.contains(pair) }
        }
    }

    /// A `Cookie` header value for request cookies: `name=value; name2=value2` (RFC 6265 §5.4).
    static func cookieHeader(for cookies: [HARCookie]) -> String {
        cookies.map { "\($0.name)=\($0.value)" }.joined(separator: "; ")
    }

    /// The `Set-Cookie` header value of this cookie (RFC 6265 §4.1): its attributes as far as HAR knows them,
    /// `Expires` as an HTTP date.
    var setCookieValue: String {
        var parts = ["\(name)=\(value)"]
        if let path, !path.isEmpty { parts.append("Path=\(path)") }
        if let domain, !domain.isEmpty { parts.append("Domain=\(domain)") }
        if let expires, let date = HARDate.date(from: expires) {
            parts.append("Expires=\(HTTPDate.string(from: date))")
        }
        if httpOnly == true { parts.append("HttpOnly") }
        if secure == true { parts.append("Secure") }
        return parts.joined(separator: "; ")
    }
}
