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
    /// Text that is no URL at all (`http://[::1`) becomes a relative URL of its percent-encoded text, so every
    /// export still shows what the file said and no host (`(no host)`); an empty `url` becomes `about:blank`.
    static func url(from string: String) -> URL {
        if let url = URL(string: string) { return url }
        let allowed = CharacterSet.urlQueryAllowed.union(CharacterSet(charactersIn: "#%[]"))
        if let encoded = string.addingPercentEncoding(withAllowedCharacters: allowed), let url = URL(string: encoded) {
            return url
        }
        let unreserved = CharacterSet(
            charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~/"
        )
        if !string.isEmpty, let encoded = string.addingPercentEncoding(withAllowedCharacters: unreserved),
            let url = URL(string: encoded)
        {
            return url
        }
        return URL(string: "about:blank") ?? URL(fileURLWithPath: "/")
    }
}
