import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Reads the cookies of one `Set-Cookie` field value with Foundation's `HTTPCookie`, safe for any text.
///
/// swift-corelibs-foundation (6.3) finds the value of each `name=value` pair by a UTF-16 offset used as a
/// character offset: a name or attribute name with a character that is not one UTF-16 unit (an emoji, a
/// combining mark, CR LF, an `=` or `;` a combining mark joins) traps when the offset passes the end, and cuts
/// the value short otherwise. A server can send such a field, so before `HTTPCookie` reads it, every such
/// character in a name position (from the start or a `;` to the next `=`) becomes `?`, which is neither a
/// token character, white space nor a separator, so the field splits into the same cookies and attributes.
/// No attribute name with such a character is one `HTTPCookie` knows, so only the first cookie's own name
/// needs its text back. On Apple platforms `HTTPCookie` reads the field as it is.
package enum SetCookieReader {
    /// The cookies `HTTPCookie.cookies(withResponseHeaderFields:for:)` reads from `value` for `url`.
    ///
    /// - Parameters:
    ///   - value: One `Set-Cookie` field value (several cookies may be folded into it with commas, or written one
    ///     per line, as Firefox's HAR export and several HAR generators do; each line is read on its own).
    ///   - url: The response's URL: the default domain and path of the cookies.
    /// - Returns: The cookies, in the order of the field; none when the field holds no `name=value`.
    package static func cookies(in value: String, for url: URL) -> [HTTPCookie] {
        guard !value.contains(where: \.isNewline) else {
            return value.split(whereSeparator: \.isNewline).flatMap { cookies(inLine: String($0), for: url) }
        }
        return cookies(inLine: value, for: url)
    }

    /// The cookies of one `Set-Cookie` field value, each `name=value; attributes` on its own.
    ///
    /// Lines (as Firefox's HAR export writes several cookies) and cookies Foundation joined with `", "` are split:
    /// a comma starts a new cookie only when `name=` follows it, so the comma in an `Expires` date
    /// (`Wed, 21 Oct 2015 07:28:00 GMT`) stays.
    ///
    /// - Parameter value: The field value.
    /// - Returns: Each cookie's text, leading spaces dropped.
    package static func splitCookies(_ value: String) -> [Substring] {
        value.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).flatMap { splitJoined(String($0)) }
    }

    /// ``splitCookies(_:)`` for one line: the cookies Foundation joined with `", "`.
    package static func splitJoined(_ value: String) -> [Substring] {
        var cookies: [Substring] = []
        var start = value.startIndex
        var index = value.startIndex
        while index < value.endIndex {
            if value[index] == ",", startsCookie(value[value.index(after: index)...]) {
                cookies.append(value[start..<index])
                var next = value.index(after: index)
                while next < value.endIndex, value[next] == " " { next = value.index(after: next) }
                start = next
                index = next
                continue
            }
            index = value.index(after: index)
        }
        cookies.append(value[start...])
        return cookies
    }

    private static func startsCookie(_ text: Substring) -> Bool {
        let trimmed = text.drop { $0 == " " }
        guard let equals = trimmed.firstIndex(of: "=") else { return false }
        let name = trimmed[..<equals]
        return !name.isEmpty && !name.contains { $0 == ";" || $0 == "," || $0.isWhitespace }
    }

    private static func cookies(inLine value: String, for url: URL) -> [HTTPCookie] {
        let read = { (text: String) in HTTPCookie.cookies(withResponseHeaderFields: ["Set-Cookie": text], for: url) }
        #if canImport(FoundationNetworking)
        let value = Self.asciiExpires(value)
        if let safe = NameSafeField(value) { return read(safe.text).map(safe.restore) }
        #endif
        return read(value)
    }
}

