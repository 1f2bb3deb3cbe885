import Foundation
import NetTapCore
import NetTapHAR

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The real HAR exports copied from ../shared/fixtures/har (see Fixtures/README.md).
enum Fixture {
    static func url(_ name: String) throws -> URL {
        guard let folder = Bundle.module.url(forResource: "Fixtures", withExtension: nil) else {
            throw CocoaError(.fileNoSuchFile)
        }
        return folder.appendingPathComponent(name)
    }

    static func load(_ name: String) throws -> HARDocument {
        try HARDocument.load(contentsOf: url(name))
    }
}

/// A transport that records what reaches it and answers 599 with the body `network`.
final class RecordingTransport: Transport {
    private let received = Locked([URLRequest]())

    var requests: [URLRequest] { received.current }

    func send(_ request: URLRequest, context: TransactionContext) async throws -> HandlerResponse {
        received.withLock { $0.append(request) }
        return HandlerResponse(statusCode: 599, headers: ["Content-Type": "text/plain"], body: .string("network"))
    }
}

/// Transactions covering what an export must carry: text, form and binary bodies, redirects, a failure,
/// a truncated body, a handler's answer with notes.
enum SampleTransactions {
    static let start = Date(timeIntervalSinceReferenceDate: 736_000_000.123_456_7)

    static func url(_ string: String) -> URL {
        URL(string: "http://127.0.0.1:8080" + string) ?? URL(fileURLWithPath: "/")
    }

    static func timings(
        offset: Double,
        sent: Double? = 1.25,
        firstByte: Double? = 20.5,
        end: Double? = 31.75
    )
        -> Timings
    {
        Timings(startDate: start.addingTimeInterval(offset), requestSent: sent, firstByte: firstByte, end: end)
    }

