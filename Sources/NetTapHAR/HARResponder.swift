import Foundation
import NetTapCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A handler that answers requests from a HAR document's recorded responses.
///
/// A request is answered when its method and URL exactly match an entry's (method case-insensitive, URL
/// as a string). Repeated requests take the matching entries in recorded order, one each; after the last
/// one, that last one answers again. Entries with status 0 (no response) are never used. Anything else
/// goes to `next`.
///
/// The response has the entry's status and headers, minus `Content-Encoding` and `Transfer-Encoding`
/// (the body is given decoded) and with `Content-Length` set to the decoded body's size; the body is
/// `content.text`, base64-decoded when `content.encoding` is `base64`. The handler calls
/// `context.answer(by: name)` and annotates `har.entry` with the entry's index in `log.entries`.
///
/// ```swift
/// let document = try HARDocument.load(contentsOf: harURL)
/// let pipeline = Pipeline(handlers: [HARResponder(document: document)], transport: transport)
/// ```
///
/// Thread safety: one responder may serve concurrent requests; the per-request position is kept under a lock.
public struct HARResponder: TransactionHandler {
    /// The handler's name, shown as the transaction's `answeredBy`.
    public let name: String
    /// The document whose entries answer.
    public let document: HARDocument
    private let entriesByRequest: [String: [Int]]
    private let uses = Locked([String: Int]())

    /// Creates a responder.
    ///
    /// - Parameters:
    ///   - document: The recorded entries.
    ///   - name: The handler name; `har` by default.
    /// - Complexity: O(number of entries).
    public init(document: HARDocument, name: String = "har") {
        self.document = document
        self.name = name
        var index: [String: [Int]] = [:]
        for (position, entry) in document.log.entries.enumerated() where entry.response.status > 0 {
            index[Self.key(method: entry.request.method, url: entry.request.url), default: []].append(position)
        }
        self.entriesByRequest = index
    }

    /// Answers from the next matching entry, or passes the request on.
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - context: The transaction's context.
    ///   - next: The rest of the pipeline, called when no entry matches.
    /// - Returns: The recorded response, or the response from `next`.
    /// - Throws: What `next` throws.
    /// - Complexity: O(1) per request, plus the body's size.
    public func handle(_ request: URLRequest, context: TransactionContext, next: Next) async throws -> HandlerResponse {
        guard let url = request.url else { return try await next(request) }
        let key = Self.key(method: request.httpMethod ?? "GET", url: url.absoluteString)
        guard let candidates = entriesByRequest[key], let last = candidates.indices.last else {
            return try await next(request)
        }
        let position = uses.withLock { uses -> Int in
            let used = uses[key, default: 0]
            uses[key] = used + 1
            return min(used, last)
        }
        let entryIndex = candidates[position]
        let entry = document.log.entries[entryIndex]
        context.answer(by: name)
        context.annotate("har.entry", String(entryIndex))
        return entry.response.replayResponse(url: url)
    }

    private static func key(method: String, url: String) -> String {
        method.uppercased() + " " + url
    }
}

/// Starts on URLSession's queue: its synchronous part neither calls URLSession nor blocks.
extension HARResponder: StartsInline {}