#if canImport(FoundationNetworking)
extension SetCookieReader {
    /// `value` with `?` for every character of an `Expires` attribute's date that is not one UTF-16 unit.
    ///
    /// swift-corelibs-foundation's `DateFormatter` (6.3), which `HTTPCookie` asks for the date, traps on a text
    /// whose characters are not one UTF-16 unit each (a combining mark, an emoji: "Incorrect range CFRange"); a
    /// cookie date is ASCII (RFC 6265 §5.1.1), so such a date can only fail to parse, and with `?` it does, as
    /// the platform would ignore it. The date runs from `expires` (white space allowed before its `=`) to the
    /// next `;`, or to a comma that starts a folded second cookie (`, name=`), whose value is left as sent.
    static func asciiExpires(_ value: String) -> String {
        guard value.contains(where: { $0.utf16.count != 1 }) else { return value }
        var result = ""
        var rest = Substring(value)
        // `HTTPCookie` trims the attribute's name: `Expires =` is the date too.
        while let range = rest.range(of: #"expires\s*="#, options: [.regularExpression, .caseInsensitive]) {
            result += rest[..<range.upperBound]
            rest = rest[range.upperBound...]
            let end = dateEnd(in: rest)
            result += rest[..<end].map { $0.utf16.count == 1 ? String($0) : "?" }.joined()
            rest = rest[end...]
        }
        return result + rest
    }

    /// What follows a comma that separates folded cookies, as `HTTPCookie` tells them from a date's comma: white
    /// space, an RFC 9110 token, white space and `=`.
    private static let foldedCookieStart = #"^[ \t\r\n]*[!#$%&'*+.^_`|~0-9A-Za-z-]+[ \t\r\n]*="#

    /// Where a cookie date starting `text` ends: the first `;`, or the first comma followed by a cookie's
    /// `name=`, or the end.
    private static func dateEnd(in text: Substring) -> Substring.Index {
        for index in text.indices {
            if text[index] == ";" { return index }
            if text[index] == ",",
                text[text.index(after: index)...].range(of: foldedCookieStart, options: .regularExpression) != nil
            {
                return index
            }
        }
        return text.endIndex
    }
}

/// A `Set-Cookie` value with the scalars swift-corelibs-foundation misreads in name positions replaced by `?`.
private struct NameSafeField {
    /// The value `HTTPCookie` can read.
    let text: String
    /// The first cookie's name as the server sent it and as `HTTPCookie` reads it from `text`, both trimmed.
    let originalName: String
    let replacedName: String

    /// `nil` when `value` has nothing to replace.
    init?(_ value: String) {
        guard var safe = Self.replacingNameCharacters(in: value) else { return nil }
        // A `?` can join the character after it ("\r\n" then a zero-width joiner): replace until none is left.
        while let next = Self.replacingNameCharacters(in: safe) { safe = next }
        text = safe
        originalName = Self.firstName(in: value)
        replacedName = Self.firstName(in: safe)
    }

    /// `text` with `?` for each character in a name position that is not one UTF-16 unit; `nil` when none is.
    private static func replacingNameCharacters(in text: String) -> String? {
        var safe = ""
        var inName = true
        var changed = false
        for character in text {
            if character == ";" || character == "=" {
                inName = character == ";"
            } else if inName, character.utf16.count != 1 {
                safe.append("?")
                changed = true
                continue
            }
            safe.append(character)
        }
        return changed ? safe : nil
    }

    /// The text before the first `=`, trimmed, or empty when a `;` or the end comes first (no cookie).
    private static func firstName(in text: String) -> String {
        guard let end = text.firstIndex(where: { $0 == "=" || $0 == ";" }), text[end] == "=" else { return "" }
        return text[..<end].trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `cookie`, with the first cookie's name as the server sent it.
    func restore(_ cookie: HTTPCookie) -> HTTPCookie {
        guard cookie.name == replacedName, originalName != replacedName, var properties = cookie.properties else {
            return cookie
        }
        properties[.name] = originalName
        return HTTPCookie(properties: properties) ?? cookie
    }
}
#endif
