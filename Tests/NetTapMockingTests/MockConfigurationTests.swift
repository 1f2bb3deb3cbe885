import Foundation
import NetTapCore
import NetTapHAR
import NetTapMocking
import NetTapTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Mock files: loading, errors naming file and JSON path, writing back")
struct MockConfigurationTests {
    static let document = #"""
        {
          "shaping": {"profile": "3G"},
          "mocks": {
            "activeScenario": "happy path",
            "stubs": [
              {"name": "config", "match": {"method": "GET", "path": "/config"},
               "response": {"json": {"theme": "dark"}, "headers": {"X-Env": "test"}}}
            ],
            "scenarios": [
              {"name": "happy path", "stubs": [
                {"name": "cart", "match": {"path": "/cart"},
                 "response": {"status": 201, "file": "bodies/cart.json",
                              "headers": [{"name": "Content-Type", "value": "application/json"},
                                          {"name": "Set-Cookie", "value": "a=1"}, {"name": "Set-Cookie", "value": "b=2"}],
                              "latencyMs": 120, "bandwidth": 50000}},
                {"name": "login", "match": {"method": "POST", "path": "/login"}, "active": "locked",
                 "alternatives": [{"name": "ok", "json": {"token": "t"}}, {"name": "locked", "status": 423, "body": "locked"}]},
                {"name": "poll", "match": {"path": "/job"}, "afterEnd": "cycle",
                 "sequence": [{"status": 202, "durationMs": 30}, {"status": 200, "base64": "AAEC"}]}
              ]},
              {"name": "server down", "stubs": [
                {"name": "offline", "match": {}, "response": {"error": "notConnectedToInternet", "latencyMs": 2000}},
                {"name": "moved", "match": {"path": "/old"}, "response": {"redirect": "/new", "status": 301}}
              ]}
            ]
          }
        }
        """#

    /// A folder with `nettap.json` and `bodies/cart.json`.
    private func folder(_ json: String = document) throws -> URL {
        let directory = try temporaryDirectory()
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("bodies"),
            withIntermediateDirectories: true
        )
        try Data(#"{"items":[1,2]}"#.utf8).write(to: directory.appendingPathComponent("bodies/cart.json"))
        try Data(json.utf8).write(to: directory.appendingPathComponent("nettap.json"))
        return directory
    }

    /// What a mock set answers for a fixed list of requests: status, headers and body text, or the error code.
    private func behaviour(of mocks: MockSet) async throws -> [String] {
        let pipeline = harness(mocks, clock: ImmediateClock())
        var lines: [String] = []
        for scenario in ["happy path", "server down"] {
            try mocks.activate(scenario: scenario)
            mocks.resetCounters()
            for (path, method) in [
                ("/config", "GET"), ("/cart", "GET"), ("/login", "POST"), ("/job", "GET"), ("/job", "GET"),
                ("/job", "GET"), ("/old", "GET"),
            ] {
                do {
                    let result = try await pipeline.send(request(path, method: method))
                    let headers = result.response.headers.map { "\($0.name)=\($0.value)" }.joined(separator: ";")
                    lines.append(
                        "\(scenario) \(method) \(path): \(result.statusCode) [\(headers)] \(result.body.base64EncodedString())"
                    )
                } catch let error as URLError {
                    lines.append("\(scenario) \(method) \(path): error \(error.code.rawValue)")
                }
            }
        }
        return lines
    }

    @Test("a nettap.json mocks section loads stubs, scenarios, alternatives, sequences, timing and file bodies")
    func load() async throws {
        let directory = try folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let configuration = try MockConfiguration.load(contentsOf: directory.appendingPathComponent("nettap.json"))
        #expect(configuration.activeScenario == "happy path")
        #expect(configuration.scenarios.map(\.name) == ["happy path", "server down"])
        let cart = try #require(configuration.scenarios.first?.stubs.first)
        guard case .single(let response) = cart.responses else {
            Issue.record("cart is not a single response")
            return
        }
        #expect(response.latency == .milliseconds(120))
        #expect(response.pacing == .bandwidth(bytesPerSecond: 50_000))
        #expect(response.body == .file(directory.appendingPathComponent("bodies/cart.json").standardizedFileURL))

        let mocks = try MockSet(configuration: configuration)
        let clock = ManualClock()
        let pipeline = harness(mocks, clock: clock)
        let cartResult = Task { try await pipeline.send(request("/cart")) }
        await clock.waitForSleepers(count: 1)
        clock.advance(by: .milliseconds(120))
        await clock.waitForSleepers(count: 1)
        clock.advance(by: .milliseconds(50))
        let cartAnswer = try await cartResult.value
        #expect(cartAnswer.statusCode == 201)
        #expect(cartAnswer.text == #"{"items":[1,2]}"#)
        #expect(cartAnswer.response.headers.values(for: "Set-Cookie") == ["a=1", "b=2"])
        let login = try await pipeline.send(request("/login", method: "POST"))
        #expect(login.statusCode == 423)
        #expect(login.annotations["alternative"] == "locked")
        #expect(try await pipeline.send(request("/config")).response.headers["X-Env"] == "test")

        try mocks.activate(scenario: "server down")
        let moved = try await harness(mocks).send(request("/old"))
        #expect(moved.statusCode == 301)
        #expect(moved.response.headers["Location"] == "/new")
    }

    @Test("load → save → load answers every request the same, and file bodies stay files")
    func roundTrip() async throws {
        let directory = try folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let original = directory.appendingPathComponent("nettap.json")
        let first = try MockSet(configuration: MockConfiguration.load(contentsOf: original))
        try first.select(alternative: "ok", for: "login")
        let saved = directory.appendingPathComponent("mocks.json")
        try first.configuration.write(to: saved)
        let written = try JSONValue(data: Data(contentsOf: saved))
        guard case .array(let scenarios)? = written["scenarios"], case .array(let stubs)? = scenarios.first?["stubs"]
        else {
            Issue.record("no scenarios written: \(written)")
            return
        }
        #expect(stubs.first?["response"]?["file"] == "bodies/cart.json")
        #expect(stubs[1]["active"] == "ok")
        let second = try MockSet(configuration: MockConfiguration.load(contentsOf: saved))
        let expected = try await behaviour(of: first)
        #expect(try await behaviour(of: second) == expected)
        #expect(expected.contains { $0.hasPrefix("server down GET /cart: error -1009") })
        #expect(expected.contains { $0.hasPrefix("happy path GET /cart: 201") })
    }

    @Test("a response's body fault is read from the file and written back the same")
    func faultRoundTrip() throws {
        let directory = try folder(
            #"""
            {"mocks": {"stubs": [
              {"name": "cut", "match": {"path": "/cut"}, "response": {"body": "hello", "fault": {"type": "truncate", "afterBytes": "1 KiB"}}},
              {"name": "hang", "match": {"path": "/hang"}, "sequence": [{"status": 200, "fault": "stall"}, {"status": 204}]}
            ]}}
            """#
        )
        defer { try? FileManager.default.removeItem(at: directory) }
        let loaded = try MockConfiguration.load(contentsOf: directory.appendingPathComponent("nettap.json"))
        guard case .single(let cut) = loaded.stubs[0].responses,
            case .sequence(let steps, _) = loaded.stubs[1].responses
        else {
            Issue.record("unexpected stubs: \(loaded.stubs)")
            return
        }
        #expect(cut.fault == .truncate(afterBytes: 1024))
        #expect(steps.map(\.fault) == [.stall(afterBytes: 0), nil])
        let saved = directory.appendingPathComponent("saved.json")
        try loaded.write(to: saved)
        let written = try JSONValue(data: Data(contentsOf: saved))
        guard case .array(let stubs)? = written["stubs"] else {
            Issue.record("no stubs written: \(written)")
            return
        }
        #expect(stubs[0]["response"]?["fault"] == ["type": "truncate", "afterBytes": 1024])
        let reloaded = try MockConfiguration.load(contentsOf: saved)
        guard case .single(let again) = reloaded.stubs[0].responses else { return }
        #expect(again.fault == cut.fault)
    }

    @Test("writing into a nettap.json replaces only its mocks section")
    func keepsOtherSections() throws {
        let directory = try folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("nettap.json")
        let configuration = MockConfiguration(
            stubs: [Stub("a", matching: .path("/a"), response: .text("a"))]
        )
        try configuration.write(to: file)
        let written = try JSONValue(data: Data(contentsOf: file))
        #expect(written["shaping"] == ["profile": "3G"])
        #expect(try MockConfiguration.load(contentsOf: file).stubs.map(\.name) == ["a"])
    }

    @Test(
        "errors name the file and the JSON path",
        arguments: [
            (
                #"{"mocks": {"stubs": [{"name": "a", "match": {}, "response": {"status": "200"}}]}}"#,
                "nettap.json: $.mocks.stubs[0].response.status: expected an integer, found a string"
            ),
            (
                #"{"mocks": {"stubs": [{"name": "a", "match": {}, "response": {"error": "offline"}}]}}"#,
                #"nettap.json: $.mocks.stubs[0].response.error: unknown URLError code "offline"; did you mean "notConnectedToInternet"?"#
            ),
            (
                #"{"mocks": {"stubs": [{"name": "a", "match": {}, "response": {"latencyMs": 1e16}}]}}"#,
                "nettap.json: $.mocks.stubs[0].response.latencyMs: expected at most 9000000000 milliseconds, found 10000000000000000"
            ),
            (
                #"{"mocks": {"stubs": [{"name": "a", "match": {}, "response": {"error": "timedout"}}]}}"#,
                #"nettap.json: $.mocks.stubs[0].response.error: unknown URLError code "timedout"; did you mean "timedOut"?"#
            ),
            (
                #"{"mocks": {"stubs": [{"name": "a", "match": {}, "response": {"error": "broken"}}]}}"#,
                #"nettap.json: $.mocks.stubs[0].response.error: unknown URLError code "broken"; expected a URLError.Code member name (appTransportSecurityRequiresSecureConnection, badServerResponse, "#
            ),
            (
                #"{"mocks": {"activeScenario": "x", "scenarios": [{"name": "y", "stubs": []}]}}"#,
                #"nettap.json: $.mocks.activeScenario: no scenario named "x"; did you mean "y"?"#
            ),
            (
                #"{"mocks": {"stubs": [{"name": "a", "match": {}, "response": {"body": "x", "json": 1}}]}}"#,
                #"nettap.json: $.mocks.stubs[0].response: a response has at most one of "body", "json", "base64" or "file"; found "body" and "json""#
            ),
            (
                #"{"mocks": {"stubs": [{"name": "a", "match": {}}]}}"#,
                #"nettap.json: $.mocks.stubs[0]: a stub needs one of "response", "alternatives" or "sequence""#
            ),
            (
                #"{"mocks": {"stubs": [{"name": "a", "match": {}, "response": {"error": "timedOut", "fault": "stall"}}]}}"#,
                #"nettap.json: $.mocks.stubs[0].response.fault: a response with "error" has no "fault""#
            ),
            (
                #"{"mocks": {"stubs": [{"name": "a", "match": {}, "response": {"fault": {"type": "reset"}}}]}}"#,
                #"nettap.json: $.mocks.stubs[0].response.fault.type: unknown fault "reset"; expected one of drop-connection"#
            ),
            (
                #"{"mocks": {"stubs": [{"name": "a", "match": {}, "sequence": [{"status": 200}], "afterEnd": "loop"}]}}"#,
                #"nettap.json: $.mocks.stubs[0].afterEnd: expected "repeatLast" or "cycle", found "loop""#
            ),
        ]
    )
    func errors(json: String, message: String) throws {
        let directory = try folder(json)
        defer { try? FileManager.default.removeItem(at: directory) }
        let error = #expect(throws: ConfigurationError.self) {
            _ = try MockConfiguration.load(contentsOf: directory.appendingPathComponent("nettap.json"))
        }
        let text = error?.description ?? ""
        #expect(text.hasPrefix(message), "\(text)")
    }

    @Test("a missing body file is an error naming the path")
    func missingBodyFile() throws {
        let directory = try folder(#"{"stubs": [{"name": "a", "match": {}, "response": {"file": "nope/body.bin"}}]}"#)
        defer { try? FileManager.default.removeItem(at: directory) }
        let error = #expect(throws: ConfigurationError.self) {
            _ = try MockConfiguration.load(contentsOf: directory.appendingPathComponent("nettap.json"))
        }
        let expectedPath = directory.appendingPathComponent("nope/body.bin").standardizedFileURL.path
        #expect(error?.description == "nettap.json: $.stubs[0].response.file: file not found: \(expectedPath)")
    }

    @Test("a stub with a closure matcher or a dynamic response cannot be written, and says where")
    func notWritable() throws {
        let custom = RequestMatcher(description: "custom", specificity: 1) { _ in .matched }
        let closure = MockConfiguration(stubs: [Stub("c", matching: custom, response: .status(200))])
        let error = #expect(throws: ConfigurationError.self) { _ = try closure.jsonValue(relativeTo: nil) }
        #expect(error?.path == "$.stubs[0].match")
        let dynamic = MockConfiguration(
            scenarios: [
                Scenario("s", stubs: [Stub("d", matching: .path("/d"), response: .dynamic { _ in .status(200) })])
            ]
        )
        let dynamicError = #expect(throws: ConfigurationError.self) { _ = try dynamic.jsonValue(relativeTo: nil) }
        #expect(dynamicError?.path == "$.scenarios[0].stubs[0].response")
    }

    @Test("a HAR entry saved as mock into a scenario file answers after loading it")
    func appendFromHAR() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("mocks.json")
        let entries = try HARDocument.load(contentsOf: SaveAsMockTests.fixtures.appendingPathComponent("chrome.har"))
            .log.entries
        try MockConfiguration.append(try Stub(recording: entries[2]), toScenario: "recorded", inFileAt: file)
        try MockConfiguration.append(
            try Stub(recording: entries[0], name: "home"),
            toScenario: "recorded",
            inFileAt: file
        )
        let configuration = try MockConfiguration.load(contentsOf: file)
        #expect(configuration.scenarios.map(\.name) == ["recorded"])
        #expect(
            configuration.scenarios.first?.stubs.map(\.name) == [
                "GET /images/branding/googlelogo/2x/googlelogo_light_color_272x92dp.png", "home",
            ]
        )
        let mocks = try MockSet(configuration: configuration)
        try mocks.activate(scenario: "recorded")
        let image = try await harness(mocks).send(URLRequest(url: try #require(URL(string: entries[2].request.url))))
        #expect(image.body == entries[2].response.content.decodedData())
    }
}
