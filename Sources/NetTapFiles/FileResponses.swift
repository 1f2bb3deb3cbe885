import Foundation
import NetTapCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Builds the responses ``LocalFilesHandler`` answers with (the rules are in its documentation).
enum FileResponses {
    /// `Allow` of a `405`: the methods a mount serves.
    static let allowedMethods = "GET, HEAD"

    /// The answer for an opened file: `200`, `206`, `304` or `416`, depending on the request's conditional and
    /// range fields.
    ///
    /// - Parameters:
    ///   - file: The file.
    ///   - request: The request, for `If-None-Match`, `If-Modified-Since`, `Range` and `If-Range`.
    ///   - isHead: Whether the method is `HEAD` (headers only, `Range` ignored).
    /// - Returns: The response; its body streams from the file for `200` and `206` to `GET`.
    static func serve(_ file: OpenedFile, request: URLRequest, isHead: Bool) -> HandlerResponse {
        let tag = file.entityTag
        let lastModified = HTTPDate.string(from: file.lastModified)
        var validators: HeaderFields = ["Last-Modified": lastModified, "ETag": tag.headerValue]
        if isNotModified(file, tag: tag, request: request) {
            return HandlerResponse(statusCode: 304, headers: validators)
        }
        validators.add(name: "Accept-Ranges", value: "bytes")
        var range = ByteRangeRequest.whole
        if !isHead, let value = request.value(forHTTPHeaderField: "Range"),
            ifRangeHolds(request.value(forHTTPHeaderField: "If-Range"), tag: tag, lastModified: lastModified)
        {
            range = ByteRangeRequest.evaluate(value, size: file.size)
        }
        var headers: HeaderFields = ["Content-Type": MIMEType.contentType(forFileName: file.relativePath)]
        switch range {
        case .unsatisfiable:
            var fields = validators
            fields.add(name: "Content-Range", value: "bytes */\(file.size)")
            fields.add(name: "Content-Length", value: "0")
            return HandlerResponse(statusCode: 416, headers: fields)
        case .partial(let first, let last):
            let length = last - first + 1
            headers.add(name: "Content-Length", value: String(length))
            headers.add(name: "Content-Range", value: "bytes \(first)-\(last)/\(file.size)")
            headers = HeaderFields(headers.fields + validators.fields)
            return HandlerResponse(
                statusCode: 206,
                headers: headers,
                body: FileBody.make(file: file, offset: first, length: length)
            )
        case .whole:
            headers.add(name: "Content-Length", value: String(file.size))
            headers = HeaderFields(headers.fields + validators.fields)
            let body =
                isHead || file.size == 0 ? ResponseBody.empty : FileBody.make(file: file, offset: 0, length: file.size)
            return HandlerResponse(statusCode: 200, headers: headers, body: body)
        }
    }

    /// Whether the request's validators say the app's copy is current (RFC 9110 §13.2.2 steps 3 and 4).
    ///
    /// `If-None-Match` decides when present (weak comparison; `*` matches any file; an unparsable value never
    /// matches); otherwise `If-Modified-Since` holds when the file was not modified after it.
    static func isNotModified(_ file: OpenedFile, tag: EntityTag, request: URLRequest) -> Bool {
        if let value = request.value(forHTTPHeaderField: "If-None-Match") {
            switch EntityTag.parseList(value) {
            case .any: return true
            case .tags(let tags): return tags.contains { $0.weaklyMatches(tag) }
            case nil: return false
            }
        }
        guard let value = request.value(forHTTPHeaderField: "If-Modified-Since"),
            let since = HTTPDate.date(from: value)
        else { return false }
        return file.lastModified <= since
    }

    /// Whether `If-Range` (RFC 9110 §13.1.5) lets the `Range` apply: absent, a strongly matching tag, or
    /// exactly the `Last-Modified` date.
    static func ifRangeHolds(_ value: String?, tag: EntityTag, lastModified: String) -> Bool {
        guard let value = value?.trimmingCharacters(in: .whitespaces) else { return true }
        if value.hasPrefix("\"") || value.hasPrefix("W/") {
            guard let (candidate, rest) = EntityTag.parseTag(Substring(value)), rest.isEmpty else { return false }
            return candidate.stronglyMatches(tag)
        }
        guard let date = HTTPDate.date(from: value), let current = HTTPDate.date(from: lastModified) else {
            return false
        }
        return date == current
    }

    /// `404 Not Found` with a short plain-text body that names nothing of the request.
    static func notFound() -> HandlerResponse {
        let text = "404 Not Found\n"
        return HandlerResponse(
            statusCode: 404,
            headers: ["Content-Type": "text/plain; charset=utf-8", "Content-Length": String(text.utf8.count)],
            body: .string(text)
        )
    }

    /// `405 Method Not Allowed` with `Allow: GET, HEAD`.
    static func methodNotAllowed() -> HandlerResponse {
        HandlerResponse(statusCode: 405, headers: ["Allow": allowedMethods, "Content-Length": "0"])
    }

    /// `301 Moved Permanently` to `location` (a path, with its query).
    static func redirect(to location: String) -> HandlerResponse {
        HandlerResponse(statusCode: 301, headers: ["Location": location, "Content-Length": "0"])
    }
}
