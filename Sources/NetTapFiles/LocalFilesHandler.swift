import Foundation
import NetTapCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Answers requests under URL prefixes from local files: an app's bundled web assets served as if from
/// `http://localhost:1000/` or a CDN.
///
/// The mount with the longest matching prefix answers; requests under no mount go to `next` untouched. `GET` and
/// `HEAD` get `200` with `Content-Type`, `Content-Length`, `Last-Modified`, a strong `ETag` and the body streamed
/// from the file in 64 KiB chunks; conditional requests get `304`, one `Range` gets `206` or `416` (RFC 9110). A
/// directory URL ending in `/` serves its `index.html`; one without the `/` gets a `301` to it. A missing file,
/// and every path that could reach outside the mount (`..`, encoded slashes, symbolic links leading out), is
/// `404` unless the mount ``FileMount/fallsThrough``; other methods get `405`. Every answer is marked as answered
/// by `files` and annotated with `files.mount`, `files.path` and, for refusals, `files.note`.
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
///
/// Every response with its fields and RFC 9110 sections is in the “Local files and integrity” article of the
/// NetTap documentation.
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
