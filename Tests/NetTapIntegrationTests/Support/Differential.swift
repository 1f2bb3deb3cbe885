import Foundation
import NetTapCore
import NetTapTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One request as sent by one side, with what the app and the server saw.
struct Sent: Sendable {
    /// The unique `X-Test-ID` value of this send.
    var testID: String
    var outcome: Outcome
    /// The server's access-log lines carrying `testID` (every redirect hop included).
    var serverLines: [HTTPBin.LogLine]
}

/// The same request sent direct and through NetTap.
struct Pair: Sendable {
    var direct: Sent
    var nettap: Sent
    /// NetTap's capture record of the NetTap send; `nil` when none finished in time.
    var capture: CapturedTransaction?
}

/// How many requests the server must have logged for one send.
enum ServerCount: Sendable {
    /// Exactly this many access-log lines (redirect hops count one each).
    case exactly(Int)
    /// Not checked (for example when the server cannot be reached).
    case unchecked
}

/// What a comparison leaves out on purpose, because it legitimately differs between sides.
struct Allowance: Sendable {
    /// Lower-cased response header names not compared (`date` and `server` are never compared).
    var headers: Set<String> = []
    /// Top-level keys of an httpbin JSON echo not compared (`headers.X-Test-Id` is never compared).
    var jsonKeys: Set<String> = []
    /// Lower-cased request header names in an httpbin JSON echo's `headers` not compared.
    var echoHeaders: Set<String> = []

    static let none = Allowance()
}

/// Response headers that vary per response whoever sends the request.
let volatileHeaders: Set<String> = ["date", "server"]

/// Runs differential cases against the shared httpbin, directly or through the shared ``TLSFront``.
struct Differential {
    /// The httpbin whose access log counts each send's requests (behind the front, when there is one).
    let server: HTTPBin
    /// The HTTPS front the requests go to; `nil` for plain HTTP to ``server``.
    let front: TLSFront?
    var direct: Client = .direct
    var nettap: Client = .nettap

    init(direct: Client = .direct, nettap: Client = .nettap) async throws {
        server = try await HTTPBin.shared()
        front = nil
        self.direct = direct
        self.nettap = nettap
    }

    /// Requests go through `front` (nginx forwards them to its httpbin, whose access log still counts them by
    /// `X-Test-ID`).
    init(front: TLSFront, direct: Client = .direct, nettap: Client = .nettap) {
        server = front.httpbin
        self.front = front
        self.direct = direct
        self.nettap = nettap
    }

    /// A fresh `X-Test-ID`; both sides' IDs have the same length, so echoed bodies have equal lengths.
    static func makeTestID(_ side: String) -> String {
        "\(side == "direct" ? "d" : "n")-\(UUID().uuidString)"
    }

