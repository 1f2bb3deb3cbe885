import Foundation
import NetTapCore

/// One cookie a `Set-Cookie` header line sets, with the attributes the audit looks at (RFC 6265 §5.2).
///
/// Only the name and the presence of attributes are kept; the value never leaves this type.
struct SetCookie: Sendable, Hashable {
    var name: String
    /// Whether the line carries the `Secure` attribute.
    var isSecure: Bool
    /// Whether the line carries the `HttpOnly` attribute.
    var isHTTPOnly: Bool
    /// Whether the line deletes the cookie (an empty value, `Max-Age` ≤ 0) rather than setting one.
    var isDeletion: Bool
    /// Whether the value looks like a random token (`AuditHandler.isTokenShaped(_:)`), the only trace of it kept.
    var hasTokenShapedValue = false

    /// The cookies of every `Set-Cookie` field in `values`: several per value, one per line (Firefox's HAR
    /// export) or joined with `, ` (FoundationNetworking), each read on its own.
    static func parse(_ values: [String]) -> [SetCookie] {
        values.flatMap(SetCookieReader.splitCookies).compactMap(parseLine)
    }

    private static func parseLine(_ line: Substring) -> SetCookie? {
        let parts = line.split(separator: ";", omittingEmptySubsequences: false)
        guard let pair = parts.first, let equals = pair.firstIndex(of: "=") else { return nil }
        let name = pair[..<equals].trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else { return nil }
        let value = pair[pair.index(after: equals)...].trimmingCharacters(in: .whitespaces)
        var cookie = SetCookie(
            name: name,
            isSecure: false,
            isHTTPOnly: false,
            isDeletion: value.isEmpty || value == "\"\"",
            hasTokenShapedValue: AuditHandler.isTokenShaped(value[...])
        )
        for attribute in parts.dropFirst() {
            let pieces = attribute.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            switch pieces.first?.lowercased() {
            case "secure": cookie.isSecure = true
            case "httponly": cookie.isHTTPOnly = true
            case "max-age":
                if pieces.count > 1, let seconds = Int(pieces[1]), seconds <= 0 { cookie.isDeletion = true }
            default: break
            }
        }
        return cookie
    }
}
