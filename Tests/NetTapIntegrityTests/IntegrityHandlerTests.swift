import Foundation
import NetTapCore
import NetTapIntegrity
import NetTapTestSupport
import NetTapTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("IntegrityHandler in the pipeline harness: pass, each mismatch action, fail-closed paths")
struct IntegrityHandlerTests {
    static let good = Data("console.log('app');\n".utf8)
    static let tampered = Data("console.log('app');\ndocument.write('<iframe src=//ads.example>');\n".utf8)

    /// A folder of known-good copies for one test, removed by the caller.
    static func bundledFolder(_ files: [String: Data]) throws -> TemporaryFolder {
        try TemporaryFolder(prefix: "nettap-integrity", files: files)
    }

    static func hex(_ data: Data) throws -> String { try IntegrityDigest.of(data, using: .sha256).hex }

    static func request(_ path: String, method: String = "GET") throws -> URLRequest {
        var request = URLRequest(url: try #require(URL(string: "https://cdn.example.com\(path)")))
        request.httpMethod = method
        return request
    }

    static func transport(_ body: Data, status: Int = 200, headers: HeaderFields? = nil) -> FakeTransport {
        FakeTransport(
            statusCode: status,
            headers: headers ?? [
                "Content-Type": "application/javascript", "ETag": "\"v1\"", "Content-MD5": "x",
                "Content-Length": "\(body.count)", "Cache-Control": "max-age=60",
            ],
            body: body
        )
    }

    static func handler(
        _ action: IntegrityRule.MismatchAction,
        expect: IntegrityRule.Expectation = .fileName
    )
        -> IntegrityHandler
    {
        IntegrityHandler(rules: [IntegrityRule(.host("cdn.example.com"), expect: expect, onMismatch: action)])
    }

    @Test("a body matching the digest in its file name is delivered whole and annotated verified")
    func pass() async throws {
        let path = "/static/app.\(try Self.hex(Self.good)).js"
        let harness = PipelineHarness(handlers: [Self.handler(.fail)], transport: Self.transport(Self.good))
        let result = try await harness.send(try Self.request(path))
        #expect(result.statusCode == 200)
        #expect(result.body == Self.good)
        #expect(result.findings.isEmpty)
        #expect(result.answeredBy == "network")
        #expect(result.annotations["integrity"] == "verified sha256 (file name)")
        #expect(result.response.headers["ETag"] == "\"v1\"", "a verified response keeps its headers")
    }

    @Test("report: the tampered body is delivered and the mismatch is a high finding with both digests")
    func report() async throws {
        let path = "/static/app.\(try Self.hex(Self.good)).js"
        let harness = PipelineHarness(handlers: [Self.handler(.report)], transport: Self.transport(Self.tampered))
        let result = try await harness.send(try Self.request(path))
        #expect(result.body == Self.tampered)
        let finding = try #require(result.findings.first)
        #expect(result.findings.count == 1)
        #expect(finding.rule == "integrity.mismatch")
        #expect(finding.severity == .high)
        #expect(finding.location == "body")
        #expect(finding.details["action"] == "report")
        #expect(finding.details["algorithm"] == "sha256")
        #expect(finding.details["url"] == "https://cdn.example.com\(path)")
        #expect(finding.details["expected"] == (try IntegrityDigest.of(Self.good, using: .sha256)).sri)
        #expect(finding.details["actual"] == (try IntegrityDigest.of(Self.tampered, using: .sha256)).sri)
    }

    @Test("fail: the request throws badServerResponse naming URL, expected and actual digest")
    func fail() async throws {
        let path = "/static/app.\(try Self.hex(Self.good)).js"
        let harness = PipelineHarness(handlers: [Self.handler(.fail)], transport: Self.transport(Self.tampered))
        let expected = try IntegrityDigest.of(Self.good, using: .sha256).sri
        let actual = try IntegrityDigest.of(Self.tampered, using: .sha256).sri
        let error = try await #require(throws: URLError.self) { try await harness.send(try Self.request(path)) }
        #expect(error.code == .badServerResponse)
        #expect(
            error.localizedDescription
                == "integrity check failed for https://cdn.example.com\(path): expected \(expected), received a body "
                + "with \(actual)"
        )
        #expect(error.userInfo[NSURLErrorFailingURLErrorKey] as? URL == URL(string: "https://cdn.example.com\(path)"))
    }

