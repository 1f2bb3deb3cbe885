import Foundation
import NetTapCore
import NetTapReplay
import NetTapTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Records real URLSession traffic against a private httpbin into a cassette, stops the server, and replays.
@Suite("Cassettes through URLSession")
struct CassetteTests {
    /// What the app saw for one request.
    struct Seen: Equatable, CustomStringConvertible {
        var status: Int?
        var url: String?
        var headers: [String: String]
        var body: Data
        var error: URLError.Code?

        var description: String { "\(status ?? -1) \(url ?? "-") \(body.count) bytes \(error.map { "\($0)" } ?? "")" }
    }

    private static func requests(_ server: HTTPBin) -> [URLRequest] {
        var post = URLRequest(url: server.url("/post"))
        post.httpMethod = "POST"
        post.setValue("application/json", forHTTPHeaderField: "Content-Type")
        post.httpBody = Data(#"{"user":"ann","password":"hunter2"}"#.utf8)
        return [
            URLRequest(url: server.url("/get?b=2&a=1")),
            post,
            URLRequest(url: server.url("/redirect-to?url=%2Fget%3Fhop%3D1&status_code=302")),
            URLRequest(url: server.url("/response-headers?Set-Cookie=flavor%3Dmint%3B%20Path%3D%2F&X-Probe=1")),
        ]
    }

    private static func send(_ request: URLRequest, through interceptor: NetTapInterceptor) async -> Seen {
        let session = interceptor.makeSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        do {
            let (data, response) = try await session.data(for: request)
            let http = response as? HTTPURLResponse
            var headers: [String: String] = [:]
            for (name, value) in http?.allHeaderFields ?? [:] {
                if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
            }
            return Seen(status: http?.statusCode, url: http?.url?.absoluteString, headers: headers, body: data)
        } catch {
            return Seen(status: nil, url: nil, headers: [:], body: Data(), error: (error as? URLError)?.code)
        }
    }

    private static func sendAll(_ requests: [URLRequest], handler: ReplayHandler) async -> [Seen] {
        let interceptor = NetTapInterceptor()
        interceptor.handlers = [handler]
        var seen: [Seen] = []
        for request in requests { seen.append(await send(request, through: interceptor)) }
        return seen
    }

    /// What a replay must equal: the recording as the app saw it, with the values the cassette redacted
    /// replaced the same way (fields by name, and their echoes elsewhere) and `Content-Length` that of the body.
    private static func expectedReplay(of recorded: Seen, request: URLRequest) -> Seen {
        var expected = recorded
        let url = request.url ?? URL(fileURLWithPath: "/")
        let transaction = CapturedTransaction(
            request: CapturedRequest(
                method: request.httpMethod ?? "GET",
                url: url,
                headers: HeaderFields(request.allHTTPHeaderFields ?? [:]),
                body: request.httpBody.map { CapturedBody(data: $0) }
            ),
            response: CapturedResponse(
                statusCode: recorded.status ?? 0,
                headers: HeaderFields(recorded.headers.map { HeaderFields.Field(name: $0.key, value: $0.value) }),
                url: url,
                body: CapturedBody(data: recorded.body)
            ),
            timings: Timings(startDate: Date())
        )
        let redacted = Redactor.default.redact(transaction: transaction).value.response
        expected.headers = Dictionary((redacted?.headers ?? [:]).map { ($0.name, $0.value) }) { first, _ in first }
        expected.body = redacted?.body?.data ?? Data()
        expected.headers["content-length"] = String(expected.body.count)
        expected.headers["content-encoding"] = nil
        expected.headers["transfer-encoding"] = nil
        return expected
    }

    @Test("record live, then replay with the server stopped", arguments: RecordMode.allCases)
    func recordThenReplay(mode: RecordMode) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nettap-cassette-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("\(mode).har")
        let server = try await HTTPBin.start()
        let requests = Self.requests(server)

        // Record (newEpisodes: half first, the rest as new episodes in a second run).
        let recorded: [Seen]
        switch mode {
        case .newEpisodes:
            let first = try ReplayHandler(cassette: file, mode: .newEpisodes)
            var seen = await Self.sendAll(Array(requests.prefix(2)), handler: first)
            try await first.flush()
            let second = try ReplayHandler(cassette: file, mode: .newEpisodes)
            let again = await Self.sendAll(requests, handler: second)
            try await second.flush()
            #expect(
                Array(again.prefix(2)) == zip(seen, requests).map { Self.expectedReplay(of: $0, request: $1) },
                "known requests replay in the second run"
            )
            seen += again.suffix(2)
            recorded = seen
        default:
            let recorder = try ReplayHandler(cassette: file, mode: mode == .once ? .once : .all)
            recorded = await Self.sendAll(requests, handler: recorder)
            try await recorder.flush()
        }
        server.stop()
        #expect(recorded.allSatisfy { $0.error == nil && $0.status == 200 }, "\(recorded)")
        #expect(recorded[2].url?.hasSuffix("/get?hop=1") == true)
        #expect(recorded[3].headers["set-cookie"] == "flavor=mint; Path=/")

        // Secrets in fields and headers are redacted, and so are their echoes (httpbin repeats the request body
        // in its `data` string): the planted password is nowhere in the file.
        let text = String(decoding: try Data(contentsOf: file), as: UTF8.self)
        #expect(!text.contains("hunter2"))
        let entries = try Cassette.load(contentsOf: file).entries
        let post = try #require(entries.first { $0.request.method == "POST" })
        #expect(post.request.postData?.text == #"{"password":"[redacted]","user":"ann"}"#)
        let cookie = try #require(entries.first { $0.request.url.contains("/response-headers") })
        #expect(
            cookie.response.headers.first { $0.name.lowercased() == "set-cookie" }?.value == "flavor=[redacted]; Path=/"
        )
        #expect(entries.map(\.response.status) == [200, 200, 302, 200, 200])

        let replayMode: RecordMode = mode == .all ? .none : mode
        let replayer = try ReplayHandler(cassette: file, mode: replayMode)
        let replayed = await Self.sendAll(requests, handler: replayer)
        for (index, (live, again)) in zip(recorded, replayed).enumerated() {
            #expect(again == Self.expectedReplay(of: live, request: requests[index]), "request \(index)")
        }

        // Nothing listens any more: an unknown request fails from the cassette, not from the network.
        let unknown = await Self.sendAll([URLRequest(url: server.url("/status/418"))], handler: replayer)
        if mode == .newEpisodes {
            #expect(unknown.first?.error == .cannotConnectToHost)
        } else {
            #expect(unknown.first?.error == .resourceUnavailable)
        }

        if mode == .all {
            // .all never replays: with the server gone every request fails at the network.
            let again = await Self.sendAll(requests, handler: try ReplayHandler(cassette: file, mode: .all))
            #expect(again.allSatisfy { $0.error == .cannotConnectToHost }, "\(again)")
        }
    }
}
