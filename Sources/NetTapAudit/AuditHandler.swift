import Foundation
import NetTapCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Reports what an app sends and receives that a security reviewer should see — credentials over plaintext
/// `http`, passwords in URLs, tokens and keys by their shape, insecure cookies, personal data sent to third
/// parties, oversized images — as findings on the captured transaction, without changing the traffic.
///
/// Put it first in the handler list, so it sees the request as the app made it and the response as the app
/// receives it. It never answers, never rewrites and never holds a byte back: it scans the request (the body up
/// to ``bodyScanLimit`` bytes) before calling `next`, and the response body through a tee while the app reads
/// it; the findings are on the transaction when it finishes. Each finding names an ``AuditRule``, a severity
/// and a location, never the secret value. Personal data is judged by ``firstPartyHosts`` (with an empty list
/// it is reported as `info`), and plaintext findings to a loopback host are `low`.
///
/// ```swift
/// let interceptor = NetTapInterceptor()
/// interceptor.handlers = [
///     AuditHandler(firstPartyHosts: ["example.com", "*.example.com"], imageSizeLimit: 300_000),
///     MockHandler(mocks: mocks),
/// ]
/// // later
/// for item in interceptor.captureLog.transactions.findings(minimumSeverity: .medium) {
///     print(item.transaction.request.url, item.finding.summary)
/// }
/// ```
///
/// Thread safety: the handler is an immutable value; use it from any thread.
///
/// The rules and the decisions behind their severities are in the “Auditing” article of the NetTap documentation.
public struct AuditHandler: TransactionHandler {
    /// The default ``imageSizeLimit``: 500 KiB (512,000 bytes).
    public static let defaultImageSizeLimit = 512_000
    /// The default ``bodyScanLimit``: 1 MiB (1,048,576 bytes).
    public static let defaultBodyScanLimit = 1_048_576
    /// How many bytes of an image response are kept to read its pixel size: 256 KiB, room for the Exif and
    /// other segments a JPEG may carry before its frame header.
    public static let imageHeaderByteLimit = 262_144

    /// Query item and body field names the `query.password` rule reports, compared after lower-casing and
    /// removing `_` and `-`.
    ///
    /// Besides these exact names, every name containing `password`, `passwd` or `passphrase`
    /// (`newPassword`) or ending in `secret` (`app_secret`) counts. `passenger` and `compass` do not.
    public static let passwordLikeNames: Set<String> = [
        "password", "passwd", "pwd", "pass", "passcode", "passphrase", "secret", "clientsecret", "otp", "totp",
    ]

    /// The handler's name: `audit` by default.
    public let name: String
    /// The hosts whose personal data rules stay quiet, as `HostPattern` text: exact host names, `*.example.com`
    /// for the subdomains of `example.com` (list `example.com` too for the domain itself), or `regex:…`.
    public let firstPartyHosts: [String]
    /// ``firstPartyHosts`` parsed; an entry that is not a valid pattern matches nothing.
    let firstPartyPatterns: [HostPattern]
    /// Bytes; an `image/*` response body longer than this is reported by `image.oversized`.
    public let imageSizeLimit: Int
    /// Bytes of each request and response body the pattern rules read; later bytes are not scanned.
    ///
    /// `0` scans no body.
    public let bodyScanLimit: Int
    /// The rules that never report.
    public let disabledRules: Set<AuditRule>
    /// What counts as a credential by name (headers, cookies, query items, body fields) for
    /// `plaintext.credentials`, besides ``passwordLikeNames``; `Redactor.default` by default.
    public let secrets: Redactor

    /// Creates the handler.
    ///
    /// - Parameters:
    ///   - firstPartyHosts: Host patterns of the app's own services (`api.example.com`, `*.example.com`,
    ///     `regex:…`; see `HostPattern`); empty by default (personal data findings are then `info`). An entry that
    ///     is not a valid pattern matches nothing; the configuration file rejects it with its JSON path.
    ///   - imageSizeLimit: Bytes; ``defaultImageSizeLimit`` (500 KiB) by default.
    ///   - bodyScanLimit: Bytes read per body; ``defaultBodyScanLimit`` (1 MiB) by default.
    ///   - disabledRules: Rules that never report; none by default.
    ///   - secrets: The names that count as credentials; `Redactor.default` by default.
    ///   - name: The handler's name; `audit` by default.
    public init(
        firstPartyHosts: [String] = [],
        imageSizeLimit: Int = AuditHandler.defaultImageSizeLimit,
        bodyScanLimit: Int = AuditHandler.defaultBodyScanLimit,
        disabledRules: Set<AuditRule> = [],
        secrets: Redactor = .default,
        name: String = "audit"
    ) {
        self.firstPartyHosts = firstPartyHosts
        self.firstPartyPatterns = firstPartyHosts.compactMap { try? HostPattern($0) }
        self.imageSizeLimit = max(0, imageSizeLimit)
        self.bodyScanLimit = max(0, bodyScanLimit)
        self.disabledRules = disabledRules
        self.secrets = secrets
        self.name = name
    }

