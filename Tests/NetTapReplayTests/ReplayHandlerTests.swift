import Foundation
import NetTapCore
import NetTapHAR
import NetTapReplay
import NetTapTestSupport
import NetTapTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A transport whose response body arrives in the given chunks, and which can follow one redirect.
private struct ChunkedTransport: Transport {
    var chunks: [Data]
    var headers: HeaderFields = ["Content-Type": "application/octet-stream"]
    var redirectFrom: String?

    func send(_ request: URLRequest, context: TransactionContext) async throws -> HandlerResponse {
        context.markRequestSent(request)
        var url = request.url
        if let redirectFrom, let current = request.url, current.path == redirectFrom {
            context.recordRedirect(
                RedirectHop(
                    method: request.httpMethod ?? "GET",
                    url: current,
                    statusCode: 302,
                    headers: ["Location": "/final?token=s3cr3t-hop", "Set-Cookie": "session=s3cr3t-cookie; Path=/"],
                    elapsedMilliseconds: 1
                )
            )
            url = URL(string: "/final?token=s3cr3t-hop", relativeTo: current)?.absoluteURL
        }
        context.markFirstByte()
        let body = ResponseBody.stream(expectedLength: Int64(chunks.reduce(0) { $0 + $1.count })) { writer in
            for chunk in chunks { writer.write(chunk) }
            writer.finish()
        }
        return HandlerResponse(statusCode: 200, headers: headers, url: url, body: body)
    }
}

@Suite("ReplayHandler")
struct ReplayHandlerTests {
    @Test("repeated identical requests replay in recorded order, then the last one repeats")
    func order() async throws {
        let folder = try TemporaryFolder()
        let file = folder.file("order.har")
        let request = try makeRequest("http://127.0.0.1:9/n")
        try await recordCassette(at: file, [request, try makeRequest("http://127.0.0.1:9/other"), request, request])
        let handler = try ReplayHandler(cassette: file, mode: .none)
        let harness = PipelineHarness(handlers: [handler])
        var texts: [String] = []
        var entries: [String] = []
        for _ in 0..<5 {
            let result = try await harness.send(request)
            texts.append(result.text)
            entries.append(result.annotations["cassette.entry"] ?? "-")
        }
        #expect(texts == ["GET /n #1", "GET /n #3", "GET /n #4", "GET /n #4", "GET /n #4"])
        #expect(entries == ["0", "2", "3", "3", "3"])
    }

    @Test("a replayed answer has the decoded body, no Content-Encoding or Transfer-Encoding, the real Content-Length")
    func replayedShape() async throws {
        let folder = try TemporaryFolder()
        let file = folder.file("shape.har")
        var cassette = Cassette()
        cassette.entries = [
            HAREntry(
                startedDateTime: "2024-01-01T00:00:00.000Z",
                time: 0,
                request: HARRequest(method: "GET", url: "http://127.0.0.1:9/z"),
                response: HARResponse(
                    status: 203,
                    headers: [
                        HARHeader(name: "Content-Type", value: "application/octet-stream"),
                        HARHeader(name: "Content-Encoding", value: "gzip"),
                        HARHeader(name: "Transfer-Encoding", value: "chunked"),
                        HARHeader(name: "Content-Length", value: "1"),
                        HARHeader(name: "X-Kept", value: "yes"),
                    ],
                    content: HARContent(
                        size: 4,
                        mimeType: "application/octet-stream",
                        text: "AAECAw==",
                        encoding: "base64"
                    )
                )
            )
        ]
        try cassette.save(to: file)
        let result = try await PipelineHarness(handlers: [try ReplayHandler(cassette: file, mode: .none)])
            .send(try makeRequest("http://127.0.0.1:9/z"))
        #expect(result.statusCode == 203)
        #expect(result.body == Data([0, 1, 2, 3]))
        #expect(result.response.headers["Content-Encoding"] == nil)
        #expect(result.response.headers["Transfer-Encoding"] == nil)
        #expect(result.response.headers["Content-Length"] == "4")
        #expect(result.response.headers["X-Kept"] == "yes")
    }

