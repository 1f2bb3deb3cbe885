import Foundation
import NetTapCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Verifies scripts, styles and other assets against expected digests before the app sees a byte of them, and
/// serves a known-good copy, fails, or reports when one was tampered with on the way (an operator or proxy
/// injecting ads into JavaScript over HTTP).
///
/// For a `2xx` response that the first selecting ``IntegrityRule`` has an expected digest for, the handler
/// reads the whole (decoded) body, hashes it, and only then returns; other responses stream through. A mismatch
/// adds an `integrity.mismatch` finding and then, by the rule's ``IntegrityRule/MismatchAction``, answers with
/// the verified known-good copy (and none of the tampered response's other headers), fails the request with
/// `URLError(.badServerResponse)`, or delivers the received body. A body longer than ``bufferByteLimit`` fails
/// the request, and a `Range` header is dropped so the whole body can be verified: no unverified byte is ever
/// delivered.
///
/// ```swift
/// let interceptor = NetTapInterceptor()
/// interceptor.handlers = [
///     IntegrityHandler(rules: [
///         IntegrityRule(.host("cdn.example.com"), expect: .fileName, onMismatch: .fallback(.directory(bundled)))
///     ])
/// ]
/// ```
///
/// Thread safety: the handler is an immutable value; use it from any thread.
///
/// The findings, the fallback's headers and the other rules are in the “Local files and integrity” article of
/// the NetTap documentation.
public struct IntegrityHandler: TransactionHandler {
    /// The finding rule of a digest mismatch: `integrity.mismatch`.
    public static let mismatchRule = "integrity.mismatch"
    /// The finding rule of a body too long to verify: `integrity.too-large`.
    public static let tooLargeRule = "integrity.too-large"
    /// The annotation key the handler writes: `integrity`.
    public static let annotationKey = "integrity"
    /// The default ``bufferByteLimit``: 32 MiB.
    public static let defaultBufferByteLimit = 32 * 1024 * 1024

    /// The handler's name, `answeredBy` when it serves a fallback copy: `integrity` by default.
    public let name: String
    /// The rules, tried in order; the first that selects a request applies.
    public let rules: [IntegrityRule]
    /// The most body bytes held for verification; a longer body fails the request.
    public let bufferByteLimit: Int

    /// Creates the handler.
    ///
    /// - Parameters:
    ///   - rules: The rules, tried in order.
    ///   - bufferByteLimit: Bytes; ``defaultBufferByteLimit`` (32 MiB) by default.
    ///   - name: The handler's name; `integrity` by default.
    public init(
        rules: [IntegrityRule],
        bufferByteLimit: Int = IntegrityHandler.defaultBufferByteLimit,
        name: String = "integrity"
    ) {
        self.rules = rules
        self.bufferByteLimit = bufferByteLimit
        self.name = name
    }

