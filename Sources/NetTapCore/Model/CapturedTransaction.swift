import Foundation

/// NetTap's record of one request and its fate: what was asked, what came back, how long it took,
/// and which part of the pipeline answered.
///
/// Transactions are values: each ``TransactionEvent`` carries a snapshot. Bodies are kept up to the
/// interceptor's body byte limit (1 MiB by default) with the full byte count alongside.
public struct CapturedTransaction: Sendable, Identifiable, Hashable, Codable {
    /// Where the transaction stands.
    public enum State: String, Sendable, Hashable, Codable {
        /// The request was sent; no response head yet.
        case pending
        /// The response head arrived; the body is still coming.
        case receiving
        /// The response finished normally.
        case completed
        /// The request failed; see ``CapturedTransaction/error``.
        case failed
        /// The caller cancelled the request.
        case cancelled
    }

    /// A unique identifier.
    public let id: UUID
    /// The request as sent by the pipeline's last stage (after rewrites).
    public var request: CapturedRequest
    /// The response, once its head arrived.
    public var response: CapturedResponse?
    /// Redirect hops followed before the final response, in order.
    public var redirects: [RedirectHop]
    /// Milestones in milliseconds since ``Timings/startDate``.
    public var timings: Timings
    /// The failure, when ``state`` is `.failed` or `.cancelled`.
    public var error: TransactionError?
    /// Who answered: `network` for the forwarding transport, `passthrough` for requests handed untouched to
    /// the platform, or the ``TransactionHandler/name`` of the handler that answered.
    public var answeredBy: String
    /// Free-form notes added by handlers (``TransactionContext/annotate(_:_:)``), exported to HAR `comment`.
    public var annotations: [String: String]
    /// Where the transaction stands.
    public var state: State
    /// What handlers found (integrity mismatches, audit findings), in the order added.
    public var findings: [Finding]
    /// Where a ``Redactor`` replaced secrets in this record (`request header Authorization`, `request query
    /// token`, `response json $.access_token`), in the order found; empty when nothing was replaced or the
    /// record was not redacted.
    ///
    /// The capture log's transactions are redacted when recorded (``NetTapInterceptor/redactor``), so this says what
    /// a reader of the record (or of its HAR export) cannot see. Records encoded before this field existed
    /// decode with it empty.
    public var redactions: [RedactionLocation]
    /// What the transport saw on the wire (connection, protocol, phases, TLS); `nil` for handler answers and
    /// records made before it existed.
    public var wire: WireDetails?

    /// Creates a transaction record.
    /// - Parameters:
    ///   - id: A unique identifier.
    ///   - request: The request.
    ///   - response: The response, when known.
    ///   - redirects: Redirect hops.
    ///   - timings: Milestones.
    ///   - error: The failure, if any.
    ///   - answeredBy: Who answered.
    ///   - annotations: Handler notes.
    ///   - state: Where the transaction stands.
    ///   - findings: What handlers found; none by default.
    ///   - redactions: Where secrets were replaced; none by default.
    ///   - wire: What the transport saw on the wire; none by default.
    public init(
        id: UUID = UUID(),
        request: CapturedRequest,
        response: CapturedResponse? = nil,
        redirects: [RedirectHop] = [],
        timings: Timings,
        error: TransactionError? = nil,
        answeredBy: String = CapturedTransaction.answeredByNetwork,
        annotations: [String: String] = [:],
        state: State = .pending,
        findings: [Finding] = [],
        redactions: [RedactionLocation] = [],
        wire: WireDetails? = nil
    ) {
        self.id = id
        self.request = request
        self.response = response
        self.redirects = redirects
        self.timings = timings
        self.error = error
        self.answeredBy = answeredBy
        self.annotations = annotations
        self.state = state
        self.findings = findings
        self.redactions = redactions
        self.wire = wire
    }

    private enum CodingKeys: String, CodingKey {
        case id, request, response, redirects, timings, error, answeredBy, annotations, state, findings, redactions
        case wire
    }

