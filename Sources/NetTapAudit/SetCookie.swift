import Foundation

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

    /// The cookies of every `Set-Cookie` field in `values`.
    ///
    /// A platform may join repeated `Set-Cookie` fields into one value with `, ` (FoundationNetworking does);
    /// such a value is split again at each comma followed by `name=`, which an `Expires` date
    /// (`Wed, 21 Oct 2015 07:28:00 GMT`) never is.
    static func parse(_ values: [String]) -> [SetCookie] {
        values.flatMap(splitJoined).compactMap(parseLine)
    }

    private static func splitJoined(_ value: String) -> [Substring] {
        var lines: [Substring] = []
        var start = value.startIndex
        var index = value.startIndex
        while index < value.endIndex {
            if value[index] == ",", startsCookiePair(value[value.index(after: index)...]) {
                lines.append(value[start..<index])
                start = value.index(after: index)
            }
            index = value.index(after: index)
        }
        lines.append(value[start...])
        return lines
    }

    /// Whether `text` starts (after spaces) with a cookie name and `=`.
    private static func startsCookiePair(_ text: Substring) -> Bool {
        let trimmed = text.drop { $0 == " " || $0 == "\t" }
        guard let equals = trimmed.firstIndex(of: "=") else { return false }
        let name = trimmed[..<equals]
        return !name.isEmpty && !name.contains { $0 == ";" || $0 == "," || $0 == " " }
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
            isDeletion: value.isEmpty || value == "\"\""
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
