import Foundation
import NetTapCore
import NetTapInspector
import NetTapShaping
import NetTapTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Live inspector: an interceptor's traffic in a DevTools client, bodies on request, DevTools' controls")
struct LiveInspectorTests {
    private func makeApp() -> (NetTapInterceptor, URLSession) {
        let interceptor = NetTapInterceptor()
        interceptor.handlers = [AppServer()]
        return (interceptor, interceptor.makeSession(configuration: .ephemeral))
    }

    private func connect(_ inspector: DevToolsInspector) async throws -> DevToolsTestClient {
        let list = try await URLSession(configuration: .ephemeral).data(from: inspector.discoveryURL).0
        let targets = try #require(try JSONSerialization.jsonObject(with: list) as? [[String: Any]])
        let socket = try #require(targets.first?["webSocketDebuggerUrl"] as? String)
        let path = try #require(URL(string: socket)?.path)
        #expect(inspector.devToolsURL.hasSuffix(path))
        return try await DevToolsTestClient(port: inspector.port, path: path)
    }

    private func get(_ path: String, _ session: URLSession) async throws -> (Data, HTTPURLResponse?) {
        let (data, response) = try await session.data(from: try #require(URL(string: "http://app.test" + path)))
        return (data, response as? HTTPURLResponse)
    }

    @Test("Network.enable replays the capture log, then streams new transactions: each request shown once, in full")
    func replayThenLive() async throws {
        let (interceptor, session) = makeApp()
        _ = try await get("/first", session)
        _ = try await get("/second", session)
        let inspector = try interceptor.startInspector()
        defer { inspector.stop() }
        let client = try await connect(inspector)
        #expect(try await client.command("Network.enable")["result"] as? [String: Any] != nil)
        try await client.readUntilEnded(2)
        _ = try await get("/third", session)
        try await client.readUntilEnded(3)

        let sent = client.params("Network.requestWillBeSent")
        let urls = sent.compactMap { ($0["request"] as? [String: Any])?["url"] as? String }
        #expect(urls == ["http://app.test/first", "http://app.test/second", "http://app.test/third"])
        #expect(Set(sent.compactMap { $0["requestId"] as? String }).count == 3)
        // Who answered; a live request still unanswered after 0.3 s (a loaded machine) is shown as pending.
        let initiators = sent.map { ($0["initiator"] as? [String: Any])?["url"] as? String ?? "" }
        #expect(initiators.prefix(2) == ["nettap:mock", "nettap:mock"])
        #expect(["nettap:mock", "nettap:pending"].contains(initiators.last ?? ""), "\(initiators)")
        let responses = client.params("Network.responseReceived")
        #expect(responses.count == 3)
        #expect(responses.allSatisfy { ($0["response"] as? [String: Any])?["status"] as? Int == 200 })
        #expect(client.events("Network.loadingFinished").count == 3)
        #expect(client.events("Network.loadingFailed").isEmpty)
        // A second Network.enable on the same client replays nothing again.
        try await client.command("Network.enable")
        #expect(client.events("Network.requestWillBeSent").count == 3)
    }

    @Test("a request still unanswered is shown as pending within a second, then completes; shown once")
    func pending() async throws {
        let (release, releasing) = AsyncStream<Void>.makeStream()
        let interceptor = NetTapInterceptor()
        interceptor.handlers = [AppServer(release: release)]
        let session = interceptor.makeSession(configuration: .ephemeral)
        let inspector = try interceptor.startInspector()
        defer { inspector.stop() }
        let client = try await connect(inspector)
        try await client.command("Network.enable")
        let request = Task { try await get("/hang", session) }
        try await client.read { $0["method"] as? String == "Network.requestWillBeSent" }
        #expect(client.events("Network.responseReceived").isEmpty, "shown before its answer")
        let initiator = client.params("Network.requestWillBeSent").first?["initiator"] as? [String: Any]
        #expect(initiator?["url"] as? String == "nettap:pending")
        releasing.yield()
        #expect(try await request.value.1?.statusCode == 200)
        try await client.readUntilEnded(1)
        #expect(client.events("Network.requestWillBeSent").count == 1)
        #expect(client.events("Network.responseReceived").count == 1)
    }

    @Test(
        "getResponseBody gives text, base64 for binary and redacted secrets; getRequestPostData likewise; unknown ids fail"
    )
    func bodies() async throws {
        let (interceptor, session) = makeApp()
        let inspector = try interceptor.startInspector()
        defer { inspector.stop() }
        let client = try await connect(inspector)
        try await client.command("Network.enable")
        _ = try await get("/image", session)
        _ = try await get("/login", session)
        var post = URLRequest(url: try #require(URL(string: "http://app.test/form")))
        post.httpMethod = "POST"
        post.setValue("application/json", forHTTPHeaderField: "Content-Type")
        post.httpBody = Data(#"{"user":"ann","password":"hunter2-secret"}"#.utf8)
        _ = try await session.data(for: post)
        try await client.readUntilEnded(3)
        let ids = client.params("Network.requestWillBeSent").compactMap { $0["requestId"] as? String }
        try #require(ids.count == 3)

        let image = try #require(
            try await client.command("Network.getResponseBody", ["requestId": ids[0]])["result"] as? [String: Any]
        )
        #expect(image["base64Encoded"] as? Bool == true)
        #expect((image["body"] as? String).flatMap { Data(base64Encoded: $0) } == AppServer.png)
        let login = try #require(
            try await client.command("Network.getResponseBody", ["requestId": ids[1]])["result"] as? [String: Any]
        )
        #expect(login["base64Encoded"] as? Bool == false)
        let loginText = try #require(login["body"] as? String)
        #expect(loginText.contains("ann"))
        #expect(!loginText.contains("s3cr3t-token-value"), "\(loginText)")

        let posted = try #require(
            try await client.command("Network.getRequestPostData", ["requestId": ids[2]])["result"] as? [String: Any]
        )
        let postText = try #require(posted["postData"] as? String)
        #expect(postText.contains("ann"))
        #expect(!postText.contains("hunter2-secret"), "\(postText)")
        let noPost = try await client.command("Network.getRequestPostData", ["requestId": ids[0]])
        #expect((noPost["error"] as? [String: Any])?["code"] as? Int == -32000)
        let unknown = try await client.command("Network.getResponseBody", ["requestId": UUID().uuidString])
        #expect(
            (unknown["error"] as? [String: Any])?["message"] as? String == "No resource with given identifier found"
        )
        // The event stream itself never carried the secrets either.
        let everything = client.messages.map { DevToolsEndpoint.encode($0) }.joined()
        #expect(!everything.contains("hunter2-secret") && !everything.contains("s3cr3t-token-value"))
    }

    @Test("DevTools' Offline, by every command a frontend sends, fails the app's requests as no network would")
    func offline() async throws {
        let (interceptor, session) = makeApp()
        let inspector = try interceptor.startInspector()
        defer { inspector.stop() }
        let client = try await connect(inspector)
        let commands: [(String, [String: Any])] = [
            (
                "Network.emulateNetworkConditions",
                ["offline": true, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1]
            ),
            (
                "Network.overrideNetworkState",
                ["offline": true, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1]
            ),
            (
                "Network.emulateNetworkConditionsByRule",
                ["offline": true, "matchedNetworkConditions": [[String: Any]]()]
            ),
        ]
        for (method, params) in commands {
            try await client.command(method, params)
            await #expect(throws: URLError.self, "\(method)") { _ = try await get("/x", session) }
            do {
                _ = try await get("/x", session)
            } catch let error as URLError {
                #expect(error.code == .notConnectedToInternet, "\(method)")
            }
            // "No throttling" as the same command sends it.
            var online = params
            online["offline"] = false
            try await client.command(method, online)
            #expect(try await get("/x", session).1?.statusCode == 200, "\(method)")
        }
    }

    @Test("throttling presets become the interceptor's network profile; per-URL rules shape only their URLs")
    func throttling() async throws {
        let (interceptor, session) = makeApp()
        let inspector = try interceptor.startInspector()
        defer { inspector.stop() }
        let client = try await connect(inspector)
        let controls = try #require(interceptor.handlers.compactMap { $0 as? InspectorControlHandler }.first).controls
        // Chrome's "Slow 4G" as Chromium 156 sends it.
        try await client.command(
            "Network.overrideNetworkState",
            ["offline": false, "latency": 562.5, "downloadThroughput": 180_000, "uploadThroughput": 84_375]
        )
        #expect(
            controls.overallProfile
                == NetworkProfile(
                    latency: .microseconds(562_500),
                    downloadBytesPerSecond: 180_000,
                    uploadBytesPerSecond: 84_375
                )
        )
        let started = ContinuousClock.now
        #expect(try await get("/slow", session).1?.statusCode == 200)
        #expect(ContinuousClock.now - started >= .milliseconds(560), "the added latency was not applied")

        let answer = try await client.command(
            "Network.emulateNetworkConditionsByRule",
            [
                "offline": false,
                "matchedNetworkConditions": [
                    ["urlPattern": "*://*:*/api/*", "latency": 150, "downloadThroughput": -1, "uploadThroughput": -1],
                    ["urlPattern": "", "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1],
                ],
            ]
        )
        #expect(((answer["result"] as? [String: Any])?["ruleIds"] as? [String])?.count == 2)
        try await client.command(
            "Network.overrideNetworkState",
            ["offline": false, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1]
        )
        let api = URLRequest(url: try #require(URL(string: "http://app.test/api/items")))
        let page = URLRequest(url: try #require(URL(string: "http://app.test/index.html")))
        #expect(controls.shaper.profile(for: api) == NetworkProfile(latency: .milliseconds(150)))
        #expect(controls.shaper.profile(for: page) == nil)
    }

    @Test("request blocking fails matching requests before they leave, DevTools sees ERR_BLOCKED_BY_CLIENT")
    func blocking() async throws {
        let (interceptor, session) = makeApp()
        let inspector = try interceptor.startInspector()
        defer { inspector.stop() }
        let client = try await connect(inspector)
        try await client.command("Network.enable")
        try await client.command(
            "Network.setBlockedURLs",
            ["urlPatterns": [["urlPattern": "*://*:*/ads/*", "block": true]], "urls": ["tracker"]]
        )
        for path in ["/ads/banner.js", "/js/tracker.js"] {
            do {
                _ = try await get(path, session)
                Issue.record("\(path) was not blocked")
            } catch let error as URLError {
                #expect(error.code == .cannotConnectToHost)
            }
        }
        #expect(try await get("/js/app.js", session).1?.statusCode == 200)
        try await client.readUntilEnded(3)
        let failed = client.params("Network.loadingFailed")
        #expect(failed.count == 2)
        #expect(failed.allSatisfy { $0["errorText"] as? String == "net::ERR_BLOCKED_BY_CLIENT" })
        #expect(failed.allSatisfy { $0["blockedReason"] as? String == "inspector" })
        try await client.command("Network.setBlockedURLs", ["urlPatterns": [[String: Any]]()])
        #expect(try await get("/ads/banner.js", session).1?.statusCode == 200)
    }

    @Test("with the app's own shaping handler, DevTools sets its shaper, and stop() puts the app's profile back")
    func appShaper() async throws {
        let interceptor = NetTapInterceptor()
        let appProfile = NetworkProfile(latency: .milliseconds(5))
        let shaper = NetworkShaper(profile: appProfile)
        interceptor.handlers = [ShapingHandler(shaper: shaper), AppServer()]
        let inspector = try interceptor.startInspector()
        #expect(try interceptor.startInspector() === inspector, "one inspector per interceptor")
        #expect(interceptor.handlers.map(\.name) == ["inspector", "shaping", "mock"])
        let client = try await connect(inspector)
        try await client.command("Network.overrideNetworkState", ["offline": true])
        #expect(shaper.profile?.condition == .offline)
        try await client.command("Network.overrideNetworkState", ["offline": false, "latency": 0])
        #expect(shaper.profile == appProfile, "DevTools' No throttling leaves the app's own profile")
        try await client.command("Network.overrideNetworkState", ["offline": true])
        inspector.stop()
        #expect(shaper.profile == appProfile)
        #expect(interceptor.handlers.map(\.name) == ["shaping", "mock"])
        #expect(try interceptor.startInspector() !== inspector, "a stopped inspector is not returned again")
        try interceptor.startInspector().stop()
    }

    @Test("off where NetTap is off: a release build's interceptor refuses to start an inspector, naming why")
    func gated() throws {
        let gate = ActivationGate(
            isDebugBuild: false,
            environmentValue: { nil },
            isEnabledInReleaseBuilds: { false },
            write: { _ in }
        )
        let interceptor = NetTapInterceptor(gate: gate)
        #expect {
            try interceptor.startInspector()
        } throws: { error in
            (error as? InspectorError)?.description.hasPrefix("NetTap is off (") == true
        }
        #expect(interceptor.handlers.isEmpty)
    }

    @Test("an explicit non-loopback address is accepted as the Host, and a bad address is named")
    func explicitAddress() throws {
        #expect {
            try NetTapInterceptor().startInspector(address: "localhost:80")
        } throws: { error in
            (error as? InspectorError)?.description == "localhost:80 is not an IPv4 address such as 127.0.0.1"
        }
        let policy = InspectorRequestPolicy(allowedHosts: ["192.0.2.7"])
        func head(_ host: String) throws -> HTTPRequestHead {
            var parser = HTTPRequestParser()
            guard
                case .head(let head, _) = try parser.consume(Array("GET /json HTTP/1.1\r\nHost: \(host)\r\n\r\n".utf8))
            else { throw TestSocket.Failure(description: "no head") }
            return head
        }
        #expect(policy.refusal(of: try head("192.0.2.7:9229"), isUpgrade: false) == nil)
        #expect(policy.refusal(of: try head("attacker.example:9229"), isUpgrade: false) != nil)
        #expect(policy.refusal(of: try head("127.0.0.1:9229"), isUpgrade: false) == nil)
        let anyHost = InspectorRequestPolicy(allowedHosts: ["*"])
        #expect(anyHost.refusal(of: try head("any.example"), isUpgrade: false) == nil)
    }
}