    /// Passes the request on and verifies the response of a selected request before returning it.
    ///
    /// - Parameters:
    ///   - request: The request; rules select on it, and its URL path is the one looked up for expectations.
    ///   - context: The transaction's context: findings, annotations and `answeredBy` for a fallback.
    ///   - next: The rest of the pipeline.
    /// - Returns: The response as received (streamed when not verified, whole after a match or under
    ///   ``IntegrityRule/MismatchAction/report``), or the fallback copy.
    /// - Throws: `URLError(.badServerResponse)` for a mismatch that is not served from a verified fallback;
    ///   `URLError(.dataLengthExceedsMaximum)` for a body longer than ``bufferByteLimit``; what `next` or the
    ///   body throws.
    /// - Complexity: O(body length) for a selected response, O(number of rules) otherwise.
    public func handle(_ request: URLRequest, context: TransactionContext, next: Next) async throws -> HandlerResponse {
        var sent = request
        if request.value(forHTTPHeaderField: "Range") != nil, rules.contains(where: { $0.selects(request) }) {
            sent.setValue(nil, forHTTPHeaderField: "Range")
            sent.setValue(nil, forHTTPHeaderField: "If-Range")
            context.annotate(Self.annotationKey + ".range", "Range removed: only the whole file can be verified")
        }
        let response = try await next(sent)
        guard let requestURL = request.url, let rule = rules.first(where: { $0.selects(request) }),
            Self.hasVerifiableBody(response, method: request.httpMethod)
        else {
            return response
        }
        let path = RequestMatcher.path(of: requestURL)
        guard let expected = rule.expectation(forPath: path) else {
            context.annotate(Self.annotationKey, "no expected digest for \(path) (\(rule.expectationSource))")
            return response
        }
        let url = response.url ?? requestURL
        let body = try await buffer(response.body, url: url, context: context)
        let actual = try Self.digest(of: body, algorithm: expected.algorithm)
        if expected.accepts(actual) {
            context.annotate(Self.annotationKey, "verified \(actual.algorithm) (\(rule.expectationSource))")
            var verified = response
            verified.body = .data(body)
            return verified
        }
        let mismatch = Mismatch(url: url, path: path, expected: expected, actual: actual)
        switch rule.onMismatch {
        case .report:
            context.addFinding(mismatch.finding(action: "report", note: "the received body was delivered"))
            context.annotate(Self.annotationKey, "mismatch reported (\(rule.expectationSource))")
            var reported = response
            reported.body = .data(body)
            return reported
        case .fail:
            context.addFinding(mismatch.finding(action: "fail", note: "the request failed"))
            context.annotate(Self.annotationKey, "mismatch: request failed (\(rule.expectationSource))")
            throw mismatch.error(reason: nil)
        case .fallback(let fallback):
            return try serveFallback(fallback, for: mismatch, original: response, context: context)
        }
    }

    /// Whether the response has a body to verify: a 2xx other than 204 and 205, to a request other than `HEAD`.
    private static func hasVerifiableBody(_ response: HandlerResponse, method: String?) -> Bool {
        (200..<300).contains(response.statusCode) && response.statusCode != 204 && response.statusCode != 205
            && method?.uppercased() != "HEAD"
    }

    /// Reads the whole body, failing closed (and stopping the transfer) when it exceeds the limit.
    private func buffer(_ body: ResponseBody, url: URL, context: TransactionContext) async throws -> Data {
        if let length = body.expectedLength, length > Int64(bufferByteLimit) {
            body.channel.cancel()
            throw tooLarge(url: url, length: "\(length)", context: context)
        }
        var data = Data()
        for try await chunk in body {
            guard data.count + chunk.count <= bufferByteLimit else {
                body.channel.cancel()
                throw tooLarge(url: url, length: "more than \(bufferByteLimit)", context: context)
            }
            data.append(chunk)
        }
        return data
    }

    private func tooLarge(url: URL, length: String, context: TransactionContext) -> URLError {
        let message =
            "the body of \(url.absoluteString) is \(length) bytes, more than the \(bufferByteLimit) bytes NetTap "
            + "holds to verify it; it was not delivered"
        context.addFinding(
            Finding(
                rule: Self.tooLargeRule,
                severity: .high,
                location: "body",
                message: message,
                details: ["url": url.absoluteString, "limit": "\(bufferByteLimit)", "action": "fail"]
            )
        )
        context.annotate(Self.annotationKey, "body too large to verify: request failed")
        return URLError(
            .dataLengthExceedsMaximum,
            userInfo: [
                NSLocalizedDescriptionKey: "integrity check impossible: \(message)",
                NSURLErrorFailingURLErrorKey: url,
                "NSErrorFailingURLStringKey": url.absoluteString,
            ]
        )
    }

