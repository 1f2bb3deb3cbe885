import Foundation

extension Redactor {
    /// The placeholder percent-encoded for a URL query or form body: `%5Bredacted%5D`.
    static let encodedPlaceholder = "%5Bredacted%5D"

    /// Replaces the values of secret query items and the password of the user information.
    ///
    /// Other query items keep their exact spelling and order; a secret item's value becomes
    /// `%5Bredacted%5D` (the placeholder, percent-encoded as RFC 3986 §3.4 needs).
    ///
    /// - Parameter url: The URL.
    /// - Returns: The redacted URL (the same URL when nothing was secret) and one location per replaced
    ///   value (`query token`, `userinfo password`).
    /// - Complexity: O(query items × rules).
    public func redact(url: URL) -> Redacted<URL> {
        guard isEnabled, url.query != nil || url.password != nil,
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        else {
            return Redacted(value: url)
        }
        var locations: [RedactionLocation] = []
        if let query = components.percentEncodedQuery {
            let redacted = redactPairs(query, kind: .query, target: .queryItem)
            if redacted.didRedact {
                components.percentEncodedQuery = redacted.value
                locations += redacted.locations
            }
        }
        if let password = components.percentEncodedPassword, password != Self.encodedPlaceholder {
            components.percentEncodedPassword = Self.encodedPlaceholder
            locations.append(RedactionLocation(kind: .userinfo, name: "password"))
        }
        guard !locations.isEmpty, let redactedURL = components.url else { return Redacted(value: url) }
        return Redacted(value: redactedURL, locations: locations)
    }

    /// Redacts the query of a URL given as text (a `Location` value, possibly relative).
    func redactQuery(in text: String) -> Redacted<String> {
        guard let question = text.firstIndex(of: "?") else { return Redacted(value: text) }
        let fragmentStart = text[question...].firstIndex(of: "#") ?? text.endIndex
        let query = String(text[text.index(after: question)..<fragmentStart])
        let redacted = redactPairs(query, kind: .query, target: .queryItem)
        guard redacted.didRedact else { return Redacted(value: text) }
        let value = String(text[...question]) + redacted.value + String(text[fragmentStart...])
        return Redacted(value: value, locations: redacted.locations)
    }

    /// Redacts `name=value&…` text (a URL query or an `application/x-www-form-urlencoded` body, WHATWG URL
    /// §5.1): pairs keep their spelling unless secret; names are compared after percent-decoding and `+`
    /// as space.
    func redactPairs(_ text: String, kind: RedactionLocation.Kind, target: RedactionRule.Target) -> Redacted<String> {
        var locations: [RedactionLocation] = []
        let pairs = text.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            guard let equals = pair.firstIndex(of: "=") else { return String(pair) }
            let rawName = pair[..<equals]
            let value = pair[pair.index(after: equals)...]
            let name =
                rawName.utf8.contains(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "%") })
                ? rawName.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(rawName)
                : String(rawName)
            guard isSecret(name, at: target), value != Self.encodedPlaceholder[...] else { return String(pair) }
            locations.append(RedactionLocation(kind: kind, name: name))
            return rawName + "=" + Self.encodedPlaceholder
        }
        return Redacted(value: pairs.joined(separator: "&"), locations: locations)
    }
}
