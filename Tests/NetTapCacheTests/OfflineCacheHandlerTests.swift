import Foundation
import NetTapCore
import NetTapTesting
import Testing

@testable import NetTapCache

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("OfflineCacheHandler: storing answers and falling back to them when the network cannot be reached")
struct OfflineCacheHandlerTests {
    /// A cache in a fresh directory, a network that can go offline, and a harness with the handler in front.
    struct Setup {
        let directory: ScratchDirectory
        let date = ManualDate()
        let cache: OfflineCache
        let network: SwitchableNetwork
        let harness: PipelineHarness

        init(
            maxBytes: Int = OfflineCache.defaultMaxBytes,
            maxEntryBytes: Int? = nil,
            matcher: RequestMatcher = .any,
            fallbackErrorCodes: Set<URLError.Code> = OfflineCacheHandler.defaultFallbackErrorCodes,
            network: SwitchableNetwork? = nil
        ) throws {
            directory = try ScratchDirectory()
            cache = try OfflineCache(
                directory: directory.url,
                maxBytes: maxBytes,
                maxEntryBytes: maxEntryBytes,
                now: date.closure
            )
            self.network =
                network
                ?? SwitchableNetwork(
                    body: { Data("body of \($0.url?.path ?? "")".utf8) },
                    headers: ["Content-Type": "text/plain", "ETag": "\"v1\""]
                )
            harness = PipelineHarness(
                handlers: [OfflineCacheHandler(cache: cache, matcher: matcher, fallbackErrorCodes: fallbackErrorCodes)],
                transport: self.network.transport
            )
        }
    }

    // MARK: - Store and hit

    @Test("a 200 GET is stored and answered from the cache when offline: status, head, body, Age, answeredBy")
    func storeAndHit() async throws {
        let setup = try Setup()
        defer { setup.directory.remove() }
        var request = URLRequest(url: .example("/a?x=1"))
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        let online = try await setup.harness.send(request)
        #expect(online.answeredBy == "network")
        #expect(online.annotations["cache"] == "stored")
        #expect(setup.cache.entries.map(\.url) == ["https://example.com/a?x=1"])

        setup.network.fail(with: .notConnectedToInternet)
        setup.date.advance(by: 42)
        let offline = try await setup.harness.send(request)
        #expect(offline.answeredBy == "cache")
        #expect(offline.statusCode == 200)
        #expect(offline.body == online.body)
        #expect(offline.response.headers["Content-Type"] == "text/plain")
        #expect(offline.response.headers["ETag"] == "\"v1\"")
        #expect(offline.response.headers["Content-Length"] == String(online.body.count))
        #expect(offline.response.headers["Age"] == "42")
        #expect(offline.response.headers["Warning"] == nil)
        #expect(offline.response.body.expectedLength == Int64(online.body.count))
        #expect(offline.annotations["cache"] == "hit")
        #expect(offline.annotations["cache.age"] == "42")
        #expect(offline.annotations["cache.stored"] == "2023-11-14T22:13:20Z")
        #expect(offline.annotations["cache.networkError"] == "notConnectedToInternet (-1009)")
    }

    @Test("the request reaches the network exactly as the app sent it, also when an entry exists")
    func requestUnchanged() async throws {
        let setup = try Setup()
        defer { setup.directory.remove() }
        var request = URLRequest(url: .example("/same"))
        request.setValue("a", forHTTPHeaderField: "X-App")
        _ = try await setup.harness.send(request)
        _ = try await setup.harness.send(request)
        let sent = setup.network.transport.requests
        #expect(sent.count == 2)
        for forwarded in sent {
            #expect(forwarded.url == request.url)
            #expect(forwarded.httpMethod == request.httpMethod)
            #expect(forwarded.allHTTPHeaderFields ?? [:] == ["X-App": "a"])
        }
    }

    @Test(
        "every default fallback error is answered from the cache",
        arguments: [
            URLError.Code.notConnectedToInternet, .cannotConnectToHost, .timedOut, .cannotFindHost,
            .networkConnectionLost, .dnsLookupFailed,
        ]
    )
    func defaultFallbackErrors(code: URLError.Code) async throws {
        let setup = try Setup()
        defer { setup.directory.remove() }
        let request = URLRequest(url: .example("/fallback"))
        _ = try await setup.harness.send(request)
        setup.network.fail(with: code)
        let offline = try await setup.harness.send(request)
        #expect(offline.answeredBy == "cache")
        #expect(String(decoding: offline.body, as: UTF8.self) == "body of /fallback")
    }