    /// Sends `request` once direct, once through NetTap (in that order), each with its own `X-Test-ID`,
    /// checks the server's request count for each, compares the two outcomes, and checks NetTap's capture.
    @discardableResult
    func run(
        _ request: URLRequest,
        style: CallerStyle,
        upload: Upload? = nil,
        cancellation: Cancellation = .none,
        serverCount: ServerCount = .exactly(1),
        allowing allowance: Allowance = .none,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Pair {
        try await run(
            making: { request },
            style: style,
            upload: upload,
            cancellation: cancellation,
            serverCount: serverCount,
            allowing: allowance,
            sourceLocation: sourceLocation
        )
    }

    /// Like ``run(_:style:upload:cancellation:serverCount:allowing:sourceLocation:)``, with a new
    /// request per side (for bodies that can be read only once, such as `httpBodyStream`).
    @discardableResult
    func run(
        making makeRequest: () -> URLRequest,
        style: CallerStyle,
        upload: Upload? = nil,
        cancellation: Cancellation = .none,
        serverCount: ServerCount = .exactly(1),
        allowing allowance: Allowance = .none,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Pair {
        try await run(
            making: makeRequest,
            serverCount: serverCount,
            allowing: allowance,
            sourceLocation: sourceLocation
        ) { client, request in
            await client.send(request, style: style, upload: upload, cancellation: cancellation)
        }
    }

    /// The differential core: `perform` sends one tagged request from one side and reports the outcome.
    @discardableResult
    func run(
        making makeRequest: () -> URLRequest,
        serverCount: ServerCount = .exactly(1),
        allowing allowance: Allowance = .none,
        expectsCapture: Bool = true,
        sourceLocation: SourceLocation = #_sourceLocation,
        perform: @Sendable (Client, URLRequest) async -> Outcome
    ) async throws -> Pair {
        let directSent = await send(
            makeRequest(),
            via: direct,
            serverCount: serverCount,
            sourceLocation: sourceLocation,
            perform: perform
        )
        let nettapSent = await send(
            makeRequest(),
            via: nettap,
            serverCount: serverCount,
            sourceLocation: sourceLocation,
            perform: perform
        )
        expectEquivalent(directSent.outcome, nettapSent.outcome, allowing: allowance, sourceLocation: sourceLocation)
        guard expectsCapture else { return Pair(direct: directSent, nettap: nettapSent, capture: nil) }
        let capture = await captured(testID: nettapSent.testID)
        #expect(capture != nil, "no finished capture for \(nettapSent.testID)", sourceLocation: sourceLocation)
        if let capture {
            expectCapture(capture, matches: nettapSent, serverCount: serverCount, sourceLocation: sourceLocation)
        }
        return Pair(direct: directSent, nettap: nettapSent, capture: capture)
    }

    /// Sends one request from one side in a caller style and waits for the server's log lines.
    func send(
        _ request: URLRequest,
        via client: Client,
        style: CallerStyle,
        serverCount: ServerCount = .exactly(1),
        sourceLocation: SourceLocation = #_sourceLocation
    ) async -> Sent {
        await send(request, via: client, serverCount: serverCount, sourceLocation: sourceLocation) { client, request in
            await client.send(request, style: style)
        }
    }

    /// Tags the request with a fresh `X-Test-ID`, sends it with `perform`, and waits for the server's log lines.
    func send(
        _ request: URLRequest,
        via client: Client,
        serverCount: ServerCount = .exactly(1),
        sourceLocation: SourceLocation = #_sourceLocation,
        perform: @Sendable (Client, URLRequest) async -> Outcome
    ) async -> Sent {
        let testID = Self.makeTestID(client.name)
        var tagged = request
        tagged.setValue(testID, forHTTPHeaderField: HTTPBin.testIDHeader)
        let outcome = await perform(client, tagged)
        var lines: [HTTPBin.LogLine] = []
        if case .exactly(let count) = serverCount {
            lines = await server.waitForRequests(withTestID: testID, count: count, timeout: .seconds(30))
            #expect(
                lines.count == count,
                "\(client.name): server saw \(lines.count) requests, expected \(count): \(lines)",
                sourceLocation: sourceLocation
            )
        }
        return Sent(testID: testID, outcome: outcome, serverLines: lines)
    }

    /// NetTap's finished capture record carrying this `X-Test-ID`, waiting up to 30 seconds.
    func captured(testID: String) async -> CapturedTransaction? {
        await withDeadline(.seconds(30)) {
            await NetTapInterceptor.shared.captureLog.waitForFinished { transaction in
                transaction.request.headers[HTTPBin.testIDHeader] == testID
            }
        }
    }
}

/// Compares what the app saw on both sides: status, URL, headers, body, error.
func expectEquivalent(
    _ direct: Outcome,
    _ nettap: Outcome,
    allowing allowance: Allowance = .none,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(nettap.error == direct.error, "error", sourceLocation: sourceLocation)
    #expect(nettap.errorIsURLError == direct.errorIsURLError, "error type", sourceLocation: sourceLocation)
    #expect(nettap.statusCode == direct.statusCode, "status", sourceLocation: sourceLocation)
    #expect(nettap.url == direct.url, "response URL", sourceLocation: sourceLocation)
    let ignored = volatileHeaders.union(allowance.headers)
    let directHeaders = direct.headers.filter { !ignored.contains($0.key) }
    let nettapHeaders = nettap.headers.filter { !ignored.contains($0.key) }
    #expect(nettapHeaders == directHeaders, "headers", sourceLocation: sourceLocation)
    if !allowance.headers.contains("content-length") {
        #expect(
            nettap.expectedContentLength == direct.expectedContentLength,
            "expectedContentLength",
            sourceLocation: sourceLocation
        )
    }
    if let directJSON = echo(direct.body, dropping: allowance.jsonKeys, echoHeaders: allowance.echoHeaders),
        let nettapJSON = echo(nettap.body, dropping: allowance.jsonKeys, echoHeaders: allowance.echoHeaders)
    {
        #expect(nettapJSON == directJSON, "JSON body", sourceLocation: sourceLocation)
        if !allowance.headers.contains("content-length") {
            #expect(nettap.body.count == direct.body.count, "body length", sourceLocation: sourceLocation)
        }
    } else {
        #expect(
            nettap.body == direct.body,
            "body bytes (\(nettap.body.count) vs \(direct.body.count))",
            sourceLocation: sourceLocation
        )
    }
}

/// Checks NetTap's capture record against what the app saw.
func expectCapture(
    _ capture: CapturedTransaction,
    matches sent: Sent,
    serverCount: ServerCount,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let outcome = sent.outcome
    if let code = outcome.errorCode {
        #expect(capture.error?.code == code, "captured error", sourceLocation: sourceLocation)
        #expect(capture.state != .completed, "captured state", sourceLocation: sourceLocation)
        return
    }
    #expect(capture.state == .completed, "captured state", sourceLocation: sourceLocation)
    #expect(capture.response?.statusCode == outcome.statusCode, "captured status", sourceLocation: sourceLocation)
    #expect(
        capture.response?.body?.totalByteCount ?? 0 == Int64(outcome.body.count),
        "captured body bytes",
        sourceLocation: sourceLocation
    )
    if case .exactly(let count) = serverCount {
        #expect(capture.redirects.count == count - 1, "captured redirect hops", sourceLocation: sourceLocation)
    }
}

/// An httpbin JSON echo as canonical text (sorted keys) without the per-send `X-Test-ID`, the given top-level
/// keys and the given echoed request headers; `nil` when the body is not a JSON object.
func echo(_ body: Data, dropping keys: Set<String> = [], echoHeaders: Set<String> = []) -> String? {
    guard !body.isEmpty,
        var object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
    else { return nil }
    if var headers = object["headers"] as? [String: Any] {
        let ignored = echoHeaders.union([HTTPBin.testIDHeader.lowercased()])
        headers = headers.filter { !ignored.contains($0.key.lowercased()) }
        object["headers"] = headers
    }
    for key in keys { object[key] = nil }
    guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return nil }
    return String(data: data, encoding: .utf8)
}

/// The parsed JSON object of an httpbin echo.
func json(_ body: Data) -> [String: Any]? {
    (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
}
