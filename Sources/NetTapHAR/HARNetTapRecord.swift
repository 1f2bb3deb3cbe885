import Foundation
import NetTapCore

/// What NetTap knows about a transaction beyond HAR 1.2, stored in an entry's custom field `_netTap`.
///
/// HAR 1.2 allows custom fields whose names start with `_`. NetTap writes this object so that importing
/// its own export restores the transaction exactly: identifier, state, who answered, handler notes,
/// redirect hops, the error, the exact start and milestones, the first request's method and URL, and the
/// final URL. Other tools ignore it; the entry's `comment` carries the same facts as readable text.
///
/// A transaction that followed N redirects is written as N + 1 entries, as browsers do: one per hop, whose
/// record holds only ``redirectOf`` and ``hop``, then the final request's entry with the full record.
///
/// ```json
/// "_netTap": {"redirectOf": "E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "hop": 0}
/// ```
public struct HARNetTapRecord: Codable, Sendable, Hashable {
    /// The custom field name, `_netTap`.
    public static let fieldName = "_netTap"

    /// The transaction's identifier (written as a UUID string).
    public var id: UUID?
    /// The transaction state (written `pending`, `receiving`, `completed`, `failed` or `cancelled`).
    public var state: CapturedTransaction.State?
    /// Who answered: `network`, `passthrough` or a handler's name.
    public var answeredBy: String?
    /// Handler notes.
    public var annotations: [String: String]?
    /// What handlers found: objects with `rule`, `severity` (`info`, `low`, `medium`, `high`), `location`,
    /// `message` and `details` (see `Finding`).
    public var findings: [Finding]?
    /// Where secrets were replaced by `[redacted]` (`CapturedTransaction.redactions`): objects with `kind`, `name`
    /// and, when known, `part` and `header` (see `RedactionLocation`).
    public var redactions: [RedactionLocation]?
    /// Redirect hops followed before the final response, in order.
    public var redirects: [Redirect]?
    /// The failure, if any.
    public var error: TransactionError?
    /// The exact start in seconds since 2001-01-01T00:00:00Z, Foundation's reference date, which `Date`
    /// stores without rounding (HAR's `startedDateTime` keeps milliseconds only).
    public var startSecondsSince2001: Double?
    /// Milliseconds from the start until the request was sent.
    public var requestSent: Double?
    /// Milliseconds from the start until the response head arrived.
    public var firstByte: Double?
    /// Milliseconds from the start until the transaction ended.
    public var end: Double?
    /// The final URL after redirects, when it differs from the request URL.
    public var responseURL: String?
    /// The transaction's request method, when the entry's `request` shows a later request of its redirect
    /// chain with another method (a POST that a 303 turned into a GET, say).
    public var requestMethod: String?
    /// The transaction's request URL, when the entry's `request` shows a later request of its redirect chain.
    public var requestURL: String?
    /// On a redirect hop entry: the ``id`` of the transaction whose hop it is; `nil` on other entries.
    public var redirectOf: UUID?
    /// On a redirect hop entry: the hop's position in the transaction's ``redirects``, from 0.
    public var hop: Int?
    /// What the transport saw on the wire beyond `serverIPAddress`, `connection`, `timings` and
    /// `_securityDetails`: the transport, protocol, server port, connection reuse, exact phases and the full TLS
    /// details (``Wire``); `nil` for handler answers.
    public var wire: Wire?
    /// The sizes of bodies whose written text is not the whole body as sent or received (redaction rewrote it, or
    /// the capture's byte limit cut it); `nil` when every body was written whole.
    public var bodies: Bodies?

    /// Creates an empty record.
    public init() {}

    /// Decodes field by field: a field that cannot be read (another type, an unknown state, an id that is no UUID)
    /// is left out and the rest of the record kept.
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError.typeMismatch` when the record is not an object.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func field<T: Decodable>(_ key: CodingKeys) -> T? {
            (try? container.decodeIfPresent(T.self, forKey: key)) ?? nil
        }
        id = field(.id)
        state = field(.state)
        answeredBy = field(.answeredBy)
        annotations = field(.annotations)
        findings = field(.findings)
        redactions = field(.redactions)
        redirects = field(.redirects)
        error = field(.error)
        startSecondsSince2001 = field(.startSecondsSince2001)
        requestSent = field(.requestSent)
        firstByte = field(.firstByte)
        end = field(.end)
        responseURL = field(.responseURL)
        requestMethod = field(.requestMethod)
        requestURL = field(.requestURL)
        redirectOf = field(.redirectOf)
        hop = field(.hop)
        wire = field(.wire)
        bodies = field(.bodies)
    }

    private enum CodingKeys: String, CodingKey {
        case id, state, answeredBy, annotations, findings, redactions, redirects, error, startSecondsSince2001
        case requestSent, firstByte, end, responseURL, requestMethod, requestURL, redirectOf, hop, wire, bodies
    }

    /// Body sizes HAR 1.2 cannot carry: `content.size` is the length of the text written, and a redacted body's
    /// text differs from what was received.
    public struct Bodies: Codable, Sendable, Hashable {
        /// The request body's size in bytes as sent.
        public var requestSize: Int64?
        /// Whether the request's `postData.text` is only the body's first bytes.
        public var requestTruncated: Bool?
        /// The response body's size in bytes as received (decoded).
        public var responseSize: Int64?
        /// Whether the response's `content.text` is only the body's first bytes.
        public var responseTruncated: Bool?

        /// Creates the record of the bodies that are not written whole; `nil` when both are.
        ///
        /// - Parameters:
        ///   - request: The request body, if any.
        ///   - response: The response body, if any.
        public init?(request: CapturedBody?, response: CapturedBody?) {
            func isWhole(_ body: CapturedBody?) -> Bool {
                body.map { !$0.isTruncated && Int64($0.data.count) == $0.totalByteCount } ?? true
            }
            guard !isWhole(request) || !isWhole(response) else { return nil }
            if let request, !isWhole(request) {
                requestSize = request.totalByteCount
                requestTruncated = request.isTruncated
            }
            if let response, !isWhole(response) {
                responseSize = response.totalByteCount
                responseTruncated = response.isTruncated
            }
        }
    }

    /// One redirect hop.
    public struct Redirect: Codable, Sendable, Hashable {
        /// The redirected request's method.
        public var method: String
        /// The URL that answered with the redirect.
        public var url: String
        /// The redirect status code.
        public var status: Int
        /// The redirect response's header fields.
        public var headers: [HARHeader]
        /// Milliseconds from the transaction start to the redirect response.
        public var elapsedMilliseconds: Double
        /// Who answered with the redirect when not the network (a stub, a cassette); absent for the network.
        public var answeredBy: String?

        /// Creates a hop record.
        ///
        /// - Parameters:
        ///   - method: The method.
        ///   - url: The redirecting URL.
        ///   - status: The status code.
        ///   - headers: The header fields.
        ///   - elapsedMilliseconds: Milliseconds from the start.
        ///   - answeredBy: Who answered with the redirect; `nil` for the network.
        public init(
            method: String,
            url: String,
            status: Int,
            headers: [HARHeader],
            elapsedMilliseconds: Double,
            answeredBy: String? = nil
        ) {
            self.method = method
            self.url = url
            self.status = status
            self.headers = headers
            self.elapsedMilliseconds = elapsedMilliseconds
            self.answeredBy = answeredBy
        }
    }
}
