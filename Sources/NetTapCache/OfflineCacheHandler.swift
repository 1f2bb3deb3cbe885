import Foundation
import NetTapCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Answers `GET` requests from an ``OfflineCache`` when the network cannot be reached, and stores successful
/// answers for that.
///
/// This is an **offline fallback, not an HTTP cache**: every request goes to the network exactly as the app
/// sent it, and a stored answer is used only when the rest of the pipeline throws one of ``fallbackErrorCodes``;
/// any answer from the network wins, a `5xx` included. A `200` answer to a `GET` that ``matcher`` selects is
/// stored once its body completed, keyed by method, URL and the fields its `Vary` names; `Cache-Control:
/// no-store` and `Vary: *` are honoured. An answer from the cache carries an `Age` field and shows
/// `answeredBy == "cache"` with `cache` annotations.
///
/// ```swift
/// let cache = try OfflineCache(directory: cachesURL.appendingPathComponent("NetTap/offline"))
/// interceptor.handlers = [OfflineCacheHandler(cache: cache)]
/// ```
///
/// Place it before handlers that simulate failures (shaping's offline condition) so their failures fall back
/// too, and after handlers that answer by themselves (stubs), whose answers are then never stored.
///
/// Thread safety: the handler is a value; its cache may be used from any thread.
///
/// The storing and answering rules, the annotations and the disk work are in the “Offline cache” article of the
/// NetTap documentation.
public struct OfflineCacheHandler: TransactionHandler {
    /// `cache`: the handler's name, shown as `CapturedTransaction.answeredBy` for answers from the cache.
    public let name = "cache"
    /// The store.
    public let cache: OfflineCache
    /// Which requests are stored and answered; every `GET` by default.
    public var matcher: RequestMatcher
    /// The network failures answered from the cache when an entry exists.
    public var fallbackErrorCodes: Set<URLError.Code>

    /// The failures that mean "the network cannot be reached": `.notConnectedToInternet` (-1009),
    /// `.cannotConnectToHost` (-1004), `.timedOut` (-1001), `.cannotFindHost` (-1003),
    /// `.networkConnectionLost` (-1005) and `.dnsLookupFailed` (-1006).
    ///
    /// TLS failures, `.badServerResponse` and cancellation are left out on purpose: they are not offline
    /// conditions, and hiding them would hide real faults.
    public static let defaultFallbackErrorCodes: Set<URLError.Code> = [
        .notConnectedToInternet, .cannotConnectToHost, .timedOut, .cannotFindHost, .networkConnectionLost,
        .dnsLookupFailed,
    ]

    /// Creates the handler.
    ///
    /// - Parameters:
    ///   - cache: The store.
    ///   - matcher: Which `GET` requests are stored and answered; `RequestMatcher.any` by default.
    ///   - fallbackErrorCodes: The failures answered from the cache; ``defaultFallbackErrorCodes`` by default.
    public init(
        cache: OfflineCache,
        matcher: RequestMatcher = .any,
        fallbackErrorCodes: Set<URLError.Code> = OfflineCacheHandler.defaultFallbackErrorCodes
    ) {
        self.cache = cache
        self.matcher = matcher
        self.fallbackErrorCodes = fallbackErrorCodes
    }

    /// Sends the request on unchanged, stores a successful answer, and answers from the cache when the network
    /// cannot be reached.
    ///
    /// - Parameters:
    ///   - request: The request; passed to `next` as it is.
    ///   - context: The transaction's context; annotated as the “Offline cache” article describes.
    ///   - next: The rest of the pipeline; always called, once.
    /// - Returns: The network's response (its body teed to disk when it is stored), or the stored answer.
    /// - Throws: What `next` throws, unchanged, when there is no stored answer for it to replace.
    /// - Complexity: O(*v*) for *v* stored variants of the URL, plus eviction when storing.
    public func handle(_ request: URLRequest, context: TransactionContext, next: Next) async throws -> HandlerResponse {
        guard (request.httpMethod ?? "GET").uppercased() == "GET", !CacheDirectives.hasNoStore(request),
            OfflineCache.primaryKey(for: request) != nil, matcher.matches(request)
        else {
            return try await next(request)
        }
        let requestTime = cache.now()
        let response: HandlerResponse
        do {
            response = try await next(request)
        } catch {
            return try answer(request, replacing: error, context: context)
        }
        return store(response, for: request, requestTime: requestTime, context: context)
    }

