import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension RequestMatcher {
    /// Matches the URL path against a glob: `*` is exactly one segment, `**` any number of segments.
    ///
    /// Specificity: 10 plus the number of literal segments (`/users/*/posts` scores 12, `/**` scores 10).
    ///
    /// - `*` stands for one whole, non-empty segment: `/users/*/posts` matches `/users/42/posts`, not
    ///   `/users/posts` or `/users/1/2/posts`.
    /// - `**` stands for zero or more segments: `/api/**` matches `/api`, `/api/` and `/api/v1/users`.
    /// - Every other character is literal, including a `*` inside a segment (`/a*b` matches only `/a*b`).
    /// - Empty segments are ignored, so a trailing slash does not matter on either side.
    /// - Each request path segment is percent-decoded on its own (an encoded `%2F` does not split it), and
    ///   compared case-sensitively with the percent-decoded pattern segment.
    ///
    /// Configuration: `{"path": "/users/*/posts"}`; a pattern without a `*` or `**` segment is written
    /// `{"pathGlob": "/users"}` (a plain `path` is an exact path).
    /// - Parameter pattern: The pattern, for example `/users/*/posts`.
    /// - Returns: The matcher.
    /// - Complexity: O(*p* × *s*) per request for *p* pattern and *s* path segments.
    public static func pathGlob(_ pattern: String) -> RequestMatcher {
        let glob = PathGlob(pattern)
        let key = PathGlob.hasWildcardSegment(pattern) ? "path" : "pathGlob"
        return RequestMatcher(
            description: "path matches \(pattern)",
            specificity: 10 + glob.literalCount,
            configuration: [key: .string(pattern)],
            evaluate: { request in
                guard let url = request.url else { return .missed("request had no URL") }
                if glob.matches(PathGlob.segments(of: url)) { return .matched }
                return .missed("path was \"\(Self.path(of: url))\", expected a path matching \"\(pattern)\"")
            },
            distance: { request in
                guard let url = request.url else { return MatchDistance.locationWeight }
                let segments = PathGlob.segments(of: url)
                return glob.matches(segments) ? 0 : MatchDistance.locationWeight * glob.distance(to: segments)
            }
        )
    }
}
