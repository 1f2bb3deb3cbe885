import Foundation
import NetTapCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The answer a stub gives: a status, headers and a body, a redirect, a simulated network failure, or a
/// response computed from the request, each with optional latency and body pacing.
///
/// ```swift
/// let ok = StubResponse.json(["id": 42, "name": "Ada"])
/// let slow = StubResponse.file(photoURL, headers: ["Content-Type": "image/jpeg"])
///     .withLatency(.milliseconds(300))
///     .withPacing(.bandwidth(bytesPerSecond: 100_000))
/// let offline = StubResponse.failure(.notConnectedToInternet)
/// let cutShort = StubResponse.data(payload).withFault(.truncate(afterBytes: 512))
/// let moved = StubResponse.redirect(to: "/v2/profile")
/// let echo = StubResponse.dynamic { request in .text("you asked for \(request.url?.path ?? "")") }
/// ```
///
/// What the app receives:
/// - `Content-Length` is added from the real body size only when the headers do not give one; a given value
///   is kept as is.
/// - `Content-Encoding` is always removed: stub bodies are the decoded bytes the app should read. A header
///   saying `gzip` over plain bytes would make captures, HAR exports and any client that decodes by itself
///   treat the bytes as compressed (NetTap's handler contract: answers carry decoded bodies, no
///   `Content-Encoding`).
/// - A `HEAD` request gets the head only (with the `Content-Length` of the body it would have had); so do
///   1xx, 204 and 304 responses, without an added `Content-Length`. For these a body duration passes before
///   the head, since NetTap never delivers their body (as the platform does not; platform-notes §10).
/// - ``latency`` passes before the head (or before the failure); ``pacing`` spreads the body over time.
///   Both wait on the transaction's clock, so tests drive them with a test clock; cancellation stops at once.
/// - A ``failure(_:)`` and a ``fault`` are worded as the platform words the real network failure (code,
///   description, underlying error, failing-URL keys), so the app cannot tell them from the network's.
public struct StubResponse: Sendable {
    /// What kind of answer this is.
    enum Kind: Sendable {
        case http
        case failure(URLError.Code)
        case dynamic(@Sendable (URLRequest) async throws -> StubResponse)
    }

    let kind: Kind
    /// The HTTP status code; 200 by default.
    public var statusCode: Int
    /// The header fields in order; repeated fields (several `Set-Cookie`) stay separate.
    public var headers: HeaderFields
    /// The body.
    public var body: StubBody
    /// The time before the head (or the failure) is delivered; zero by default.
    public var latency: Duration
    /// How the body is spread over time; `nil` delivers it as fast as the app reads.
    public var pacing: BodyPacing?
    /// The compiled templates when the response is templated (``templated(status:)``), else `nil`.
    var template: ResponseTemplate?
    /// A fault inside the body (the connection dropped, the body cut short, a stall) after some of its bytes;
    /// `nil` delivers the whole body.
    public var fault: BodyFault?

    /// Creates an HTTP response.
    ///
    /// - Parameters:
    ///   - statusCode: The HTTP status code; 200 by default.
    ///   - headers: The header fields; `Content-Encoding` is dropped when answering (see the type's notes).
    ///   - body: The body; empty by default.
    public init(statusCode: Int = 200, headers: HeaderFields = [:], body: StubBody = .empty) {
        self.init(kind: .http, statusCode: statusCode, headers: headers, body: body)
    }

    init(kind: Kind, statusCode: Int = 200, headers: HeaderFields = [:], body: StubBody = .empty) {
        self.kind = kind
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
        self.latency = .zero
        self.pacing = nil
        self.template = nil
        self.fault = nil
    }

    /// The simulated network failure, when this response fails the request instead of answering it.
    public var failure: URLError.Code? {
        if case .failure(let code) = kind { return code }
        return nil
    }

    /// Whether the response is computed by a closure at request time (``dynamic(_:)``).
    public var isDynamic: Bool {
        if case .dynamic = kind { return true }
        return false
    }

    // MARK: - Factories

    /// A response with only a status (and optional headers), no body.
    ///
    /// - Parameters:
    ///   - statusCode: The HTTP status code, for example `204`.
    ///   - headers: The header fields.
    /// - Returns: The response.
    public static func status(_ statusCode: Int, headers: HeaderFields = [:]) -> StubResponse {
        StubResponse(statusCode: statusCode, headers: headers)
    }

    /// A response with bytes from memory.
    ///
    /// - Parameters:
    ///   - data: The body bytes.
    ///   - statusCode: The HTTP status code; 200 by default.
    ///   - headers: The header fields.
    /// - Returns: The response.
    public static func data(_ data: Data, statusCode: Int = 200, headers: HeaderFields = [:]) -> StubResponse {
        StubResponse(statusCode: statusCode, headers: headers, body: .data(data))
    }

    /// A response with a UTF-8 text body.
    ///
    /// `Content-Type: text/plain; charset=utf-8` is added unless the headers name a type.
    /// - Parameters:
    ///   - text: The body text.
    ///   - statusCode: The HTTP status code; 200 by default.
    ///   - headers: The header fields.
    /// - Returns: The response.
    public static func text(_ text: String, statusCode: Int = 200, headers: HeaderFields = [:]) -> StubResponse {
        var headers = headers
        if !headers.contains(name: "Content-Type") {
            headers.add(name: "Content-Type", value: "text/plain; charset=utf-8")
        }
        return StubResponse(statusCode: statusCode, headers: headers, body: .text(text))
    }