    // MARK: - Answering

    /// The stored answer for `request`, or `error` rethrown when it is not a fallback error or nothing is stored.
    private func answer(
        _ request: URLRequest,
        replacing error: any Error,
        context: TransactionContext
    ) throws
        -> HandlerResponse
    {
        guard !Task.isCancelled, let code = Self.urlErrorCode(of: error), fallbackErrorCodes.contains(code) else {
            throw error
        }
        guard let (record, handle) = cache.lookup(request) else {
            context.annotate("cache", "miss")
            throw error
        }
        let age = max(0, record.initialAge + Int(cache.now().timeIntervalSince(record.storedDate).rounded(.down)))
        var headers = record.headers
        headers.remove(name: "Age")
        headers.set(name: "Content-Length", value: String(record.byteCount))
        headers.add(name: "Age", value: String(age))
        context.answer(by: name)
        context.annotate("cache", "hit")
        context.annotate("cache.stored", Self.iso8601(record.storedDate))
        context.annotate("cache.age", String(age))
        context.annotate("cache.networkError", "\(URLErrorNames.name(of: code) ?? "URLError") (\(code.rawValue))")
        return HandlerResponse(
            statusCode: record.statusCode,
            headers: headers,
            url: record.responseURL.flatMap(URL.init(string:)),
            httpVersion: record.httpVersion,
            body: CachedBody.make(handle: handle, byteCount: record.byteCount)
        )
    }

    /// The `URLError` code of `error`, also for an `NSError` in `NSURLErrorDomain` (which Linux does not bridge).
    static func urlErrorCode(of error: any Error) -> URLError.Code? {
        if let urlError = error as? URLError { return urlError.code }
        let nsError = error as NSError
        guard nsError.domain == NSURLErrorDomain else { return nil }
        return URLError.Code(rawValue: nsError.code)
    }

    /// `date` as an ISO 8601 date and time in UTC, such as `2026-05-01T12:00:00Z`.
    static func iso8601(_ date: Date) -> String {
        ISO8601DateFormatter().string(from: date)
    }

    // MARK: - Storing

    /// The response, its body teed into a new entry when it may be stored.
    private func store(
        _ response: HandlerResponse,
        for request: URLRequest,
        requestTime: Date,
        context: TransactionContext
    ) -> HandlerResponse {
        guard let varyNames = storableVaryNames(of: response, for: request, context: context),
            let key = OfflineCache.primaryKey(for: request),
            let writer = makeWriter(for: key.key, context: context)
        else { return response }
        let record = newRecord(
            of: response,
            url: key.url,
            varyNames: varyNames,
            request: request,
            requestTime: requestTime
        )
        let cache = cache
        return tee(response, into: writer) { result in
            switch result {
            case .success(let byteCount):
                var complete = record
                complete.byteCount = byteCount
                context.annotate("cache", cache.commit(id: writer.id, record: complete) ? "stored" : "not stored")
            case .failure(let abandoned):
                context.annotate("cache", "not stored: \(abandoned.reason)")
            }
        }
    }