    @Test("an NSError in NSURLErrorDomain (as Linux delivers some failures) falls back like a URLError")
    func nsErrorFallsBack() async throws {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        let cache = try OfflineCache(directory: directory.url)
        let isOffline = Locked(false)
        let transport = FakeTransport { request in
            if isOffline.current { throw NSError(domain: NSURLErrorDomain, code: -1009) }
            return HandlerResponse(statusCode: 200, url: request.url, body: .string("kept"))
        }
        let harness = PipelineHarness(handlers: [OfflineCacheHandler(cache: cache)], transport: transport)
        _ = try await harness.send(URLRequest(url: .example("/ns")))
        isOffline.withLock { $0 = true }
        let offline = try await harness.send(URLRequest(url: .example("/ns")))
        #expect(offline.answeredBy == "cache")
        #expect(offline.body == Data("kept".utf8))
    }

    @Test("a failure without a stored entry is rethrown unchanged")
    func missRethrows() async throws {
        let setup = try Setup()
        defer { setup.directory.remove() }
        setup.network.fail(with: .cannotConnectToHost)
        let url = URL.example("/never")
        do {
            _ = try await setup.harness.send(URLRequest(url: url))
            Issue.record("expected a failure")
        } catch let error as URLError {
            #expect(error.code == .cannotConnectToHost)
            #expect(error.userInfo[NSURLErrorFailingURLErrorKey] as? URL == url)
        }
    }

