import Foundation
import NetTapCore
import NetTapMocking
import NetTapTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Stub responses: what the app receives")
struct StubResponseTests {
    private func answer(_ response: StubResponse, method: String = "GET") async throws -> PipelineHarness.Result {
        let mocks = MockSet(stubs: [Stub("s", matching: .any, response: response)])
        return try await harness(mocks).send(request("/x", method: method))
    }

    @Test("status, repeated headers and body arrive as given, with Content-Length from the body")
    func statusHeadersBody() async throws {
        var headers: HeaderFields = ["Content-Type": "text/plain"]
        headers.add(name: "Set-Cookie", value: "a=1")
        headers.add(name: "Set-Cookie", value: "b=2")
        let result = try await answer(.data(Data("hello".utf8), statusCode: 201, headers: headers))
        #expect(result.statusCode == 201)
        #expect(result.response.headers.values(for: "Set-Cookie") == ["a=1", "b=2"])
        #expect(result.response.headers["Content-Length"] == "5")
        #expect(result.text == "hello")
        #expect(result.answeredBy == "mock")
        #expect(result.annotations["stub"] == "s")
    }

    @Test("a JSON body is compact with sorted keys and gets Content-Type application/json unless given")
    func jsonBody() async throws {
        let result = try await answer(.json(["b": 1, "a": [true, nil]]))
        #expect(result.text == #"{"a":[true,null],"b":1}"#)
        #expect(result.response.headers["Content-Type"] == "application/json")
        let typed = try await answer(.json(["a": 1], headers: ["Content-Type": "application/vnd.api+json"]))
        #expect(typed.response.headers.values(for: "Content-Type") == ["application/vnd.api+json"])
    }

    @Test("a given Content-Length is kept and Content-Encoding is always dropped")
    func lengthAndEncoding() async throws {
        let result = try await answer(
            .text("four", headers: ["Content-Length": "99", "Content-Encoding": "gzip"])
        )
        #expect(result.response.headers.values(for: "Content-Length") == ["99"])
        #expect(!result.response.headers.contains(name: "Content-Encoding"))
        #expect(result.text == "four")
    }

    @Test("a HEAD request gets the head with the body's length and no bytes")
    func head() async throws {
        let result = try await answer(.text("twelve bytes"), method: "HEAD")
        #expect(result.body.isEmpty)
        #expect(result.response.headers["Content-Length"] == "12")
    }

    @Test("a redirect carries Location and the status")
    func redirect() async throws {
        let result = try await answer(.redirect(to: "/next", statusCode: 307))
        #expect(result.statusCode == 307)
        #expect(result.response.headers["Location"] == "/next")
    }