    /// Decodes a record; a missing `redactions` (records written before it existed) reads as empty, a missing
    /// `wire` as `nil`.
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` when another field is missing or malformed.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(UUID.self, forKey: .id)
        request = try container.decode(CapturedRequest.self, forKey: .request)
        response = try container.decodeIfPresent(CapturedResponse.self, forKey: .response)
        redirects = try container.decode([RedirectHop].self, forKey: .redirects)
        timings = try container.decode(Timings.self, forKey: .timings)
        error = try container.decodeIfPresent(TransactionError.self, forKey: .error)
        answeredBy = try container.decode(String.self, forKey: .answeredBy)
        annotations = try container.decode([String: String].self, forKey: .annotations)
        state = try container.decode(State.self, forKey: .state)
        findings = try container.decode([Finding].self, forKey: .findings)
        redactions = try container.decodeIfPresent([RedactionLocation].self, forKey: .redactions) ?? []
        wire = try container.decodeIfPresent(WireDetails.self, forKey: .wire)
    }

    /// The ``answeredBy`` value of transactions answered by the forwarding transport.
    public static let answeredByNetwork = "network"
    /// The ``answeredBy`` value of requests handed untouched to the platform's own HTTP stack
    /// (download tasks, upload bodies NetTap cannot read).
    public static let answeredByPassthrough = "passthrough"
}

/// A captured request: method, URL, headers and body.
public struct CapturedRequest: Sendable, Hashable, Codable {
    /// The method, for example `GET`.
    public var method: String
    /// The full URL.
    public var url: URL
    /// The header fields as sent.
    public var headers: HeaderFields
    /// The body, if the request had one.
    public var body: CapturedBody?

    /// Creates a captured request.
    /// - Parameters:
    ///   - method: The method.
    ///   - url: The URL.
    ///   - headers: The header fields.
    ///   - body: The body, if any.
    public init(method: String, url: URL, headers: HeaderFields, body: CapturedBody? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

/// A captured response: status, headers and body.
public struct CapturedResponse: Sendable, Hashable, Codable {
    /// The HTTP status code.
    public var statusCode: Int
    /// The protocol version, for example `HTTP/1.1`.
    public var httpVersion: String
    /// The header fields as received (on Linux, repeated fields arrive joined by `", "`).
    public var headers: HeaderFields
    /// The final URL.
    public var url: URL
    /// The body as delivered to the caller (decoded), possibly truncated.
    public var body: CapturedBody?

    /// Creates a captured response.
    /// - Parameters:
    ///   - statusCode: The status code.
    ///   - httpVersion: The protocol version.
    ///   - headers: The header fields.
    ///   - url: The final URL.
    ///   - body: The body, if any.
    public init(
        statusCode: Int,
        httpVersion: String = "HTTP/1.1",
        headers: HeaderFields,
        url: URL,
        body: CapturedBody? = nil
    ) {
        self.statusCode = statusCode
        self.httpVersion = httpVersion
        self.headers = headers
        self.url = url
        self.body = body
    }
}

/// A body kept up to a byte limit, with its full size.
///
/// Redaction rewrites ``data`` (a password replaced by `[redacted]`) and keeps ``totalByteCount``: sizes are the
/// sizes of what was sent and received, whatever redaction replaced.
public struct CapturedBody: Sendable, Hashable, Codable {
    /// The bytes kept: the first `min(totalByteCount, limit)` bytes, secrets replaced when redacted.
    public var data: Data
    /// The full body size in bytes as sent or received, also when ``data`` was truncated or redacted.
    public var totalByteCount: Int64
    /// Whether ``data`` holds only the body's first bytes (the capture's byte limit cut it).
    public var isTruncated: Bool

    /// Creates a captured body.
    /// - Parameters:
    ///   - data: The bytes kept.
    ///   - totalByteCount: The full size in bytes; defaults to `data.count`.
    ///   - isTruncated: Whether `data` is only the first bytes; by default, whether it is shorter than
    ///     `totalByteCount`.
    public init(data: Data, totalByteCount: Int64? = nil, isTruncated: Bool? = nil) {
        let total = totalByteCount ?? Int64(data.count)
        self.data = data
        self.totalByteCount = total
        self.isTruncated = isTruncated ?? (Int64(data.count) < total)
    }

    private enum CodingKeys: String, CodingKey {
        case data, totalByteCount, isTruncated
    }

    /// Decodes a body; one encoded without `isTruncated` (before NetTap kept sizes through redaction) is truncated
    /// when its data is shorter than its size.
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` when `data` or `totalByteCount` is missing or unusable.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let data = try container.decode(Data.self, forKey: .data)
        let total = try container.decode(Int64.self, forKey: .totalByteCount)
        self.init(
            data: data,
            totalByteCount: total,
            isTruncated: try container.decodeIfPresent(Bool.self, forKey: .isTruncated)
        )
    }

    /// The same body with `data` rewritten (by redaction): size and truncation stay those of the body.
    package func replacingData(with data: Data) -> CapturedBody {
        CapturedBody(data: data, totalByteCount: totalByteCount, isTruncated: isTruncated)
    }
}

/// One redirect followed on the way to the final response.
public struct RedirectHop: Sendable, Hashable, Codable {
    /// The method of the request that was redirected.
    public var method: String
    /// The URL that answered with the redirect.
    public var url: URL
    /// The redirect status code (301, 302, 303, 307 or 308).
    public var statusCode: Int
    /// The redirect response's header fields, `Location` among them.
    public var headers: HeaderFields
    /// Milliseconds from the transaction start to the redirect response.
    public var elapsedMilliseconds: Double
    /// Who answered with the redirect: `network`, or the name of the handler (a stub, a cassette).
    public var answeredBy: String

