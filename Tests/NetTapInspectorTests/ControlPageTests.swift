import Foundation
import NetTapCore
import NetTapInspector
import NetTapMocking
import NetTapTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Control page: the running app's mocks, network, scope and capture switched over HTTP, for the next request")
struct ControlPageTests {
    @Test("the page is self-contained, carries its token, and is never framed; its script is allowed by hash")
    func pageHeaders() async throws {
        let app = MockedApp()
        let inspector = try app.interceptor.startInspector()
        defer { inspector.stop() }
        let client = try await ControlPageClient(inspector)
        #expect(client.token.count == 32)
        let page = try await client.page()
        #expect(page.status == 200)
        #expect((page.fields["Content-Type"] as? String)?.hasPrefix("text/html") == true)
        let policy = try #require(page.fields["Content-Security-Policy"] as? String)
        #expect(policy.contains("script-src 'sha256-"), "\(policy)")
        #expect(policy.contains("frame-ancestors 'none'") && policy.contains("default-src 'none'"))
        #expect(page.fields["X-Frame-Options"] as? String == "DENY")
        #expect(!page.text.contains("src=\"http") && !page.text.contains("href=\"http"))
        // A second page load gets the same token (one per run), another inspector another.
        #expect(try await ControlPageClient(inspector).token == client.token)
    }

    @Test("without the token, with a wrong one or from another origin, /control/ is refused and nothing changes")
    func refusals() async throws {
        let app = MockedApp()
        let inspector = try app.interceptor.startInspector()
        defer { inspector.stop() }
        let client = try await ControlPageClient(inspector)
        let wrong = try await client.post("capture", ["on": "0"], token: String(repeating: "0", count: 32))
        #expect(wrong.status == 403)
        #expect(wrong.text.contains("token"))
        #expect(try await client.send("GET", "state", token: "").status == 403)
        let foreign = try await client.post("capture", ["on": "0"], fields: ["Origin": "http://evil.example"])
        #expect(foreign.status == 403)
        #expect(foreign.text.contains("http://evil.example"))
        #expect(app.interceptor.captureLog.isCapturing)
        let own = "http://127.0.0.1:\(inspector.port)"
        #expect(try await client.post("capture", ["on": "0"], fields: ["Origin": own]).status == 200)
        #expect(!app.interceptor.captureLog.isCapturing)
        #expect(try await client.send("GET", "capture", ["on": "1"]).status == 405)
        #expect(try await client.post("reboot").status == 404)
    }

