import Foundation

/// URL helpers for HAR: absolute URLs without fragments, query parameters in order.
enum HARURL {
    /// The URL as HAR 1.2 wants it: absolute and without a fragment.
    static func string(for url: URL) -> String {
        guard url.fragment != nil, var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else {
            return url.absoluteString
        }
        components.fragment = nil
        return components.url?.absoluteString ?? url.absoluteString
    }

    /// The query parameters in URL order, percent-decoded; a name without `=` gets the value `""`.
    static func queryString(for url: URL) -> [HARQueryParameter] {
        let items = URLComponents(url: url, resolvingAgainstBaseURL: true)?.queryItems ?? []
        return items.map { HARQueryParameter(name: $0.name, value: $0.value ?? "") }
    }

    /// A URL from a HAR `url` string, percent-encoding characters that sloppy exporters leave raw.
    ///
    /// Text that is no URL at all (`http://[::1`, a space in the host) becomes a relative URL of its
    /// percent-encoded text, with its query kept as a query so secrets in it are redacted like any other; so every
    /// export still shows what the file said and no host (`(no host)`). An empty `url` becomes `about:blank`.
    static func url(from string: String) -> URL {
        if let url = URL(string: string), hasPlainHost(url) { return url }
        let allowed = CharacterSet.urlQueryAllowed.union(CharacterSet(charactersIn: "#%[]"))
        if let encoded = string.addingPercentEncoding(withAllowedCharacters: allowed), let url = URL(string: encoded),
            hasPlainHost(url)
        {
            return url
        }
        guard !string.isEmpty else { return URL(string: "about:blank") ?? URL(fileURLWithPath: "/") }
        return relativeURL(of: string) ?? URL(string: "about:blank") ?? URL(fileURLWithPath: "/")
    }

    /// Whether the URL has no host (a relative URL) or a host written without percent-escapes: a host that needed
    /// escaping (`exa%20mple.com`) names no server.
    private static func hasPlainHost(_ url: URL) -> Bool {
        guard let host = URLComponents(url: url, resolvingAgainstBaseURL: false)?.encodedHost else {
            return true
        }
        return !host.contains("%")
    }

    /// A relative URL whose path is the text before the first `?`, wholly percent-encoded, and whose query is the
    /// rest (`http://[bad/?token=x` → `http%3A%2F%2F%5Bbad%2F?token=x`).
    private static func relativeURL(of text: String) -> URL? {
        let unreserved = CharacterSet(
            charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~"
        )
        let parts = text.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let queryAllowed = CharacterSet.urlQueryAllowed.subtracting(CharacterSet(charactersIn: "#"))
        guard let path = parts[0].addingPercentEncoding(withAllowedCharacters: unreserved) else { return nil }
        guard parts.count == 2 else { return URL(string: path) }
        guard let query = parts[1].addingPercentEncoding(withAllowedCharacters: queryAllowed) else { return nil }
        return URL(string: path + "?" + query)
    }
}
