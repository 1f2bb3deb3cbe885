import Foundation

/// The parts of a request URL that select a mount and a file: scheme, host, port and the raw path segments.
struct RequestPath: Sendable {
    /// The lower-cased scheme.
    let scheme: String
    /// The lower-cased host.
    let host: String
    /// The port, the scheme's default (80, 443) when the URL names none.
    let port: Int
    /// The path after its leading `/`, split at every `/`, still percent-encoded: `/a/b%20c/` gives
    /// `["a", "b%20c", ""]`; an empty path counts as `/` (`[""]`).
    let rawSegments: [Substring]
    /// The percent-encoded path as it arrived, for example `/docs`.
    let rawPath: String
    /// The percent-encoded query, when there is one.
    let rawQuery: String?

    /// Parses a request URL; `nil` for a URL without scheme or host.
    init?(url: URL) {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true),
            let scheme = components.scheme?.lowercased(),
            let host = components.host?.lowercased()
        else { return nil }
        self.scheme = scheme
        self.host = host
        self.port = components.port ?? (scheme == "https" ? 443 : 80)
        let path = components.percentEncodedPath
        self.rawPath = path.isEmpty ? "/" : path
        self.rawQuery = components.percentEncodedQuery
        var trimmed = Substring(rawPath)
        if trimmed.first == "/" { trimmed = trimmed.dropFirst() }
        self.rawSegments = trimmed.split(separator: "/", omittingEmptySubsequences: false)
    }

    /// Percent-decodes each segment of a percent-encoded path.
    ///
    /// - Parameter path: A percent-encoded path such as `/game/my%20level/`.
    /// - Returns: The decoded segments (`["game", "my level", ""]`), or `nil` when a segment holds an invalid
    ///   escape or bytes that are not UTF-8 (overlong forms included, which Swift's decoder rejects).
    static func decodedSegments(of path: String) -> [String]? {
        var trimmed = Substring(path)
        if trimmed.first == "/" { trimmed = trimmed.dropFirst() }
        var result: [String] = []
        for segment in trimmed.split(separator: "/", omittingEmptySubsequences: false) {
            guard let decoded = segment.removingPercentEncoding else { return nil }
            result.append(decoded)
        }
        return result
    }
}
