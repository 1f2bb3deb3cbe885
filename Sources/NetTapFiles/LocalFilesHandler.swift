import Foundation
import NetTapCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Answers requests under URL prefixes from local files: an app's bundled web assets served as if from
/// `http://localhost:1000/` or a CDN.
///
/// ```
///  request ─▶ mount with the longest matching prefix? ── none ──▶ next (untouched)
///                 │ yes
///                 ▼
///  path after the prefix ─▶ safe file inside the directory? ── no ──▶ 404, or next when the mount falls through
///                 │ yes (a directory URL ending in / serves its index.html; one without / gets a 301 to it)
///                 ▼
///  GET / HEAD? ── no ──▶ 405 (Allow: GET, HEAD)
///                 ▼
///  If-None-Match / If-Modified-Since ─▶ 304 │ Range ─▶ 206 / 416 │ otherwise 200, body streamed from the file
/// ```
///
/// Responses (RFC 9110 section numbers in brackets):
/// - `200 OK` with `Content-Type` (``MIMEType/contentType(forFileName:)``), `Content-Length` (the file's size),
///   `Last-Modified` (IMF-fixdate, §8.8.2), a strong `ETag` made of size, modification time in nanoseconds,
///   device and inode (§8.8.3) and `Accept-Ranges: bytes` (§14.3). The body is read from the file in 64 KiB
///   chunks with back-pressure, never whole. `HEAD` gets the same fields and no body (§9.3.2).
/// - `304 Not Modified` (§15.4.5) with `ETag` and `Last-Modified` and no body, when `If-None-Match` (a list of
///   tags or `*`, weak comparison, §13.1.2) matches, or when there is no `If-None-Match` and
///   `If-Modified-Since` (§13.1.3) is not before the file's modification time (whole seconds).
/// - `206 Partial Content` (§15.3.7) with `Content-Range: bytes first-last/size` for one `Range` of a `GET`
///   (`bytes=a-b`, `a-`, `-n`); `416 Range Not Satisfiable` (§15.5.17) with `Content-Range: bytes */size` when
///   it starts past the end. Several ranges, a malformed header, an `If-Range` (§13.1.5) that does not match
///   the current `ETag` (strong comparison) or `Last-Modified` (exactly), or a `HEAD` request: the whole file
///   with `200` (see `ByteRangeRequest`).
/// - `301 Moved Permanently` (§15.4.2) to the same URL with a `/` added, for a directory asked for without
///   its trailing slash — as web servers do, so that relative links in its `index.html` resolve inside it;
///   NetTap follows the redirect itself, so the app receives the index with the final URL. A directory URL
///   ending in `/` serves its `index.html`; a directory without one is `404` (no listings).
/// - `404 Not Found` (§15.5.5) for a missing file, and for every path that could reach outside the mount
///   (`..`, encoded slashes or backslashes, NUL bytes, invalid UTF-8, symbolic links leading out; see
///   `SafeFileLocator`), unless the mount ``FileMount/fallsThrough``: then the request goes to `next`.
/// - `405 Method Not Allowed` (§15.5.6) with `Allow: GET, HEAD` for any other method; under a mount that
///   falls through, only when the file exists (a missing one passes the request on).
///
/// The handler calls `context.answer(by: "files")` for every answer and annotates the transaction with
/// `files.mount` (the mount's prefix), `files.path` (the path of the file below the mount's directory) and,
/// for refusals, `files.note` (why).
///
/// ```swift
/// let interceptor = NetTapInterceptor()
/// interceptor.handlers = [
///     LocalFilesHandler(mounts: [try FileMount(prefix: "http://localhost:1000/", directory: webFolder)])
/// ]
/// let session = interceptor.makeSession()
/// ```
///
/// Thread safety: the handler is immutable and may be used from any thread.
public struct LocalFilesHandler: TransactionHandler {
    /// `files`: the handler's name, shown as the transaction's `answeredBy`.
    public let name = "files"
    /// The mounts, in the order given.
    public let mounts: [FileMount]