    /// A response with a JSON body.
    ///
    /// `Content-Type: application/json` is added when answering unless the headers name a type.
    /// - Parameters:
    ///   - value: The JSON value, sent compact with sorted keys (RFC 8259).
    ///   - statusCode: The HTTP status code; 200 by default.
    ///   - headers: The header fields.
    /// - Returns: The response.
    public static func json(_ value: JSONValue, statusCode: Int = 200, headers: HeaderFields = [:]) -> StubResponse {
        StubResponse(statusCode: statusCode, headers: headers, body: .json(value))
    }

    /// A response whose body is streamed from a file in 64 KiB chunks, never loaded whole.
    ///
    /// A missing file fails the request with `URLError(.fileDoesNotExist)` whose description names the path.
    /// - Parameters:
    ///   - file: A `file:` URL.
    ///   - statusCode: The HTTP status code; 200 by default.
    ///   - headers: The header fields.
    /// - Returns: The response.
    public static func file(_ file: URL, statusCode: Int = 200, headers: HeaderFields = [:]) -> StubResponse {
        StubResponse(statusCode: statusCode, headers: headers, body: .file(file))
    }

    /// A redirect: the status and a `Location` header.
    ///
    /// NetTap follows a redirect answered by a handler exactly as it follows a network one (RFC 9110 §15.4),
    /// so the app sees the final response and the hop is recorded.
    /// - Parameters:
    ///   - location: The target, absolute or relative to the request URL.
    ///   - statusCode: 301, 302 (default), 303, 307 or 308.
    /// - Returns: The response.
    public static func redirect(to location: String, statusCode: Int = 302) -> StubResponse {
        StubResponse(statusCode: statusCode, headers: ["Location": location])
    }

    /// A redirect to a URL: the status and a `Location` header.
    ///
    /// - Parameters:
    ///   - location: The target URL.
    ///   - statusCode: 301, 302 (default), 303, 307 or 308.
    /// - Returns: The response.
    public static func redirect(to location: URL, statusCode: Int = 302) -> StubResponse {
        redirect(to: location.absoluteString, statusCode: statusCode)
    }

    /// A simulated network failure: the request fails with `URLError(code)` after ``latency``.
    ///
    /// - Parameter code: The URL Loading System error, for example `.notConnectedToInternet`, `.timedOut`,
    ///   `.cannotFindHost`, `.networkConnectionLost` or `.cancelled`.
    /// - Returns: The response.
    public static func failure(_ code: URLError.Code) -> StubResponse {
        StubResponse(kind: .failure(code), statusCode: 0)
    }

    /// A response computed from the request when it arrives.
    ///
    /// The outer response's ``latency`` passes first, then the computed response is answered with its own
    /// latency and pacing.
    /// - Parameter respond: Builds the response; an error it throws fails the request as is (throw `URLError`
    ///   to simulate the network).
    /// - Returns: The response.
    public static func dynamic(
        _ respond: @escaping @Sendable (URLRequest) async throws -> StubResponse
    ) -> StubResponse {
        StubResponse(kind: .dynamic(respond))
    }

    // MARK: - Timing

    /// A copy that waits `latency` before the head or failure.
    ///
    /// - Parameter latency: The time before the head.
    /// - Returns: The changed response.
    public func withLatency(_ latency: Duration) -> StubResponse {
        var copy = self
        copy.latency = latency
        return copy
    }

    /// A copy whose body is paced.
    ///
    /// - Parameter pacing: The body duration or bandwidth; `nil` for no pacing.
    /// - Returns: The changed response.
    public func withPacing(_ pacing: BodyPacing?) -> StubResponse {
        var copy = self
        copy.pacing = pacing
        return copy
    }

    /// A copy whose body (even an empty one) takes `duration` after the head.
    ///
    /// - Parameter duration: The body duration.
    /// - Returns: The changed response.
    public func withBodyDuration(_ duration: Duration) -> StubResponse {
        withPacing(.duration(duration))
    }

    /// A copy whose body arrives at `bytesPerSecond`.
    ///
    /// - Parameter bytesPerSecond: The bandwidth in bytes per second.
    /// - Returns: The changed response.
    public func withBandwidth(bytesPerSecond: Int) -> StubResponse {
        withPacing(.bandwidth(bytesPerSecond: bytesPerSecond))
    }

    /// A copy whose body fails part-way, as a server or network doing the same thing makes it fail.
    ///
    /// The head (with the whole body's `Content-Length`) and the body's first `afterBytes` bytes arrive, paced as
    /// ``pacing`` says; then the connection drops (`URLError(.networkConnectionLost)`), the body is cut short
    /// (the platform's "transfer closed" error) or it stalls until the request's own timeout (`URLError(.timedOut)`,
    /// no timer of the stub's own). A delegate receives the head and those bytes first; async and
    /// completion-handler callers get the error alone, as from a real upstream. A fault at or past the body's
    /// length changes nothing, and a response without content (HEAD, 1xx, 204, 304) has no body to fault. For a
    /// ``dynamic(_:)`` response the fault applies to the computed response unless it has its own.
    ///
    /// ```swift
    /// StubResponse.file(videoURL).withFault(.dropConnection(afterBytes: 1 << 20))
    /// StubResponse.json(["items": []]).withFault(.stall(afterBytes: 0))
    /// ```
    /// - Parameter fault: The fault; `nil` for none.
    /// - Returns: The changed response.
    public func withFault(_ fault: BodyFault?) -> StubResponse {
        var copy = self
        copy.fault = fault
        return copy
    }

    /// A copy with one more header field (kept beside existing fields of the same name).
    ///
    /// - Parameters:
    ///   - name: The field name.
    ///   - value: The field value.
    /// - Returns: The changed response.
    public func addingHeader(_ name: String, _ value: String) -> StubResponse {
        var copy = self
        copy.headers.add(name: name, value: value)
        return copy
    }
}