    /// Bytes 0...255, then a PNG signature: not UTF-8.
    static let binary = Data((0...255).map { UInt8($0) }) + Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])

    static var all: [CapturedTransaction] {
        [
            get, post, binaryUpload, redirected, failed, truncated, notFollowedRedirect, mocked, postRedirected,
            failedAfterRedirect,
        ]
    }

    /// The positions of each transaction's entries in the export of ``all``: hop entries, then the final one.
    enum Entry {
        static let get = 0
        static let post = 1
        static let binaryUpload = 2
        static let redirectedHops = [3, 4]
        static let redirected = 5
        static let failed = 6
        static let truncated = 7
        static let notFollowedRedirect = 8
        static let mocked = 9
        static let postRedirectedHops = [10, 11]
        static let postRedirected = 12
        static let failedAfterRedirectHops = [13]
        static let failedAfterRedirect = 14
        static let count = 15
    }

    static let get = CapturedTransaction(
        request: CapturedRequest(
            method: "GET",
            url: url("/search?q=caf%C3%A9%20au%20lait&empty=&flag&q=2"),
            headers: ["Accept": "application/json", "Cookie": "session=abc123; theme=dark"]
        ),
        response: CapturedResponse(
            statusCode: 200,
            headers: HeaderFields([
                .init(name: "Content-Type", value: "application/json; charset=utf-8"),
                .init(name: "Set-Cookie", value: "seen=1; Path=/; HttpOnly"),
                .init(name: "Set-Cookie", value: "lang=fr; Path=/; Secure"),
            ]),
            url: url("/search?q=caf%C3%A9%20au%20lait&empty=&flag&q=2"),
            body: CapturedBody(data: Data(#"{"results":["café","thé"]}"#.utf8))
        ),
        timings: timings(offset: 0),
        state: .completed
    )

    static let post = CapturedTransaction(
        request: CapturedRequest(
            method: "POST",
            url: url("/items"),
            headers: ["Content-Type": "application/json", "Authorization": "Bearer secret-token"],
            body: CapturedBody(data: Data(#"{"name":"it's \"quoted\"\nline two"}"#.utf8))
        ),
        response: CapturedResponse(
            statusCode: 201,
            headers: ["Content-Type": "application/json", "Location": "/items/7"],
            url: url("/items"),
            body: CapturedBody(data: Data(#"{"id":7}"#.utf8))
        ),
        timings: timings(offset: 0.1),
        state: .completed
    )

    static let binaryUpload = CapturedTransaction(
        request: CapturedRequest(
            method: "PUT",
            url: url("/upload/logo.png"),
            headers: ["Content-Type": "application/octet-stream"],
            body: CapturedBody(data: binary)
        ),
        response: CapturedResponse(
            statusCode: 200,
            headers: ["Content-Type": "image/png"],
            url: url("/upload/logo.png"),
            body: CapturedBody(data: binary)
        ),
        timings: timings(offset: 0.2),
        state: .completed
    )

    static let redirected = CapturedTransaction(
        request: CapturedRequest(method: "GET", url: url("/old"), headers: [:]),
        response: CapturedResponse(
            statusCode: 200,
            httpVersion: "HTTP/1.1",
            headers: ["Content-Type": "text/plain"],
            url: url("/final"),
            body: CapturedBody(data: Data("arrived".utf8))
        ),
        redirects: [
            RedirectHop(
                method: "GET",
                url: url("/old"),
                statusCode: 302,
                headers: ["Location": "/middle"],
                elapsedMilliseconds: 4.5
            ),
            RedirectHop(
                method: "GET",
                url: url("/middle"),
                statusCode: 301,
                headers: ["Location": "/final"],
                elapsedMilliseconds: 9.25
            ),
        ],
        timings: timings(offset: 0.3),
        state: .completed
    )

    static let failed = CapturedTransaction(
        request: CapturedRequest(method: "GET", url: url("/slow"), headers: [:]),
        timings: timings(offset: 0.4, firstByte: nil, end: 60_000.5),
        error: TransactionError(domain: NSURLErrorDomain, code: -1001, message: "The request timed out."),
        state: .failed
    )

    static let truncated = CapturedTransaction(
        request: CapturedRequest(method: "GET", url: url("/big.txt"), headers: [:]),
        response: CapturedResponse(
            statusCode: 200,
            headers: ["Content-Type": "text/plain; charset=utf-8"],
            url: url("/big.txt"),
            body: CapturedBody(data: Data(String(repeating: "abcdefghij", count: 100).utf8), totalByteCount: 5_000)
        ),
        timings: timings(offset: 0.5),
        state: .completed
    )

    static let notFollowedRedirect = CapturedTransaction(
        request: CapturedRequest(method: "GET", url: url("/moved"), headers: [:]),
        response: CapturedResponse(
            statusCode: 307,
            headers: ["Location": "http://127.0.0.1:8080/elsewhere", "Content-Length": "0"],
            url: url("/moved"),
            body: CapturedBody(data: Data())
        ),
        timings: timings(offset: 0.6),
        state: .completed
    )

    static let mocked = CapturedTransaction(
        request: CapturedRequest(method: "DELETE", url: url("/items/7"), headers: [:]),
        response: CapturedResponse(statusCode: 204, headers: [:], url: url("/items/7")),
        timings: timings(offset: 0.7, sent: 0, firstByte: 0.5, end: 0.75),
        answeredBy: "mock",
        annotations: ["stub": "delete-item", "scenario": "happy path"],
        state: .completed,
        findings: [
            Finding(
                rule: "integrity.mismatch",
                severity: .high,
                location: "body",
                message: "The body's SHA-256 differs from the manifest's.",
                details: ["action": "fallback", "expected": "sha256-AAAA"]
            )
        ]
    )

    /// A form POST answered 307 (method and body kept), then 303 (turned into a GET without the body).
    static let postRedirected = CapturedTransaction(
        request: CapturedRequest(
            method: "POST",
            url: url("/form"),
            headers: HeaderFields([
                .init(name: "Accept", value: "text/html"),
                .init(name: "Content-Type", value: "application/x-www-form-urlencoded"),
                .init(name: "Content-Length", value: "14"),
            ]),
            body: CapturedBody(data: Data("name=caf%C3%A9".utf8))
        ),
        response: CapturedResponse(
            statusCode: 200,
            headers: ["Content-Type": "text/html"],
            url: url("/done"),
            body: CapturedBody(data: Data("<p>done</p>".utf8))
        ),
        redirects: [
            RedirectHop(
                method: "POST",
                url: url("/form"),
                statusCode: 307,
                headers: ["Location": "/form2", "Content-Length": "0"],
                elapsedMilliseconds: 3
            ),
            RedirectHop(
                method: "POST",
                url: url("/form2"),
                statusCode: 303,
                headers: ["Location": "http://127.0.0.1:8080/done"],
                elapsedMilliseconds: 7.5
            ),
        ],
        timings: timings(offset: 0.8),
        state: .completed
    )

    /// A 302 to a relative `Location`, then a timeout on the next request.
    static let failedAfterRedirect = CapturedTransaction(
        request: CapturedRequest(method: "GET", url: url("/a/start"), headers: ["Accept": "*/*"]),
        redirects: [
            RedirectHop(
                method: "GET",
                url: url("/a/start"),
                statusCode: 302,
                headers: ["Location": "next?step=2"],
                elapsedMilliseconds: 5
            )
        ],
        timings: timings(offset: 0.9, firstByte: nil, end: 30_000.25),
        error: TransactionError(domain: NSURLErrorDomain, code: -1001, message: "The request timed out."),
        state: .failed
    )
}