    @Test("the fail finding is on the context even though the request throws")
    func failFinding() async throws {
        let path = "/app.\(try Self.hex(Self.good)).js"
        let context = TransactionContext()
        let pipeline = Pipeline(handlers: [Self.handler(.fail)], transport: Self.transport(Self.tampered))
        await #expect(throws: URLError.self) { try await pipeline.send(try Self.request(path), context: context) }
        #expect(context.findings.map(\.rule) == ["integrity.mismatch"])
        #expect(context.findings.first?.details["action"] == "fail")
    }

    @Test("fallback from a directory: the bundled copy is served by integrity, 200, with its own length")
    func fallbackDirectory() async throws {
        let name = "app.\(try Self.hex(Self.good)).js"
        let folder = try Self.bundledFolder(["static/\(name)": Self.good])
        defer { folder.remove() }
        let harness = PipelineHarness(
            handlers: [Self.handler(.fallback(.directory(folder.url)))],
            transport: Self.transport(
                Self.tampered,
                status: 203,
                headers: [
                    "Content-Type": "application/javascript; charset=utf-8", "ETag": "\"evil\"", "Content-MD5": "x",
                    "Content-Encoding": "gzip", "Content-Length": "999", "Cache-Control": "max-age=60",
                    "Set-Cookie": "sid=planted-by-tamperer", "Location": "http://evil.example/",
                ]
            )
        )
        let result = try await harness.send(try Self.request("/static/\(name)"))
        #expect(result.statusCode == 200)
        #expect(result.body == Self.good)
        #expect(result.answeredBy == "integrity")
        let headers = result.response.headers
        #expect(headers["Content-Length"] == "\(Self.good.count)")
        #expect(headers["Content-Type"] == "text/javascript; charset=utf-8", "from the extension, not the tamperer")
        // Nothing else of the tampered response: its sender controlled every header.
        #expect(headers.map(\.name).sorted() == ["Content-Length", "Content-Type"])
        let finding = try #require(result.findings.first)
        #expect(finding.details["action"] == "fallback")
        #expect(finding.details["fallback"]?.hasSuffix("static/\(name)") == true)
    }

    @Test("a Range request to a checked asset is sent without Range, verified whole and answered 200 whole")
    func rangeIsVerifiedWhole() async throws {
        let name = "app.\(try Self.hex(Self.good)).js"
        let transport = Self.transport(Self.good, headers: ["Content-Type": "text/javascript"])
        let harness = PipelineHarness(handlers: [Self.handler(.fail)], transport: transport)
        var request = try Self.request("/static/\(name)")
        request.setValue("bytes=0-4", forHTTPHeaderField: "Range")
        request.setValue("\"v1\"", forHTTPHeaderField: "If-Range")
        let result = try await harness.send(request)
        #expect(result.statusCode == 200)
        #expect(result.body == Self.good)
        #expect(result.findings.isEmpty, "a genuine asset is not reported as tampered")
        let sent = try #require(transport.requests.first)
        #expect(sent.value(forHTTPHeaderField: "Range") == nil)
        #expect(sent.value(forHTTPHeaderField: "If-Range") == nil)
    }

    @Test("fallback from a file map with a digest given in code")
    func fallbackFiles() async throws {
        let folder = try Self.bundledFolder(["good.js": Self.good])
        defer { folder.remove() }
        let expected = IntegrityMetadata(try IntegrityDigest.of(Self.good, using: .sha512))
        let handler = Self.handler(
            .fallback(.files(["/lib/app.js": folder.url.appendingPathComponent("good.js")])),
            expect: .digest(expected)
        )
        let harness = PipelineHarness(handlers: [handler], transport: Self.transport(Self.tampered))
        let result = try await harness.send(try Self.request("/lib/app.js"))
        #expect(result.body == Self.good)
        #expect(result.findings.first?.details["algorithm"] == "sha512")
        #expect(result.findings.first?.details["expected"] == expected.sri)
    }