    @Test(
        "a failure throws the URLError with the real code, worded as the platform words it",
        arguments: [
            URLError.Code.notConnectedToInternet, .timedOut, .cannotFindHost, .networkConnectionLost, .cancelled,
        ]
    )
    func failure(code: URLError.Code) async throws {
        let error = await #expect(throws: URLError.self) {
            _ = try await answer(.failure(code))
        }
        #expect(error?.code == code)
        #if canImport(FoundationNetworking)
        if code == .timedOut {
            // The platform's idle timer gives a bare -1001: no userInfo at all (platform-notes §10).
            #expect(error?.userInfo.isEmpty == true)
            return
        }
        #endif
        #expect(error?.failingURL?.path == "/x")
        let words = SimulatedFailure.wording(for: code, url: error?.failingURL)
        #expect(error?.userInfo[NSLocalizedDescriptionKey] as? String == words)
        let underlying = error?.userInfo[NSUnderlyingErrorKey] as? NSError
        #expect((underlying?.code == code.rawValue) == (code != .cancelled), "a cancel has no underlying error")
    }

    @Test(
        "a fault delivers the head with the whole length, the bytes before it, then the platform's error",
        arguments: [
            BodyFault.dropConnection(afterBytes: 3), .truncate(afterBytes: 3),
        ]
    )
    func fault(fault: BodyFault) async throws {
        let response = StubResponse.text("hello, world").withFault(fault)
        let mocks = MockSet(stubs: [Stub("s", matching: .any, response: response)])
        let harness = HandlerHarness(handler: MockHandler(mocks: mocks, unmatched: .fail))
        guard case .answered(let answered) = await harness.start(request("/x")) else {
            Issue.record("the stub did not answer")
            return
        }
        #expect(answered.headers["Content-Length"] == "12")
        #expect(answered.body.expectedLength == 12)
        #expect(try await harness.readChunk() == Data("hel".utf8))
        let error = await #expect(throws: URLError.self) { _ = try await harness.readChunk() }
        try await harness.finish()
        if case .truncate = fault {
            #expect(error == SimulatedFailure.truncatedBody(remainingBytes: 9, url: nil))
        } else {
            #expect(error == SimulatedFailure.error(.networkConnectionLost, url: nil))
        }
    }

    @Test("a stall delivers the bytes before it, then waits with no timer until the reader goes away")
    func stall() async throws {
        let response = StubResponse.text("hello, world").withFault(.stall(afterBytes: 5))
        let mocks = MockSet(stubs: [Stub("s", matching: .any, response: response)])
        let harness = HandlerHarness(handler: MockHandler(mocks: mocks, unmatched: .fail))
        guard case .answered = await harness.start(request("/x")) else {
            Issue.record("the stub did not answer")
            return
        }
        #expect(try await harness.readChunk() == Data("hello".utf8))
        let stalled = Task { try await harness.readChunk() }
        harness.advance(by: .seconds(86_400))
        #expect(harness.clock.sleeperCount == 0, "no timer of its own: the request's timeout ends a stall")
        harness.cancel()
        await #expect(throws: (any Error).self) { _ = try await stalled.value }
        try await harness.finish()
    }

    @Test("a dynamic response's computed answer takes the outer fault unless it has its own")
    func dynamicFault() async throws {
        let outer = StubResponse.dynamic { _ in .text("abcdef") }.withFault(.truncate(afterBytes: 2))
        let own = StubResponse.dynamic { _ in .text("abcdef").withFault(.truncate(afterBytes: 4)) }
            .withFault(.truncate(afterBytes: 2))
        for (response, expected) in [(outer, "ab"), (own, "abcd")] {
            let mocks = MockSet(stubs: [Stub("s", matching: .any, response: response)])
            let harness = HandlerHarness(handler: MockHandler(mocks: mocks, unmatched: .fail))
            _ = await harness.start(request("/x"))
            _ = try await harness.answer()
            #expect(try await harness.readChunk() == Data(expected.utf8))
            await #expect(throws: URLError.self) { _ = try await harness.readChunk() }
            try await harness.finish()
        }
    }

    @Test("a dynamic response is computed from the request")
    func dynamic() async throws {
        let result = try await answer(.dynamic { request in .text("path \(request.url?.path ?? "")") })
        #expect(result.text == "path /x")
    }

    @Test("a file body is streamed in 64 KiB chunks with its size as Content-Length")
    func fileStreamed() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("big.bin")
        let bytes = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try bytes.write(to: file)
        let mocks = MockSet(stubs: [Stub("file", matching: .any, response: .file(file))])
        let pipeline = Pipeline(handlers: [MockHandler(mocks: mocks)], transport: FakeTransport())
        let response = try await pipeline.send(request("/f"), context: TransactionContext())
        #expect(response.headers["Content-Length"] == "300000")
        var chunks: [Int] = []
        var received = Data()
        for try await chunk in response.body {
            chunks.append(chunk.count)
            received.append(chunk)
        }
        #expect(received == bytes)
        #expect(chunks.count == 5)
        #expect(chunks.allSatisfy { $0 <= 64 * 1024 })
    }

    @Test("a missing body file fails with fileDoesNotExist naming the path")
    func missingFile() async throws {
        let missing = URL(fileURLWithPath: "/nonexistent/nettap/body.json")
        let error = await #expect(throws: URLError.self) {
            _ = try await answer(.file(missing))
        }
        #expect(error?.code == .fileDoesNotExist)
        #expect(error?.localizedDescription.contains("/nonexistent/nettap/body.json") == true)
    }
}
