import Foundation

extension Redactor {
    /// Header fields whose value is a URL, whose query items are redacted like a request URL's.
    static let urlValuedHeaders: Set<String> = ["location", "content-location", "referer"]

    /// Header fields whose value is `scheme credentials` (RFC 9110 §11.6.2, §11.7.2): the scheme is kept.
    static let credentialsHeaders: Set<String> = ["authorization", "proxy-authorization"]

    /// Replaces secret header values, keeping field names, order and repetitions.
    ///
    /// `Cookie` and `Set-Cookie` (RFC 6265 §4.1, §4.2) keep every cookie name and attribute and lose only the
    /// values of secret cookies (all of them while a header rule covers the field); `Authorization` and
    /// `Proxy-Authorization` keep their scheme (`Bearer [redacted]`); `Location`, `Content-Location` and
    /// `Referer` keep their URL with secret query items replaced; other secret fields become the placeholder.
    ///
    /// - Parameter headers: The header fields.
    /// - Returns: The redacted fields and one location per replaced value (`header Authorization`,
    ///   `cookie session in Set-Cookie`, `query token in Location`).
    /// - Complexity: O(fields × rules).
    public func redact(headers: HeaderFields) -> Redacted<HeaderFields> {
        var locations: [RedactionLocation] = []
        var fields: [HeaderFields.Field] = []
        fields.reserveCapacity(headers.count)
        for field in headers {
            var field = field
            let name = field.name.lowercased()
            if name == "cookie" || name == "set-cookie" {
                field.value = redactCookies(in: field.value, header: field.name, locations: &locations)
            } else if isSecret(field.name, at: .header) {
                let redacted = redactedCredentials(field.value, isCredentials: Self.credentialsHeaders.contains(name))
                if redacted != field.value {
                    field.value = redacted
                    locations.append(RedactionLocation(kind: .header, name: field.name))
                }
            } else if Self.urlValuedHeaders.contains(name) {
                let query = redactQuery(in: field.value)
                field.value = query.value
                locations += query.locations.map {
                    RedactionLocation(kind: $0.kind, name: $0.name, header: field.name)
                }
            }
            fields.append(field)
        }
        return Redacted(value: HeaderFields(fields), locations: locations)
    }

    /// The placeholder, or `scheme placeholder` for credentials with a scheme.
    private func redactedCredentials(_ value: String, isCredentials: Bool) -> String {
        guard isCredentials, let space = value.firstIndex(of: " ") else { return Self.placeholder }
        let scheme = value[..<space]
        guard !scheme.isEmpty, scheme.allSatisfy({ $0.isLetter || $0.isNumber || "-_.".contains($0) }) else {
            return Self.placeholder
        }
        return scheme + " " + Self.placeholder
    }

    /// Redacts the values of a `Cookie` (`a=1; b=2`) or `Set-Cookie` (`a=1; Path=/`, several possibly joined by
    /// `", "` as Foundation joins repeated fields) header value.
    ///
    /// A value of several lines (Firefox's HAR export and several HAR generators write every `Set-Cookie` of a
    /// response into one value, one cookie per line) is redacted line by line, line breaks kept.
    private func redactCookies(in value: String, header: String, locations: inout [RedactionLocation]) -> String {
        Self.mappingLines(of: value) { redactCookieLine($0, header: header, locations: &locations) }
    }

    /// Applies `transform` to each line of `value` (lines end at LF, CR or CRLF) and joins the results with the
    /// original line breaks.
    static func mappingLines(of value: String, _ transform: (String) -> String) -> String {
        guard value.contains(where: \.isNewline) else { return transform(value) }
        var result = ""
        var line = ""
        for character in value {
            if character.isNewline {
                result += transform(line)
                result.append(character)
                line = ""
            } else {
                line.append(character)
            }
        }
        return result + transform(line)
    }

    /// Whether the value of the cookie `name`, sent or set in `header` (`Cookie` or `Set-Cookie`), is redacted.
    package func isSecretCookie(_ name: String, in header: String) -> Bool {
        (isSecret(header, at: .header) || matchesRule(name, at: .cookie)) && !isExcepted(name, at: .cookie)
    }

    private func redactCookieLine(_ value: String, header: String, locations: inout [RedactionLocation]) -> String {
        func redactPair(_ pair: Substring) -> String {
            guard let equals = pair.firstIndex(of: "=") else {
                // A cookie without a name (RFC 6265 §5.2: the whole pair is its value, its name empty).
                let value = pair.trimmingCharacters(in: .whitespaces)
                guard !value.isEmpty, value != Self.placeholder, isSecretCookie("", in: header) else {
                    return String(pair)
                }
                locations.append(RedactionLocation(kind: .cookie, name: "", header: header))
                return String(pair.prefix { $0 == " " }) + Self.placeholder
            }
            let name = pair[..<equals].trimmingCharacters(in: .whitespaces)
            let cookieValue = pair[pair.index(after: equals)...]
            let isSecretCookie = isSecretCookie(name, in: header)
            // `=value` is a cookie without a name too (RFC 6265 §5.2), redacted as such.
            guard isSecretCookie, cookieValue != Self.placeholder[...], !cookieValue.isEmpty || !name.isEmpty else {
                return String(pair)
            }
            locations.append(RedactionLocation(kind: .cookie, name: name, header: header))
            return pair[...equals] + Self.placeholder
        }
        if header.lowercased() == "cookie" {
            return value.split(separator: ";", omittingEmptySubsequences: false)
                .map { piece -> String in
                    let leading = piece.prefix { $0 == " " }
                    return leading + redactPair(piece.dropFirst(leading.count))
                }
                .joined(separator: ";")
        }
        return SetCookieReader.splitJoined(value)
            .map { cookie -> String in
                guard let semicolon = cookie.firstIndex(of: ";") else { return redactPair(cookie) }
                return redactPair(cookie[..<semicolon]) + cookie[semicolon...]
            }
            .joined(separator: ", ")
    }
}