    @Test("errors that are not offline conditions are rethrown even when an entry exists")
    func otherErrorsRethrown() async throws {
        let setup = try Setup()
        defer { setup.directory.remove() }
        let request = URLRequest(url: .example("/x"))
        _ = try await setup.harness.send(request)
        for code in [URLError.Code.secureConnectionFailed, .cancelled, .badServerResponse] {
            setup.network.fail(with: code)
            await #expect(throws: URLError(code, userInfo: [NSURLErrorFailingURLErrorKey: request.url as Any])) {
                _ = try await setup.harness.send(request)
            }
        }
    }

    @Test("the fallback error codes are configurable")
    func customFallbackCodes() async throws {
        let setup = try Setup(fallbackErrorCodes: [.timedOut])
        defer { setup.directory.remove() }
        let request = URLRequest(url: .example("/custom"))
        _ = try await setup.harness.send(request)
        setup.network.fail(with: .notConnectedToInternet)
        await #expect(throws: URLError.self) { _ = try await setup.harness.send(request) }
        setup.network.fail(with: .timedOut)
        #expect(try await setup.harness.send(request).answeredBy == "cache")
    }

    @Test("any answer from the network wins over the cache, a 500 included")
    func networkAnswerWins() async throws {
        let isBroken = Locked(false)
        let network = SwitchableNetwork { request in
            isBroken.current
                ? HandlerResponse(statusCode: 500, url: request.url, body: .string("oops"))
                : HandlerResponse(statusCode: 200, url: request.url, body: .string("fine"))
        }
        let setup = try Setup(network: network)
        defer { setup.directory.remove() }
        let request = URLRequest(url: .example("/flaky"))
        _ = try await setup.harness.send(request)
        isBroken.withLock { $0 = true }
        let broken = try await setup.harness.send(request)
        #expect(broken.statusCode == 500)
        #expect(broken.body == Data("oops".utf8))
        #expect(broken.answeredBy == "network")
        #expect(setup.cache.entries.count == 1, "the 500 did not replace the stored 200")
    }

    @Test("a newer answer replaces the stored one for the same key")
    func newerReplaces() async throws {
        let version = Locked(1)
        let network = SwitchableNetwork { request in
            HandlerResponse(statusCode: 200, url: request.url, body: .string("v\(version.current)"))
        }
        let setup = try Setup(network: network)
        defer { setup.directory.remove() }
        let request = URLRequest(url: .example("/doc"))
        _ = try await setup.harness.send(request)
        version.withLock { $0 = 2 }
        _ = try await setup.harness.send(request)
        #expect(setup.cache.entries.count == 1)
        #expect(setup.directory.entryFileNames.count == 2, "one body and one metadata file")
        setup.network.fail(with: .notConnectedToInternet)
        #expect(try await setup.harness.send(request).body == Data("v2".utf8))
    }

    // MARK: - What is not stored

    @Test("Cache-Control: no-store on the request: not stored, and not answered from an existing entry")
    func requestNoStore() async throws {
        let setup = try Setup()
        defer { setup.directory.remove() }
        var request = URLRequest(url: .example("/private"))
        request.setValue("max-age=0, No-Store", forHTTPHeaderField: "Cache-Control")
        _ = try await setup.harness.send(request)
        #expect(setup.cache.entries.isEmpty)

        let plain = URLRequest(url: .example("/private"))
        _ = try await setup.harness.send(plain)
        #expect(setup.cache.entries.count == 1)
        setup.network.fail(with: .notConnectedToInternet)
        await #expect(throws: URLError.self) { _ = try await setup.harness.send(request) }
        #expect(try await setup.harness.send(plain).answeredBy == "cache")
    }

    @Test("Cache-Control: no-store on the response: not stored, and the stored answer it would replace is removed")
    func responseNoStore() async throws {
        let forbids = Locked(false)
        let network = SwitchableNetwork { request in
            let headers: HeaderFields = forbids.current ? ["Cache-Control": "private, no-store"] : [:]
            return HandlerResponse(statusCode: 200, headers: headers, url: request.url, body: .string("x"))
        }
        let setup = try Setup(network: network)
        defer { setup.directory.remove() }
        let request = URLRequest(url: .example("/account"))
        _ = try await setup.harness.send(request)
        #expect(setup.cache.entries.count == 1)
        forbids.withLock { $0 = true }
        let result = try await setup.harness.send(request)
        #expect(result.annotations["cache"] == "not stored: Cache-Control no-store")
        #expect(setup.cache.entries.isEmpty)
        #expect(setup.directory.entryFileNames.isEmpty)
    }

    @Test("Vary: a request with the same values is answered; other or missing values are not")
    func varyMatches() async throws {
        let network = SwitchableNetwork { request in
            let language = request.value(forHTTPHeaderField: "Accept-Language") ?? "none"
            return HandlerResponse(
                statusCode: 200,
                headers: ["Vary": "Accept-Language, accept-encoding"],
                url: request.url,
                body: .string("lang \(language)")
            )
        }
        let setup = try Setup(network: network)
        defer { setup.directory.remove() }
        var german = URLRequest(url: .example("/greeting"))
        german.setValue("de", forHTTPHeaderField: "Accept-Language")
        var french = URLRequest(url: .example("/greeting"))
        french.setValue("fr", forHTTPHeaderField: "Accept-Language")
        let neither = URLRequest(url: .example("/greeting"))
        _ = try await setup.harness.send(german)
        _ = try await setup.harness.send(neither)
        #expect(setup.cache.entries.count == 2, "one variant per Accept-Language value")

        setup.network.fail(with: .notConnectedToInternet)
        var germanAgain = URLRequest(url: .example("/greeting"))
        germanAgain.setValue(" de ", forHTTPHeaderField: "accept-language")
        #expect(try await setup.harness.send(germanAgain).body == Data("lang de".utf8))
        #expect(try await setup.harness.send(neither).body == Data("lang none".utf8))
        await #expect(throws: URLError.self) { _ = try await setup.harness.send(french) }
    }

    @Test("Vary: * is never stored")
    func varyStar() async throws {
        let network = SwitchableNetwork { request in
            HandlerResponse(statusCode: 200, headers: ["Vary": "Accept, *"], url: request.url, body: .string("x"))
        }
        let setup = try Setup(network: network)
        defer { setup.directory.remove() }
        let result = try await setup.harness.send(URLRequest(url: .example("/star")))
        #expect(result.annotations["cache"] == "not stored: Vary *")
        #expect(setup.cache.entries.isEmpty)
        #expect(setup.directory.entryFileNames.isEmpty)
    }

    @Test("requests other than GET are passed on untouched and never stored", arguments: ["POST", "PUT", "HEAD"])
    func nonGET(method: String) async throws {
        let setup = try Setup()
        defer { setup.directory.remove() }
        var request = URLRequest(url: .example("/write"))
        request.httpMethod = method
        let result = try await setup.harness.send(request)
        #expect(result.annotations["cache"] == nil)
        #expect(setup.cache.entries.isEmpty)
        setup.network.fail(with: .notConnectedToInternet)
        await #expect(throws: URLError.self) { _ = try await setup.harness.send(request) }
    }

    @Test("answers other than 200 are not stored", arguments: [201, 204, 206, 304, 404, 500])
    func non200(status: Int) async throws {
        let network = SwitchableNetwork { request in
            HandlerResponse(statusCode: status, url: request.url, body: .string("status"))
        }
        let setup = try Setup(network: network)
        defer { setup.directory.remove() }
        let result = try await setup.harness.send(URLRequest(url: .example("/status")))
        #expect(result.annotations["cache"] == "not stored: status \(status)")
        #expect(setup.cache.entries.isEmpty)
        #expect(setup.directory.entryFileNames.isEmpty)
    }

    @Test("requests the matcher does not select are neither stored nor answered")
    func matcherSelects() async throws {
        let setup = try Setup(matcher: .pathPrefix("/api/"))
        defer { setup.directory.remove() }
        _ = try await setup.harness.send(URLRequest(url: .example("/api/items")))
        _ = try await setup.harness.send(URLRequest(url: .example("/static/logo.png")))
        #expect(setup.cache.entries.map(\.url) == ["https://example.com/api/items"])
    }

    @Test("transfer, hop-by-hop, Age and Set-Cookie fields are not stored")
    func storedHeaders() async throws {
        var headers: HeaderFields = [
            "Content-Type": "text/plain", "Content-Encoding": "gzip", "Content-Length": "999",
            "Transfer-Encoding": "chunked", "Connection": "keep-alive, X-Hop", "X-Hop": "1", "Keep-Alive": "timeout=5",
            "Age": "7", "X-Kept": "yes",
        ]
        headers.add(name: "Set-Cookie", value: "session=abc")
        let network = SwitchableNetwork(body: { _ in Data("12345".utf8) }, headers: headers)
        let setup = try Setup(network: network)
        defer { setup.directory.remove() }
        let request = URLRequest(url: .example("/headers"))
        _ = try await setup.harness.send(request)
        setup.network.fail(with: .notConnectedToInternet)
        let offline = try await setup.harness.send(request)
        let names = offline.response.headers.map { $0.name.lowercased() }
        #expect(names == ["content-type", "x-kept", "content-length", "age"])
        #expect(offline.response.headers["Content-Length"] == "5")
        #expect(offline.response.headers["Age"] == "7", "the stored Age plus no time resident")
    }

    // MARK: - Bodies that do not complete, and sizes

    @Test("a body that fails midway leaves no entry and no file; the app gets the error")
    func failedBody() async throws {
        let network = SwitchableNetwork { request in
            let body = ResponseBody.stream(expectedLength: 10) { writer in
                writer.write(Data("part".utf8))
                writer.finish(throwing: URLError(.networkConnectionLost))
            }
            return HandlerResponse(statusCode: 200, url: request.url, body: body)
        }
        let setup = try Setup(network: network)
        defer { setup.directory.remove() }
        await #expect(throws: URLError(.networkConnectionLost)) {
            _ = try await setup.harness.send(URLRequest(url: .example("/broken")))
        }
        #expect(setup.cache.entries.isEmpty)
        #expect(setup.directory.entryFileNames.isEmpty)
    }

    @Test("a body the app cancels leaves no entry and no file, and cancels the network's body")
    func cancelledBody() async throws {
        let upstream = Locked<BodyWriter?>(nil)
        let network = SwitchableNetwork { request in
            let body = ResponseBody.stream(expectedLength: nil) { writer in
                writer.write(Data("first".utf8))
                upstream.withLock { $0 = writer }
            }
            return HandlerResponse(statusCode: 200, url: request.url, body: body)
        }
        let setup = try Setup(network: network)
        defer { setup.directory.remove() }
        let response = try await setup.harness.pipeline.send(
            URLRequest(url: .example("/cancelled")),
            context: TransactionContext()
        )
        var iterator = response.body.makeAsyncIterator()
        #expect(try await iterator.next() == Data("first".utf8))
        #expect(setup.directory.entryFileNames.count == 1, "the partial body file while the body streams")
        response.body.channel.cancel()
        let writer = try #require(upstream.current)
        #expect(writer.isCancelled, "the network's body was cancelled")
        writer.write(Data("second".utf8))
        writer.finish()
        #expect(setup.cache.entries.isEmpty)
        #expect(setup.directory.entryFileNames.isEmpty)
    }

    @Test("a body announced larger than maxEntryBytes is passed on without being written")
    func announcedTooLarge() async throws {
        let network = SwitchableNetwork { request in
            HandlerResponse(statusCode: 200, url: request.url, body: .data(bytes(200)))
        }
        let setup = try Setup(maxEntryBytes: 100, network: network)
        defer { setup.directory.remove() }
        let result = try await setup.harness.send(URLRequest(url: .example("/big")))
        #expect(result.body == bytes(200))
        #expect(result.annotations["cache"] == "not stored: body larger than maxEntryBytes (100 bytes)")
        #expect(setup.directory.entryFileNames.isEmpty)
    }

    @Test("a streamed body that grows past maxEntryBytes reaches the app whole and is not stored")
    func streamedTooLarge() async throws {
        let network = SwitchableNetwork(body: { _ in bytes(150) })
        let setup = try Setup(maxEntryBytes: 100, network: network)
        defer { setup.directory.remove() }
        let result = try await setup.harness.send(URLRequest(url: .example("/growing")))
        #expect(result.body == bytes(150))
        #expect(result.annotations["cache"] == "not stored: body larger than maxEntryBytes (100 bytes)")
        #expect(setup.cache.entries.isEmpty)
        #expect(setup.directory.entryFileNames.isEmpty)
    }

    @Test("a large body is streamed from the cache in chunks and arrives whole")
    func largeBodyStreamed() async throws {
        let body = bytes(300_000, seed: 9)
        let network = SwitchableNetwork(body: { _ in body })
        let setup = try Setup(network: network)
        defer { setup.directory.remove() }
        let request = URLRequest(url: .example("/large"))
        _ = try await setup.harness.send(request)
        setup.network.fail(with: .cannotConnectToHost)
        let response = try await setup.harness.pipeline.send(request, context: TransactionContext())
        var chunks = 0
        var received = Data()
        for try await chunk in response.body {
            chunks += 1
            received.append(chunk)
        }
        #expect(received == body)
        #expect(chunks == 5, "64 KiB reads")
    }

    // MARK: - Age

    @Test("Age is the response's initial age (Date and Age fields, RFC 9111 §4.2.3) plus the time stored")
    func ageFromDateAndAge() async throws {
        let date = ManualDate()
        let dated = HTTPDate.string(from: date.now.addingTimeInterval(-30))
        let network = SwitchableNetwork { request in
            HandlerResponse(
                statusCode: 200,
                headers: ["Date": dated, "Age": "10"],
                url: request.url,
                body: .string("x")
            )
        }
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        let cache = try OfflineCache(directory: directory.url, now: date.closure)
        let harness = PipelineHarness(handlers: [OfflineCacheHandler(cache: cache)], transport: network.transport)
        let request = URLRequest(url: .example("/aged"))
        _ = try await harness.send(request)
        date.advance(by: 3600)
        network.fail(with: .timedOut)
        let offline = try await harness.send(request)
        #expect(offline.response.headers["Age"] == "3630", "max(30 s apparent, 10 s Age) + 1 h resident")
        #expect(offline.response.headers["Date"] == dated)
    }

    // MARK: - A failing handler further down

    @Test("a handler further down that reports offline is answered from the cache")
    func offlineHandlerBelow() async throws {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        let cache = try OfflineCache(directory: directory.url)
        let offline = OfflineSwitch()
        let transport = FakeTransport(headers: ["Content-Type": "application/json"], body: Data("{\"a\":1}".utf8))
        let harness = PipelineHarness(handlers: [OfflineCacheHandler(cache: cache), offline], transport: transport)
        let request = URLRequest(url: .example("/json"))
        _ = try await harness.send(request)
        offline.isOffline.withLock { $0 = true }
        let result = try await harness.send(request)
        #expect(result.answeredBy == "cache")
        #expect(result.body == Data("{\"a\":1}".utf8))
        #expect(transport.requests.count == 1, "the second request never reached the transport")
    }
}