    /// The annotation key naming the mount's prefix.
    public static let mountAnnotation = "files.mount"
    /// The annotation key naming the file's path below the mount's directory.
    public static let pathAnnotation = "files.path"
    /// The annotation key explaining a refusal or a fall-through.
    public static let noteAnnotation = "files.note"

    /// Creates the handler.
    ///
    /// - Parameter mounts: The prefixes and their directories; where several cover a request the longest path
    ///   prefix wins, then the earliest.
    public init(mounts: [FileMount]) {
        self.mounts = mounts
    }

    /// The mount that answers `url`: among those covering it, the one with the longest path prefix (the
    /// earliest on a tie).
    ///
    /// - Parameter url: A request URL.
    /// - Returns: The mount, or `nil` when none covers the URL.
    /// - Complexity: O(*m* × *s*) for *m* mounts and *s* path segments.
    public func mount(for url: URL) -> FileMount? {
        RequestPath(url: url).flatMap { bestMount(for: $0)?.mount }
    }

    /// Answers a request under a mount from its directory; passes any other request to `next` unchanged.
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - context: The transaction's context; annotated and marked answered by `files`.
    ///   - next: The rest of the pipeline; called for requests under no mount, and for missing files under a
    ///     mount that falls through.
    /// - Returns: The file's response (see the type's documentation), or what `next` returns.
    /// - Throws: What `next` throws; nothing of its own (file problems are answered with a status code).
    public func handle(_ request: URLRequest, context: TransactionContext, next: Next) async throws -> HandlerResponse {
        guard let url = request.url, let path = RequestPath(url: url), let (mount, remainder) = bestMount(for: path)
        else { return try await next(request) }
        let method = (request.httpMethod ?? "GET").uppercased()
        let isReadMethod = method == "GET" || method == "HEAD"
        if !isReadMethod && !mount.fallsThrough {
            return answer(FileResponses.methodNotAllowed(), mount: mount, context: context)
        }
        switch SafeFileLocator.locate(remainder, in: mount.directory) {
        case .notFound(let reason):
            if mount.fallsThrough {
                context.annotate(
                    Self.noteAnnotation,
                    "no file (\(reason)); passed on under \(mount.prefix.absoluteString)"
                )
                return try await next(request)
            }
            context.annotate(Self.noteAnnotation, reason)
            return answer(FileResponses.notFound(), mount: mount, context: context)
        case .directoryWithoutSlash:
            guard isReadMethod else { return answer(FileResponses.methodNotAllowed(), mount: mount, context: context) }
            let location = path.rawPath + "/" + (path.rawQuery.map { "?" + $0 } ?? "")
            context.annotate(Self.noteAnnotation, "a directory: redirected to its URL with a trailing /")
            return answer(FileResponses.redirect(to: location), mount: mount, context: context)
        case .file(let file):
            context.annotate(Self.pathAnnotation, file.relativePath)
            guard isReadMethod else { return answer(FileResponses.methodNotAllowed(), mount: mount, context: context) }
            let response = FileResponses.serve(file, request: request, isHead: method == "HEAD")
            return answer(response, mount: mount, context: context)
        }
    }

    /// Marks the answer and its mount on the context, and returns it.
    private func answer(_ response: HandlerResponse, mount: FileMount, context: TransactionContext) -> HandlerResponse {
        context.answer(by: name)
        context.annotate(Self.mountAnnotation, mount.prefix.absoluteString)
        return response
    }

    /// The covering mount with the longest path prefix, and the raw path segments after it.
    private func bestMount(for path: RequestPath) -> (mount: FileMount, remainder: [Substring])? {
        var best: (mount: FileMount, remainder: [Substring])?
        for mount in mounts {
            guard let remainder = mount.remainder(of: path) else { continue }
            if let current = best, current.mount.pathSegments.count >= mount.pathSegments.count { continue }
            best = (mount, remainder)
        }
        return best
    }
}

/// Starts on URLSession's queue: its synchronous part never calls URLSession; it only looks a file up and opens it
/// (the body is read later, in chunks).
extension LocalFilesHandler: StartsInline {}