    /// Creates a hop.
    /// - Parameters:
    ///   - method: The redirected request's method.
    ///   - url: The URL that redirected.
    ///   - statusCode: The redirect status.
    ///   - headers: The redirect response headers.
    ///   - elapsedMilliseconds: Milliseconds from the transaction start.
    ///   - answeredBy: Who answered with the redirect; `network` by default.
    public init(
        method: String,
        url: URL,
        statusCode: Int,
        headers: HeaderFields,
        elapsedMilliseconds: Double,
        answeredBy: String = CapturedTransaction.answeredByNetwork
    ) {
        self.method = method
        self.url = url
        self.statusCode = statusCode
        self.headers = headers
        self.elapsedMilliseconds = elapsedMilliseconds
        self.answeredBy = answeredBy
    }
}

/// Milestones of a transaction, in milliseconds since ``startDate``; `nil` when not reached or not known.
public struct Timings: Sendable, Hashable, Codable {
    /// Wall-clock time the request entered NetTap.
    public var startDate: Date
    /// Milliseconds until the request was handed to the network (or to the answering handler).
    public var requestSent: Double?
    /// Milliseconds until the response head arrived (time to first byte).
    public var firstByte: Double?
    /// Milliseconds until the transaction ended (finished, failed or cancelled).
    public var end: Double?

    /// Creates timings.
    /// - Parameters:
    ///   - startDate: The start.
    ///   - requestSent: Milliseconds until the request was sent.
    ///   - firstByte: Milliseconds until the first response byte.
    ///   - end: Milliseconds until the end.
    public init(startDate: Date, requestSent: Double? = nil, firstByte: Double? = nil, end: Double? = nil) {
        self.startDate = startDate
        self.requestSent = requestSent
        self.firstByte = firstByte
        self.end = end
    }

    /// The whole duration in milliseconds, when the transaction ended.
    public var duration: Double? { end }
}

/// A transaction's failure, kept as plain values so it can be stored and exported.
public struct TransactionError: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The error domain, for example `NSURLErrorDomain`.
    public var domain: String
    /// The error code, for example `-1001` for a timeout.
    public var code: Int
    /// A human-readable message.
    public var message: String

    /// Creates an error record.
    /// - Parameters:
    ///   - domain: The domain.
    ///   - code: The code.
    ///   - message: The message.
    public init(domain: String, code: Int, message: String) {
        self.domain = domain
        self.code = code
        self.message = message
    }

    /// Records any error by its `NSError` domain, code and a readable message.
    ///
    /// The message is the error's own description when it has one (FoundationNetworking puts libcurl's message
    /// there, such as "Failed to connect to 127.0.0.1 port 1 after 0 ms: Couldn't connect to server"); for URL
    /// Loading System codes without one it is the phrase Apple platforms use ("The request timed out."), since
    /// Linux would otherwise say only "The operation could not be completed".
    /// - Parameter error: The error.
    public init(_ error: any Error) {
        let ns = error as NSError
        let domain = error is URLError ? NSURLErrorDomain : ns.domain
        let code = (error as? URLError)?.errorCode ?? ns.code
        let message: String
        if let own = ns.userInfo[NSLocalizedDescriptionKey] as? String, !own.isEmpty {
            message = own
        } else if domain == NSURLErrorDomain, let phrase = Self.urlErrorPhrases[code] {
            message = phrase
        } else {
            message = ns.localizedDescription
        }
        self.init(domain: domain, code: code, message: message)
    }

    /// Messages for URL Loading System error codes, as Apple platforms word them.
    static let urlErrorPhrases: [Int: String] = [
        NSURLErrorCancelled: "cancelled",
        NSURLErrorBadURL: "unsupported URL",
        NSURLErrorTimedOut: "The request timed out.",
        NSURLErrorUnsupportedURL: "unsupported URL",
        NSURLErrorCannotFindHost: "A server with the specified hostname could not be found.",
        NSURLErrorCannotConnectToHost: "Could not connect to the server.",
        NSURLErrorNetworkConnectionLost: "The network connection was lost.",
        NSURLErrorDNSLookupFailed: "A server with the specified hostname could not be found.",
        NSURLErrorHTTPTooManyRedirects: "too many HTTP redirects",
        NSURLErrorNotConnectedToInternet: "The Internet connection appears to be offline.",
        NSURLErrorBadServerResponse: "The server returned an invalid response.",
        NSURLErrorZeroByteResource: "zero byte resource",
        NSURLErrorCannotDecodeRawData: "cannot decode raw data",
        NSURLErrorCannotParseResponse: "cannot parse response",
        NSURLErrorDataLengthExceedsMaximum: "resource exceeds maximum size",
        NSURLErrorSecureConnectionFailed:
            "An SSL error has occurred and a secure connection to the server cannot be made.",
    ]

    /// `domain code: message`.
    public var description: String { "\(domain) \(code): \(message)" }
}