    /// Scans the request, passes it on unchanged, scans the response head and returns the response with a body
    /// that is scanned as the app reads it.
    ///
    /// - Parameters:
    ///   - request: The request; scanned as is.
    ///   - context: The transaction's context; findings are added to it.
    ///   - next: The rest of the pipeline, called exactly once with `request`.
    /// - Returns: The response from `next`, with the same status, headers and body bytes.
    /// - Throws: What `next` throws, unchanged.
    /// - Complexity: O(scanned request bytes) before `next`; O(1) per body chunk; O(kept bytes) once at the end
    ///   of a scanned body.
    public func handle(_ request: URLRequest, context: TransactionContext, next: Next) async throws -> HandlerResponse {
        if let url = request.url {
            let headers = HeaderFields(request.allHTTPHeaderFields ?? [:])
            for finding in requestFindings(url: url, headers: headers, body: request.httpBody) {
                context.addFinding(finding)
            }
        }
        let hopsBefore = context.redirects.count
        let response = try await next(request)
        for hop in context.redirects.dropFirst(hopsBefore) {
            for finding in cookieFindings(url: hop.url, headers: hop.headers) { context.addFinding(finding) }
        }
        guard let url = response.url ?? request.url else { return response }
        for finding in cookieFindings(url: url, headers: response.headers) { context.addFinding(finding) }
        if let tls = context.wire?.tls {
            for finding in tlsFindings(url: url, tls: tls, now: Date()) { context.addFinding(finding) }
        }
        return observingBody(of: response, url: url, method: request.httpMethod ?? "GET", context: context)
    }

    /// The response with its body teed into a scan, or the response itself when its body is not scanned.
    private func observingBody(
        of response: HandlerResponse,
        url: URL,
        method: String,
        context: TransactionContext
    ) -> HandlerResponse {
        guard method.uppercased() != "HEAD", response.statusCode != 204, response.statusCode != 304 else {
            return response
        }
        let mimeType = ScannedValue.mimeType(response.headers["Content-Type"])
        let isImage = mimeType.hasPrefix("image/") && !disabledRules.contains(.imageOversized)
        let mayBeText =
            bodyScanLimit > 0 && !disabledRules.contains(.tokenPattern)
            && (mimeType.isEmpty || ScannedValue.isTextLike(mimeType: mimeType, sample: Data()))
        guard isImage || mayBeText else { return response }
        let scan = BodyScan(keepLimit: max(isImage ? Self.imageHeaderByteLimit : 0, mayBeText ? bodyScanLimit : 0))
        let report: @Sendable (Bool) -> Void = { isComplete in
            guard let result = scan.finish() else { return }
            let findings = responseBodyFindings(
                url: url,
                mimeType: mimeType,
                kept: result.kept,
                totalBytes: result.total,
                isComplete: isComplete
            )
            for finding in findings { context.addFinding(finding) }
        }
        var observed = response
        observed.body = response.body.teed(
            onChunk: { scan.add($0) },
            onCancel: { report(false) },
            onEnd: { error, isCancelled in report(error == nil && !isCancelled) }
        )
        return observed
    }
}

/// The bytes of one response body seen so far: all counted, the first ones kept.
///
/// Thread safety: every member may be used from any thread.
private final class BodyScan: Sendable {
    private struct State {
        var kept = Data()
        var total = 0
        var isFinished = false
    }

    let keepLimit: Int
    private let state = Locked(State())

    init(keepLimit: Int) {
        self.keepLimit = keepLimit
    }

    func add(_ chunk: Data) {
        state.withLock { state in
            state.total += chunk.count
            let room = keepLimit - state.kept.count
            if room > 0 { state.kept.append(chunk.prefix(room)) }
        }
    }

    /// The kept bytes and the total, the first time only.
    func finish() -> (kept: Data, total: Int)? {
        state.withLock { state in
            guard !state.isFinished else { return nil }
            state.isFinished = true
            return (state.kept, state.total)
        }
    }
}

/// Starts on URLSession's queue: its synchronous part neither calls URLSession nor blocks.
extension AuditHandler: StartsInline {}