    @Test("secrets are redacted before writing, and a request with other secret values still matches the placeholder")
    func redactionBeforeWriting() async throws {
        let folder = try TemporaryFolder()
        let file = folder.file("secrets.har")
        let transport = FakeTransport { request in
            HandlerResponse(
                statusCode: 200,
                headers: ["Content-Type": "application/json", "Set-Cookie": "session=s3cr3t-set; Path=/; HttpOnly"],
                url: request.url,
                body: .string(#"{"access_token":"s3cr3t-out","user":"ann"}"#)
            )
        }
        let request = try makeRequest(
            "http://127.0.0.1:9/login?token=s3cr3t-q&page=1",
            method: "POST",
            headers: [
                "Authorization": "Bearer s3cr3t-auth", "Content-Type": "application/json", "Cookie": "sid=s3cr3t-c",
            ],
            body: #"{"user":"ann","password":"s3cr3t-pw"}"#
        )
        let recorder = try ReplayHandler(
            cassette: file,
            mode: .all,
            matching: CassetteMatching(headers: ["Authorization"], body: .json)
        )
        let live = try await PipelineHarness(handlers: [recorder], transport: transport).send(request)
        #expect(live.text == #"{"access_token":"s3cr3t-out","user":"ann"}"#, "the caller gets the real body")
        try await recorder.flush()
        let written = String(decoding: try Data(contentsOf: file), as: UTF8.self)
        #expect(!written.contains("s3cr3t"), "\(written)")
        #expect(written.contains("Bearer [redacted]"))
        #expect(written.contains("session=[redacted]; Path=/; HttpOnly"))

        let other = try makeRequest(
            "http://127.0.0.1:9/login?token=another&page=1",
            method: "POST",
            headers: ["Authorization": "Bearer another", "Content-Type": "application/json"],
            body: #"{"password":"another","user":"ann"}"#
        )
        let replayer = try ReplayHandler(
            cassette: file,
            mode: .none,
            matching: CassetteMatching(headers: ["Authorization"], body: .json)
        )
        let replayed = try await PipelineHarness(handlers: [replayer]).send(other)
        #expect(replayed.answeredBy == "cassette")
        #expect(try JSONValue(data: replayed.body) == ["access_token": "[redacted]", "user": "ann"])
        #expect(replayed.response.headers["Set-Cookie"] == "session=[redacted]; Path=/; HttpOnly")
    }

    @Test("teeing passes every chunk to the caller unchanged and in order while recording")
    func tee() async throws {
        let folder = try TemporaryFolder()
        let file = folder.file("tee.har")
        let chunks = (0..<5).map { index in Data(repeating: UInt8(index), count: 1000 + index) }
        let handler = try ReplayHandler(cassette: file, mode: .all)
        let pipeline = Pipeline(handlers: [handler], transport: ChunkedTransport(chunks: chunks))
        let response = try await pipeline.send(try makeRequest("http://127.0.0.1:9/bin"), context: TransactionContext())
        #expect(response.body.expectedLength == Int64(chunks.reduce(0) { $0 + $1.count }))
        var received: [Data] = []
        for try await chunk in response.body { received.append(chunk) }
        #expect(received == chunks)
        try await handler.flush()
        let entry = try #require(try Cassette.load(contentsOf: file).entries.first)
        #expect(entry.response.content.decodedData() == chunks.reduce(Data(), +))
    }

    @Test("a body over the byte limit reaches the caller whole and is kept truncated with a note")
    func bodyLimit() async throws {
        let folder = try TemporaryFolder()
        let file = folder.file("cap.har")
        let chunks = [Data(repeating: 0x61, count: 60), Data(repeating: 0x62, count: 40)]
        let handler = try ReplayHandler(cassette: file, mode: .all, bodyByteLimit: 70)
        let harness = PipelineHarness(
            handlers: [handler],
            transport: ChunkedTransport(chunks: chunks, headers: ["Content-Type": "text/plain"])
        )
        let live = try await harness.send(try makeRequest("http://127.0.0.1:9/big"))
        #expect(live.body.count == 100)
        try await handler.flush()
        let entry = try #require(try Cassette.load(contentsOf: file).entries.first)
        #expect(entry.response.content.text?.count == 70)
        #expect(entry.response.content.comment == "body truncated: kept the first 70 of 100 bytes")
        #expect(entry.response.bodySize == 100)
        #expect(entry.comment?.contains("response body truncated to 70 of 100 bytes (bodyByteLimit 70 bytes)") == true)
        let replayed = try await PipelineHarness(handlers: [try ReplayHandler(cassette: file, mode: .none)])
            .send(try makeRequest("http://127.0.0.1:9/big"))
        #expect(replayed.body.count == 70)
        #expect(replayed.annotations["cassette.note"]?.contains("kept the first 70 of 100 bytes") == true)
    }

    @Test(
        "a recorded redirect becomes hop entries, redacted, that pass the independent checker strictly",
        .enabled(if: HARCheck.isAvailable, "har-check not set up: run scripts/test (NETTAP_HAR_CHECK_DIR)")
    )
    func strictHAR() async throws {
        let folder = try TemporaryFolder()
        let file = folder.file("strict.har")
        let handler = try ReplayHandler(cassette: file, mode: .all)
        let harness = PipelineHarness(
            handlers: [handler],
            transport: ChunkedTransport(
                chunks: [Data(#"{"ok":true,"refresh_token":"s3cr3t-body"}"#.utf8)],
                headers: ["Content-Type": "application/json"],
                redirectFrom: "/start"
            )
        )
        _ = try await harness.send(
            try makeRequest("http://127.0.0.1:9/start?apikey=s3cr3t-key", headers: ["X-Api-Key": "s3cr3t-h"])
        )
        _ = try await harness.send(
            try makeRequest(
                "http://127.0.0.1:9/post",
                method: "POST",
                headers: ["Content-Type": "application/x-www-form-urlencoded"],
                body: "a=1&password=s3cr3t-form"
            )
        )
        try await handler.flush()
        let entries = try Cassette.load(contentsOf: file).entries
        #expect(entries.map(\.response.status) == [302, 200, 200])
        #expect(entries[0].response.redirectURL == "http://127.0.0.1:9/final?token=%5Bredacted%5D")
        let secrets = folder.file("secrets.txt")
        try Data(
            ["s3cr3t-key", "s3cr3t-h", "s3cr3t-hop", "s3cr3t-cookie", "s3cr3t-body", "s3cr3t-form"].joined(
                separator: "\n"
            ).utf8
        )
        .write(to: secrets)
        let check = try await HARCheck.run(["--strict", "--secrets", secrets.path, file.path])
        #expect(check.status == 0, "\(check.output)")
    }

    @Test("recordings arriving during a write are written together by the next write")
    func coalescedWrites() async throws {
        let folder = try TemporaryFolder()
        let file = folder.file("burst.har")
        let handler = try ReplayHandler(cassette: file, mode: .all)
        let harness = PipelineHarness(handlers: [handler], transport: CountingTransport())
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<40 {
                group.addTask { _ = try await harness.send(try makeRequest("http://127.0.0.1:9/b/\(index)")) }
            }
            try await group.waitForAll()
        }
        try await handler.flush()
        #expect(try Cassette.load(contentsOf: file).entries.count == 40)
        let writes = await handler.writer.writes
        #expect(writes >= 1 && writes < 40, "\(writes) writes")
    }

    @Test("a cassette that is not HAR fails to load with the file name and JSON path")
    func loadError() throws {
        let folder = try TemporaryFolder()
        let file = folder.file("bad.har")
        try Data(#"{"log": {"entries": [{"request": {"method": "GET"}, "response": {"status": 200}}]}}"#.utf8).write(
            to: file
        )
        #expect {
            _ = try ReplayHandler(cassette: file, mode: .once)
        } throws: { error in
            "\(error)" == #"bad.har: $.log.entries[0]: missing required field "url" at $.log.entries[0].request"#
        }
        try Data("{".utf8).write(to: file)
        #expect(throws: HARError.self) { _ = try Cassette.load(contentsOf: file) }
    }

    @Test("save is atomic: no temporary file is left beside the cassette")
    func atomicSave() throws {
        let folder = try TemporaryFolder()
        let file = folder.file("sub/dir/c.har")
        try Cassette().save(to: file)
        try Cassette().save(to: file)
        let names = try FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path)
        #expect(names == ["c.har"])
        #expect(try Cassette.load(contentsOf: file).entries.isEmpty)
    }
}
