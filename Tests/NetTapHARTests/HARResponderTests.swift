import Foundation
import NetTapCore
import NetTapHAR
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("HARResponder")
struct HARResponderTests {
    private static func entry(
        _ method: String,
        _ url: String,
        status: Int,
        content: HARContent,
        headers: [HARHeader] = []
    )
        -> HAREntry
    {
        HAREntry(
            startedDateTime: "2024-01-01T00:00:00.000Z",
            time: 0,
            request: HARRequest(method: method, url: url),
            response: HARResponse(status: status, statusText: "", headers: headers, content: content)
        )
    }

    private static let image = Data([0x89, 0x50, 0x4E, 0x47, 0x00, 0xFF])

    private static let document = HARDocument(
        log: HARLog(entries: [
            entry(
                "GET",
                "http://127.0.0.1:8080/a",
                status: 200,
                content: HARContent(size: 3, mimeType: "text/plain", text: "one")
            ),
            entry("GET", "http://127.0.0.1:8080/b", status: 0, content: HARContent(size: 0, mimeType: "x-unknown")),
            entry(
                "GET",
                "http://127.0.0.1:8080/a",
                status: 201,
                content: HARContent(size: 3, mimeType: "text/plain", text: "two")
            ),
            entry(
                "GET",
                "http://127.0.0.1:8080/logo.png",
                status: 200,
                content: HARContent(
                    size: 6,
                    mimeType: "image/png",
                    text: image.base64EncodedString(),
                    encoding: "base64"
                ),
                headers: [
                    HARHeader(name: ":status", value: "200"),
                    HARHeader(name: "Content-Type", value: "image/png"),
                    HARHeader(name: "content-encoding", value: "gzip"),
                    HARHeader(name: "Transfer-Encoding", value: "chunked"),
                    HARHeader(name: "Content-Length", value: "999"),
                    HARHeader(name: "Set-Cookie", value: "a=1"),
                    HARHeader(name: "Set-Cookie", value: "b=2"),
                ]
            ),
        ])
    )

    private struct Outcome {
        let status: Int
        let headers: HeaderFields
        let body: Data
        let answeredBy: String
        let entryIndex: String?
    }

    private func send(_ method: String, _ url: String, through pipeline: Pipeline) async throws -> Outcome {
        var request = URLRequest(url: try #require(URL(string: url)))
        request.httpMethod = method
        let context = TransactionContext()
        let response = try await pipeline.send(request, context: context)
        return Outcome(
            status: response.statusCode,
            headers: response.headers,
            body: try await response.body.collect(),
            answeredBy: context.answeredBy,
            entryIndex: context.annotations["har.entry"]
        )
    }

    @Test("Matching requests take the entries in recorded order, then repeat the last")
    func order() async throws {
        let transport = RecordingTransport()
        let pipeline = Pipeline(handlers: [HARResponder(document: Self.document)], transport: transport)
        var seen: [String] = []
        for _ in 0..<3 {
            let outcome = try await send("GET", "http://127.0.0.1:8080/a", through: pipeline)
            seen.append(
                "\(outcome.status) \(String(decoding: outcome.body, as: UTF8.self)) \(outcome.entryIndex ?? "-")"
            )
            #expect(outcome.answeredBy == "har")
        }
        #expect(seen == ["200 one 0", "201 two 2", "201 two 2"])
        #expect(transport.requests.isEmpty)
    }

    @Test("Status-0 entries, other methods and other URLs go to the next stage")
    func passesOn() async throws {
        let transport = RecordingTransport()
        let pipeline = Pipeline(handlers: [HARResponder(document: Self.document, name: "replay")], transport: transport)
        for (method, url) in [
            ("GET", "http://127.0.0.1:8080/b"), ("POST", "http://127.0.0.1:8080/a"),
            ("GET", "http://127.0.0.1:8080/a?x=1"),
        ] {
            let outcome = try await send(method, url, through: pipeline)
            #expect(outcome.status == 599)
            #expect(outcome.answeredBy == CapturedTransaction.answeredByNetwork)
            #expect(outcome.entryIndex == nil)
        }
        #expect(transport.requests.map { $0.url?.absoluteString ?? "" }.count == 3)
        let answered = try await send("get", "http://127.0.0.1:8080/a", through: pipeline)
        #expect(answered.answeredBy == "replay")
    }

    @Test("Base64 bodies are decoded; Content-Encoding and Transfer-Encoding dropped; Content-Length recomputed")
    func decodedBody() async throws {
        let pipeline = Pipeline(handlers: [HARResponder(document: Self.document)], transport: RecordingTransport())
        let outcome = try await send("GET", "http://127.0.0.1:8080/logo.png", through: pipeline)
        #expect(outcome.status == 200)
        #expect(outcome.body == Self.image)
        #expect(outcome.entryIndex == "3")
        #expect(!outcome.headers.contains(name: "Content-Encoding"))
        #expect(!outcome.headers.contains(name: "Transfer-Encoding"))
        #expect(!outcome.headers.contains(name: ":status"))
        #expect(outcome.headers.values(for: "Content-Length") == ["6"])
        #expect(outcome.headers.values(for: "Set-Cookie") == ["a=1", "b=2"])
        #expect(outcome.headers["Content-Type"] == "image/png")
    }

    @Test("A recorded Chrome export answers its own requests")
    func chromeFixture() async throws {
        let pipeline = Pipeline(
            handlers: [HARResponder(document: try Fixture.load("chrome.har"))],
            transport: RecordingTransport()
        )
        let logo = try await send(
            "GET",
            "https://www.google.com/images/branding/googlelogo/2x/googlelogo_light_color_272x92dp.png",
            through: pipeline
        )
        #expect(logo.status == 200)
        #expect(logo.body.count == 7_108)
        #expect(logo.headers["Content-Length"] == "7108")
        let blocked = try await send("GET", "https://www.google.com/", through: pipeline)
        #expect(blocked.status == 599)
    }
}