    /// Serves the known-good copy when it exists and matches; fails otherwise.
    private func serveFallback(
        _ fallback: IntegrityFallback,
        for mismatch: Mismatch,
        original: HandlerResponse,
        context: TransactionContext
    ) throws -> HandlerResponse {
        let failure: (detail: String, reason: String, extra: [String: String])
        if let file = fallback.fileURL(forPath: mismatch.path) {
            if let data = try? Data(contentsOf: file) {
                let digest = try Self.digest(of: data, algorithm: mismatch.expected.algorithm)
                if mismatch.expected.accepts(digest) {
                    context.addFinding(
                        mismatch.finding(
                            action: "fallback",
                            note: "the bundled copy \(file.lastPathComponent) was served instead",
                            extra: ["fallback": file.path]
                        )
                    )
                    context.annotate(Self.annotationKey, "mismatch: served fallback \(file.path)")
                    context.answer(by: name)
                    return Self.fallbackResponse(data, path: mismatch.path, original: original)
                }
                failure = (
                    "mismatch",
                    "the fallback copy \(file.path) does not match either (\(digest.sri))",
                    ["fallback": file.path, "fallbackActual": digest.sri]
                )
            } else {
                failure = ("missing", "the fallback copy \(file.path) is missing", ["fallback": file.path])
            }
        } else {
            failure = ("missing", "there is no fallback copy for \(mismatch.path)", [:])
        }
        var extra = failure.extra
        extra["fallbackProblem"] = failure.detail
        context.addFinding(
            mismatch.finding(action: "fail", note: failure.reason + ", so the request failed", extra: extra)
        )
        context.annotate(Self.annotationKey, "mismatch: fallback \(failure.detail), request failed")
        throw mismatch.error(reason: failure.reason)
    }

    /// The content types of the fallback copy by URL path extension, for the kinds integrity rules select.
    static let fallbackContentTypes: [String: String] = [
        "js": "text/javascript; charset=utf-8", "mjs": "text/javascript; charset=utf-8",
        "css": "text/css; charset=utf-8", "html": "text/html; charset=utf-8", "htm": "text/html; charset=utf-8",
        "wasm": "application/wasm", "json": "application/json", "svg": "image/svg+xml",
    ]

    private static func fallbackResponse(_ data: Data, path: String, original: HandlerResponse) -> HandlerResponse {
        var headers = HeaderFields()
        let pathExtension = (path as NSString).pathExtension.lowercased()
        if let type = fallbackContentTypes[pathExtension] ?? original.headers["Content-Type"] {
            headers.set(name: "Content-Type", value: type)
        }
        headers.set(name: "Content-Length", value: "\(data.count)")
        return HandlerResponse(
            statusCode: 200,
            headers: headers,
            url: original.url,
            httpVersion: original.httpVersion,
            body: .data(data)
        )
    }

    private static func digest(of data: Data, algorithm: DigestAlgorithm) throws -> IntegrityDigest {
        do {
            return try IntegrityDigest.of(data, using: algorithm)
        } catch {
            // Fail closed: without a digest nothing can be delivered.
            throw URLError(
                .badServerResponse,
                userInfo: [NSLocalizedDescriptionKey: "integrity check impossible: \(error)"]
            )
        }
    }
}

/// One detected mismatch, worded for findings and errors.
private struct Mismatch {
    var url: URL
    var path: String
    var expected: IntegrityMetadata
    var actual: IntegrityDigest

    func finding(action: String, note: String, extra: [String: String] = [:]) -> Finding {
        var details = [
            "url": url.absoluteString, "algorithm": actual.algorithm.rawValue, "expected": expected.sri,
            "actual": actual.sri, "action": action,
        ]
        details.merge(extra) { _, new in new }
        return Finding(
            rule: IntegrityHandler.mismatchRule,
            severity: .high,
            location: "body",
            message: "the \(actual.algorithm) digest of \(path) is not the expected one; \(note)",
            details: details
        )
    }

    func error(reason: String?) -> URLError {
        var text =
            "integrity check failed for \(url.absoluteString): expected \(expected.sri), received a body with "
            + "\(actual.sri)"
        if let reason { text += "; \(reason)" }
        return URLError(
            .badServerResponse,
            userInfo: [
                NSLocalizedDescriptionKey: text,
                NSURLErrorFailingURLErrorKey: url,
                "NSErrorFailingURLStringKey": url.absoluteString,
            ]
        )
    }
}

extension IntegrityRule {
    /// Where the expectation came from, for annotations: `file name`, `manifest` or `digest`.
    var expectationSource: String {
        switch expectation {
        case .fileName: "file name"
        case .manifest: "manifest"
        case .digest: "digest"
        }
    }
}

/// Starts on URLSession's queue: its synchronous part neither calls URLSession nor blocks.
extension IntegrityHandler: StartsInline {}