    /// Sends `path` through a pipeline whose handler falls back to `folder` when the transport's tampered body
    /// mismatches; returns the error the request failed with and the transaction's context.
    static func failedFallback(
        _ path: String,
        to folder: TemporaryFolder
    ) async throws -> (URLError, TransactionContext) {
        let context = TransactionContext()
        let pipeline = Pipeline(
            handlers: [Self.handler(.fallback(.directory(folder.url)))],
            transport: Self.transport(Self.tampered)
        )
        let error = try await #require(throws: URLError.self) {
            try await pipeline.send(try Self.request(path), context: context)
        }
        return (error, context)
    }

    @Test("a missing fallback copy fails the request instead of serving unverified bytes")
    func fallbackMissing() async throws {
        let folder = try Self.bundledFolder([:])
        defer { folder.remove() }
        let (error, context) = try await Self.failedFallback("/app.\(try Self.hex(Self.good)).js", to: folder)
        #expect(error.code == .badServerResponse)
        #expect(error.localizedDescription.contains("is missing"))
        let finding = try #require(context.findings.first)
        #expect(context.findings.count == 1)
        #expect(finding.details["action"] == "fail")
        #expect(finding.details["fallbackProblem"] == "missing")
        #expect(context.answeredBy == "network")
    }

    @Test("a fallback copy that mismatches too fails the request, saying so")
    func fallbackMismatch() async throws {
        let path = "/app.\(try Self.hex(Self.good)).js"
        let folder = try Self.bundledFolder([String(path.dropFirst()): Data("stale copy".utf8)])
        defer { folder.remove() }
        let (error, context) = try await Self.failedFallback(path, to: folder)
        #expect(error.localizedDescription.contains("does not match either"))
        let finding = try #require(context.findings.first)
        #expect(finding.details["fallbackProblem"] == "mismatch")
        #expect(
            finding.details["fallbackActual"] == (try IntegrityDigest.of(Data("stale copy".utf8), using: .sha256)).sri
        )
    }

    @Test("a directory fallback never reaches outside its folder")
    func noTraversal() throws {
        let folder = try Self.bundledFolder(["inside.js": Self.good])
        defer { folder.remove() }
        let fallback = IntegrityFallback.directory(folder.url.appendingPathComponent("sub"))
        #expect(fallback.fileURL(forPath: "/../inside.js") == nil)
        #expect(fallback.fileURL(forPath: "/a/../../inside.js") == nil)
        #expect(fallback.fileURL(forPath: "/a/../b.js")?.lastPathComponent == "b.js")
        #expect(IntegrityFallback.directory(folder.url).fileURL(forPath: "/") == nil)
    }

    @Test("a selected response without an expectation passes through, annotated, with no finding")
    func noExpectation() async throws {
        let manifest = IntegrityManifest([:])
        let harness = PipelineHarness(
            handlers: [Self.handler(.fail, expect: .manifest(manifest))],
            transport: Self.transport(Self.tampered)
        )
        let result = try await harness.send(try Self.request("/app.js"))
        #expect(result.body == Self.tampered)
        #expect(result.findings.isEmpty)
        #expect(result.annotations["integrity"] == "no expected digest for /app.js (manifest)")
        let byName = try await PipelineHarness(
            handlers: [Self.handler(.fail)],
            transport: Self.transport(Self.tampered)
        )
        .send(try Self.request("/app.min.js"))
        #expect(byName.annotations["integrity"] == "no expected digest for /app.min.js (file name)")
    }

    /// A body that sends `first` and never ends, so only a handler that does not buffer can return it.
    static func endlessTransport(status: Int = 200) -> FakeTransport {
        FakeTransport { request in
            HandlerResponse(
                statusCode: status,
                url: request.url,
                body: .stream(expectedLength: nil) { writer in writer.write(Data("first".utf8)) }
            )
        }
    }

    @Test(
        "responses no rule selects, non-2xx responses and HEAD stream through without buffering",
        arguments: [
            ("/image.png", "GET", 200),  // extension not selected
            ("/app.0000.js", "GET", 404),
            ("/app.js", "HEAD", 200),
        ]
    )
    func streamsThrough(path: String, method: String, status: Int) async throws {
        let pipeline = Pipeline(
            handlers: [
                Self.handler(
                    .fail,
                    expect: .digest(try IntegrityMetadata(sri: "sha256-" + String(repeating: "A", count: 43) + "="))
                )
            ],
            transport: Self.endlessTransport(status: status)
        )
        let context = TransactionContext()
        let response = try await pipeline.send(try Self.request(path, method: method), context: context)
        var iterator = response.body.makeAsyncIterator()
        #expect(try await iterator.next() == Data("first".utf8))
        #expect(context.findings.isEmpty)
        #expect(context.annotations["integrity"] == nil)
        response.body.channel.cancel()
    }

    @Test("another host is not selected, even for a .js path")
    func otherHost() async throws {
        let harness = PipelineHarness(handlers: [Self.handler(.fail)], transport: Self.transport(Self.tampered))
        var request = try Self.request("/app.\(try Self.hex(Self.good)).js")
        request.url = URL(string: "https://other.example.com/app.\(try Self.hex(Self.good)).js")
        let result = try await harness.send(request)
        #expect(result.body == Self.tampered)
        #expect(result.findings.isEmpty)
    }

    @Test(
        "a body over the buffer limit fails closed with a finding, known length or streamed",
        arguments: [true, false]
    )
    func tooLarge(knownLength: Bool) async throws {
        let chunk = Data(repeating: 0x61, count: 600)
        let cancelled = Locked(false)
        let transport = FakeTransport { request in
            HandlerResponse(
                statusCode: 200,
                url: request.url,
                body: .stream(expectedLength: knownLength ? 1200 : nil) { writer in
                    writer.onCancel { cancelled.withLock { $0 = true } }
                    writer.write(chunk)
                    writer.write(chunk)
                }
            )
        }
        let handler = IntegrityHandler(
            rules: [IntegrityRule(.any, expect: .fileName, onMismatch: .report)],
            bufferByteLimit: 1000
        )
        let context = TransactionContext()
        let pipeline = Pipeline(handlers: [handler], transport: transport)
        let path = "/app.\(try Self.hex(Self.good)).js"
        let error = try await #require(throws: URLError.self) {
            try await pipeline.send(try Self.request(path), context: context)
        }
        #expect(error.code == .dataLengthExceedsMaximum)
        #expect(context.findings.map(\.rule) == ["integrity.too-large"])
        #expect(context.findings.first?.details["limit"] == "1000")
        #expect(cancelled.current, "the transfer was stopped")
    }

    @Test("the first rule that selects a request decides")
    func firstRuleWins() async throws {
        let handler = IntegrityHandler(rules: [
            IntegrityRule(.pathPrefix("/vendor"), expect: .fileName, onMismatch: .report),
            IntegrityRule(.any, expect: .fileName, onMismatch: .fail),
        ])
        let path = "/vendor/app.\(try Self.hex(Self.good)).js"
        let result = try await PipelineHarness(handlers: [handler], transport: Self.transport(Self.tampered))
            .send(try Self.request(path))
        #expect(result.findings.first?.details["action"] == "report")
    }

    @Test("path extensions: an empty set selects every path, a custom set only its extensions")
    func pathExtensions() throws {
        let all = IntegrityRule(.any, pathExtensions: [], expect: .fileName, onMismatch: .fail)
        let mjs = IntegrityRule(.any, pathExtensions: ["MJS"], expect: .fileName, onMismatch: .fail)
        #expect(all.selects(try Self.request("/data")))
        #expect(mjs.selects(try Self.request("/m.mjs")))
        #expect(!mjs.selects(try Self.request("/m.js")))
        #expect(IntegrityRule(.any, expect: .fileName, onMismatch: .fail).selects(try Self.request("/A.WASM")))
    }
}