    @Test("stub alternatives and scenarios switched from the page answer the next request")
    func mocks() async throws {
        let app = MockedApp()
        let inspector = try app.interceptor.startInspector()
        defer { inspector.stop() }
        let client = try await ControlPageClient(inspector)
        let sets = try #require(try await client.state()["mocks"] as? [[String: Any]])
        #expect(sets.count == 1)
        #expect(sets.first?["scenarios"] as? [String] == ["server down"])
        let stubs = try #require(sets.first?["stubs"] as? [[String: Any]])
        #expect(stubs.compactMap { $0["name"] as? String } == ["profile", "all"])
        #expect(stubs.first?["alternatives"] as? [String] == ["full", "empty"])
        #expect(stubs.first?["activeAlternative"] as? String == "full")
        #expect(await app.get("http://app.test/v1/profile").body == "full profile")

        let switched = try await client.post("alternative", ["mocks": "0", "stub": "profile", "name": "empty"])
        #expect(switched.status == 200, "\(switched.text)")
        #expect(await app.get("http://app.test/v1/profile").body == "{}")
        #expect(try await client.post("scenario", ["mocks": "0", "name": "server down"]).status == 200)
        #expect(await app.get("http://app.test/v1/profile").status == 503)
        #expect(try await client.post("scenario", ["mocks": "0", "name": ""]).status == 200)
        #expect(await app.get("http://app.test/v1/profile").body == "{}")

        let hits = try #require(
            (try await client.state()["mocks"] as? [[String: Any]])?.first?["stubs"] as? [[String: Any]]
        )
        #expect(hits.compactMap { $0["hits"] as? Int } == [3, 1])
        let unknown = try await client.post("alternative", ["mocks": "0", "stub": "profile", "name": "huge"])
        #expect(unknown.status == 400)
        #expect((unknown.json["error"] as? String)?.contains("huge") == true, "\(unknown.text)")
        #expect((unknown.json["error"] as? String)?.hasPrefix("alternative: ") == true, "\(unknown.text)")
        let noSet = try await client.post("scenario", ["mocks": "3", "name": ""])
        #expect(noSet.status == 400)
        #expect((noSet.json["error"] as? String)?.contains("no mock set 3") == true, "\(noSet.text)")
    }

    @Test("a network preset and a per-host rule set from the page shape the next request; the app's own comes back")
    func network() async throws {
        let app = MockedApp()
        let inspector = try app.interceptor.startInspector()
        defer { inspector.stop() }
        let client = try await ControlPageClient(inspector)
        let network = try #require(try await client.state()["network"] as? [String: Any])
        #expect(network["profile"] as? String == "unthrottled")
        #expect((network["presets"] as? [String])?.prefix(2) == ["none", "wifi"])

        let offline = try await client.post("profile", ["preset": "offline"])
        #expect(offline.status == 200)
        #expect((offline.json["network"] as? [String: Any])?["source"] as? String == "offline")
        #expect(await app.get("http://app.test/x").error == URLError.Code.notConnectedToInternet.rawValue)
        #expect(try await client.post("profile").status == 200)
        #expect(await app.get("http://app.test/x").status == 200)

        #expect(try await client.post("rule", ["host": "*.slow.test", "preset": "server-down"]).status == 200)
        #expect(await app.get("http://api.slow.test/x").error == URLError.Code.cannotConnectToHost.rawValue)
        #expect(await app.get("http://app.test/x").status == 200)
        let rules = try #require((try await client.state()["network"] as? [String: Any])?["rules"] as? [[String: Any]])
        #expect(rules.first?["pageHost"] as? String == "*.slow.test")
        #expect(try await client.post("rule/remove", ["host": "*.slow.test"]).status == 200)
        #expect(await app.get("http://api.slow.test/x").status == 200)

        let unknown = try await client.post("profile", ["preset": "5g"])
        #expect(unknown.status == 400)
        #expect((unknown.json["error"] as? String)?.contains("\"5g\"") == true, "\(unknown.text)")
        for host in ["http://x/", "a..b", ".x.test", "", "*.", "api.*.test"] {
            let badHost = try await client.post("rule", ["host": host, "preset": "3g"])
            #expect(badHost.status == 400, "\(host): \(badHost.text)")
            #expect((badHost.json["error"] as? String)?.hasPrefix("rule: ") == true, "\(badHost.text)")
        }
        #expect(try await client.post("rule/remove", ["host": "never.test"]).status == 400)
    }

    @Test("capture paused from the page leaves the next requests out of the log; the request count still counts them")
    func capture() async throws {
        let app = MockedApp()
        let inspector = try app.interceptor.startInspector()
        defer { inspector.stop() }
        let client = try await ControlPageClient(inspector)
        _ = await app.get("http://app.test/kept")
        #expect(try await client.post("capture", ["on": "0"]).json["isCapturing"] as? Bool == false)
        _ = await app.get("http://app.test/not-kept")
        #expect(try await client.post("capture", ["on": "1"]).status == 200)
        _ = await app.get("http://app.test/kept-again")
        let finished = await app.interceptor.captureLog.waitForFinished { $0.request.url.path == "/kept-again" }
        #expect(finished.state == .completed)
        let paths = app.interceptor.captureLog.transactions.map(\.request.url.path)
        #expect(paths == ["/kept", "/kept-again"])
        let state = try await client.state()
        #expect(state["requestCount"] as? Int == 3)
        #expect(state["captured"] as? Int == 2)
        #expect(try await client.post("capture", ["on": "maybe"]).status == 400)
    }

    @Test("the host scope set from the page decides the next request: a denied host goes to the network untouched")
    func scope() async throws {
        let app = MockedApp()
        let inspector = try app.interceptor.startInspector()
        defer { inspector.stop() }
        let client = try await ControlPageClient(inspector)
        // The inspector's own discovery list, asked through the interceptor: the app's handler answers it first.
        let url = "http://127.0.0.1:\(inspector.port)/json/version"
        #expect(await app.get(url).body.contains("/json/version"))
        let log = app.interceptor.captureLog
        _ = await log.waitForFinished { $0.request.url.path == "/json/version" }
        let set = try await client.post("scope", ["deny": "127.0.0.1\n*.ads.test"])
        #expect(set.status == 200, "\(set.text)")
        #expect((set.json["scope"] as? [String: Any])?["denyHosts"] as? [String] == ["127.0.0.1", "*.ads.test"])
        #expect(await app.get(url).body.contains("\"Browser\""))
        #expect(log.transactions.filter { $0.request.url.path == "/json/version" }.count == 1)

        let bad = try await client.post("scope", ["allow": "api.*.test"])
        #expect(bad.status == 400)
        #expect((bad.json["error"] as? String)?.contains("api.*.test") == true, "\(bad.text)")
        #expect(app.interceptor.scope.denyHosts.map(\.description) == ["127.0.0.1", "*.ads.test"])
    }

    @Test("recorded traffic: the page shows the count and the DevTools link, and changes nothing")
    func recorded() async throws {
        let interceptor = NetTapInterceptor()
        interceptor.handlers = [AppServer()]
        let session = interceptor.makeSession(configuration: .ephemeral)
        _ = try await session.data(from: try #require(URL(string: "http://app.test/one")))
        _ = await interceptor.captureLog.waitForFinished { $0.request.url.path == "/one" }
        let inspector = try DevToolsInspector.serve(
            RecordedTraffic(interceptor.captureLog.transactions),
            controls: nil,
            title: "recorded",
            address: "127.0.0.1",
            port: 0
        )
        defer { inspector.stop() }
        let client = try await ControlPageClient(inspector)
        let state = try await client.state()
        #expect(state["isLive"] as? Bool == false)
        #expect(state["captured"] as? Int == 1)
        #expect((state["devToolsURL"] as? String) == inspector.devToolsURL)
        #expect(state["network"] == nil && state["scope"] == nil)
        #expect(try await client.post("capture", ["on": "0"]).status == 409)
    }
}
