import Foundation
import NetTapCore
import NetTapHAR
import NetTapTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The libcurl transport (the default on Linux): what its capture gains, and failures that equal a plain
/// URLSession's to the description and userInfo (the differential suites compare codes).
@Suite("libcurl transport: wire facts and exact failures")
struct CurlTransportTests {
    /// An interceptor on the given transport, and a session through it.
    func session(transport: any Transport) -> (NetTapInterceptor, URLSession) {
        let interceptor = NetTapInterceptor()
        interceptor.transport = transport
        return (interceptor, interceptor.makeSession())
    }

    @Test("a forwarded GET records the transport, protocol, address, phases and the headers as sent")
    func wireFacts() async throws {
        try #require(CurlTransport.shared.isAvailable)
        let server = try await HTTPBin.shared()
        let (interceptor, session) = session(transport: CurlTransport.shared)
        defer { session.invalidateAndCancel() }
        let (_, response) = try await session.data(for: URLRequest(url: server.url("/get?wire=1")))
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        let capture = await interceptor.captureLog.waitForFinished { $0.request.url.query == "wire=1" }
        let wire = try #require(capture.wire)
        #expect(wire.transport == WireDetails.libcurl)
        #expect(wire.httpVersion == "HTTP/1.1")
        #expect(wire.remoteAddress == "127.0.0.1")
        #expect(wire.remotePort == server.port)
        #expect((wire.localPort ?? 0) > 0)
        let phases = try #require(wire.phases)
        #expect(phases.wait >= 0 && phases.receive >= 0)
        #expect(wire.tls == nil)
        // libcurl's own additions are in the capture, as they went on the wire.
        #expect(capture.request.headers["Host"] == "127.0.0.1:\(server.port)")
        #expect(capture.request.headers["Accept"] == "*/*")
        #expect(capture.request.headers["Accept-Encoding"]?.contains("gzip") == true)
        #expect(capture.request.headers["User-Agent"]?.contains("curl/") == true)
        let entry = HAREntry(transaction: capture)
        #expect(entry.serverIPAddress == "127.0.0.1")
        #expect(entry.connection == wire.localPort.map(String.init))
        #expect(entry.timings.wait == phases.wait)
        #expect(abs(entry.time - entry.timings.total) < 0.001)
    }

    @Test("an app session's connections are closed once the session is invalidated and gone, not before")
    func connectionsCloseWithTheirSession() async throws {
        try #require(CurlTransport.shared.isAvailable)
        let server = try await FaultServer.shared()
        let id = UUID().uuidString
        var request = URLRequest(url: server.url(.keepAlive))
        request.setValue(id, forHTTPHeaderField: HTTPBin.testIDHeader)
        do {
            let (interceptor, session) = session(transport: CurlTransport.shared)
            let (data, _) = try await session.data(for: request)
            #expect(data == Data("ok".utf8))
            _ = await interceptor.captureLog.waitForFinished { $0.request.url.path == "/keep-alive" }
            // The session lives: its connection stays in its pool for the next request.
            let open = await server.waitForRequests(withTestID: id, count: 2, timeout: .milliseconds(1_500))
            #expect(open.map(\.method) == ["GET"])
            session.finishTasksAndInvalidate()
        }
        let closed = await server.waitForRequests(withTestID: id, count: 2, timeout: .seconds(10))
        #expect(closed.map(\.method) == ["GET", "CLOSE"])
    }

    @Test("the URLSession transport says it served the request")
    func urlSessionTransport() async throws {
        let server = try await HTTPBin.shared()
        let (interceptor, session) = session(transport: ForwardingTransport.shared)
        defer { session.invalidateAndCancel() }
        _ = try await session.data(for: URLRequest(url: server.url("/get?via=urlsession")))
        let capture = await interceptor.captureLog.waitForFinished { $0.request.url.query == "via=urlsession" }
        #expect(capture.wire?.transport == WireDetails.urlSession)
        #expect(capture.wire?.phases == nil)
    }

    @Test(
        "failures carry the platform's code, description, underlying error and failing URL",
        arguments: ["refused", "redirects", "timeout"]
    )
    func exactFailure(kind: String) async throws {
        try #require(CurlTransport.shared.isAvailable)
        let server = try await HTTPBin.shared()
        var request: URLRequest
        switch kind {
        case "refused":
            request = URLRequest(url: try #require(URL(string: "http://127.0.0.1:\(try HTTPBin.unusedPort())/get")))
        case "redirects":
            request = URLRequest(url: server.url("/redirect/25"))
        default:
            request = URLRequest(url: server.url("/delay/3"))
            request.timeoutInterval = 1
        }
        let (_, session) = session(transport: CurlTransport.shared)
        defer { session.invalidateAndCancel() }
        // The timeout case needs the platform's timer to fire before the answer (SharedQueueTurns).
        let sent = request
        let (direct, nettap) = await SharedQueueTurns.shared.run {
            (
                await failure(of: sent, on: URLSession(configuration: .default)),
                await failure(of: sent, on: session)
            )
        }
        let expected = try #require(direct)
        let got = try #require(nettap)
        #expect(got.code == expected.code)
        #expect(got.domain == expected.domain)
        #expect(Set(got.userInfo.keys) == Set(expected.userInfo.keys))
        #expect(
            Self.withoutTimes(got.localizedDescription) == Self.withoutTimes(expected.localizedDescription)
        )
        let underlying = got.userInfo[NSUnderlyingErrorKey] as? NSError
        let expectedUnderlying = expected.userInfo[NSUnderlyingErrorKey] as? NSError
        #expect(underlying?.code == expectedUnderlying?.code)
        #expect(
            (got.userInfo[NSURLErrorFailingURLErrorKey] as? URL)
                == (expected.userInfo[NSURLErrorFailingURLErrorKey] as? URL)
        )
    }

    /// The error of a request, as an `NSError`.
    func failure(of request: URLRequest, on session: URLSession) async -> NSError? {
        do {
            _ = try await session.data(for: request)
            return nil
        } catch {
            return error as NSError
        }
    }

    /// libcurl's "after N ms" varies between two attempts.
    static func withoutTimes(_ text: String) -> String {
        text.replacingOccurrences(of: #"after \d+ ms"#, with: "after N ms", options: .regularExpression)
    }
}