    /// The names of the request fields the response varies on, or `nil` (and a note on the context) when the
    /// response may not be stored: not a `200`, `no-store` (which also removes the stored answer), `Vary: *`, or a
    /// body larger than ``OfflineCache/maxEntryBytes``.
    private func storableVaryNames(
        of response: HandlerResponse,
        for request: URLRequest,
        context: TransactionContext
    ) -> [String]? {
        guard response.statusCode == 200 else {
            context.annotate("cache", "not stored: status \(response.statusCode)")
            return nil
        }
        if CacheDirectives.hasNoStore(response.headers.values(for: "Cache-Control")) {
            cache.remove(matching: request)
            context.annotate("cache", "not stored: Cache-Control no-store")
            return nil
        }
        let varyNames: [String]
        switch CacheDirectives.vary(response.headers) {
        case .any:
            context.annotate("cache", "not stored: Vary *")
            return nil
        case .none:
            varyNames = []
        case .fields(let names):
            varyNames = names
        }
        if let length = response.body.expectedLength, length > Int64(cache.maxEntryBytes) {
            context.annotate("cache", "not stored: body larger than maxEntryBytes (\(cache.maxEntryBytes) bytes)")
            return nil
        }
        return varyNames
    }

    /// A writer for a new entry, or `nil` (noted on standard error and the context) when its file cannot be made.
    private func makeWriter(for key: String, context: TransactionContext) -> CacheEntryWriter? {
        do {
            return try CacheEntryWriter(cache: cache)
        } catch {
            CacheFiles.note("could not create a file for \(key): \(error)", directory: cache.directory)
            context.annotate("cache", "not stored: \(error)")
            return nil
        }
    }

    /// The record of a new entry for `url` (the primary key's), its byte count still 0; stored and response time
    /// are now.
    private func newRecord(
        of response: HandlerResponse,
        url: String,
        varyNames: [String],
        request: URLRequest,
        requestTime: Date
    ) -> CachedEntryRecord {
        let responseTime = cache.now()
        return CachedEntryRecord(
            method: "GET",
            url: url,
            vary: CacheDirectives.values(of: varyNames, in: request),
            statusCode: response.statusCode,
            httpVersion: response.httpVersion,
            responseURL: response.url.map(\.absoluteString).flatMap { $0 == url ? nil : $0 },
            headers: Self.storedHeaders(response.headers),
            storedDate: responseTime,
            initialAge: CacheDirectives.initialAge(
                headers: response.headers,
                requestTime: requestTime,
                responseTime: responseTime
            ),
            byteCount: 0
        )
    }

    /// Passes the body on chunk by chunk while `writer` writes it; `onEnd` runs with the writer's result before
    /// the app sees a complete body end, so the entry exists once the app has the whole body.
    private func tee(
        _ response: HandlerResponse,
        into writer: CacheEntryWriter,
        onEnd: @escaping @Sendable (Result<Int, CacheEntryWriter.Abandoned>) -> Void
    ) -> HandlerResponse {
        var response = response
        response.body = response.body.teed(
            onChunk: { writer.append($0) },
            onCancel: { writer.abandon(reason: "the body was cancelled") },
            onEnd: { error, isCancelled in
                if let error {
                    writer.abandon(reason: "the body failed: \(error.localizedDescription)")
                } else if isCancelled {
                    writer.abandon(reason: "the body was cancelled")
                }
                onEnd(writer.finish())
            }
        )
        return response
    }

    /// The response fields that are stored: all but the per-transfer, hop-by-hop, `Age` and `Set-Cookie` fields.
    static func storedHeaders(_ headers: HeaderFields) -> HeaderFields {
        var dropped: Set<String> = [
            "content-encoding", "content-length", "transfer-encoding", "connection", "keep-alive", "te", "trailer",
            "upgrade", "proxy-authenticate", "proxy-authentication-info", "proxy-connection", "age", "set-cookie",
        ]
        for value in headers.values(for: "Connection") {
            for name in value.split(separator: ",") {
                dropped.insert(name.trimmingCharacters(in: .whitespaces).lowercased())
            }
        }
        return HeaderFields(headers.fields.filter { !dropped.contains($0.name.lowercased()) })
    }
}

/// Starts on URLSession's queue: its synchronous part neither calls URLSession nor blocks.
extension OfflineCacheHandler: StartsInline {}
