import Foundation
import NetTapCore
import NetTapShaping
import NetTapTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

private func request(_ string: String) throws -> URLRequest {
    URLRequest(url: try #require(URL(string: string)))
}

@Suite("NetworkShaper")
struct NetworkShaperTests {
    @Test("the first matching rule wins, the app-wide profile covers the rest")
    func firstMatchWins() throws {
        let shaper = NetworkShaper(
            profile: .threeG,
            rules: [
                ShapingRule(.host("cdn.example.com"), profile: .edge),
                ShapingRule(.pathPrefix("/v1"), profile: .offline),
            ]
        )
        #expect(shaper.profile(for: try request("http://cdn.example.com/v1/a")) == .edge)
        #expect(shaper.profile(for: try request("http://api.example.com/v1/a")) == .offline)
        #expect(shaper.profile(for: try request("http://api.example.com/v2")) == .threeG)
        #expect(NetworkShaper().profile(for: try request("http://api.example.com/")) == nil)
    }

    @Test("switching the profile at runtime applies to the next request")
    func runtimeSwitching() async throws {
        let transport = FakeTransport()
        let shaper = NetworkShaper()
        let harness = PipelineHarness(handlers: [ShapingHandler(shaper: shaper)], transport: transport)
        let target = try request("http://127.0.0.1:9/")
        #expect(try await harness.send(target).statusCode == 200)
        shaper.setProfile(.offline)
        let error = await #expect(throws: URLError.self) { try await harness.send(target) }
        #expect(error?.code == .notConnectedToInternet)
        shaper.setProfile(nil)
        shaper.setRules([ShapingRule(.host("127.0.0.1"), profile: .serverDown)])
        let ruled = await #expect(throws: URLError.self) { try await harness.send(target) }
        #expect(ruled?.code == .cannotConnectToHost)
        shaper.setRules([])
        #expect(try await harness.send(target).statusCode == 200)
        #expect(transport.requests.count == 2)
    }

    @Test("presets carry the published numbers in bytes per second")
    func presetNumbers() {
        #expect(NetworkProfile.threeG.downloadBytesPerSecond == 97_500)
        #expect(NetworkProfile.threeG.uploadBytesPerSecond == 41_250)
        #expect(NetworkProfile.edge.latency == .milliseconds(840))
        #expect(NetworkProfile.veryBadNetwork.failureRate == 0.1)
        #expect(NetworkProfile.totalLoss.failureRate == 1)
        #expect(NetworkProfile.slow3G.downloadBytesPerSecond == 50_000)
        #expect(NetworkProfile.fast3G.uploadBytesPerSecond == 84_375)
        #expect(NetworkProfile.fast3G.latency == .microseconds(562_500))
        #expect(NetworkProfile.preset(named: "Slow-3G") == .slow3G)
        #expect(NetworkProfile.lte.downloadBytesPerSecond == 6_250_000)
        #expect(NetworkProfile.lte.uploadBytesPerSecond == 1_250_000)
        #expect(NetworkProfile.lte.latency == .milliseconds(115))
        #expect(NetworkProfile.dsl.downloadBytesPerSecond == 250_000)
        #expect(NetworkProfile.dsl.uploadBytesPerSecond == 32_000)
        #expect(NetworkProfile.wifi.downloadBytesPerSecond == 5_000_000)
        #expect(NetworkProfile.wifi.uploadBytesPerSecond == 4_125_000)
        #expect(NetworkProfile.preset(named: "WiFi") == .wifi)
    }
}

@Suite("Shaping configuration")
struct ShapingConfigurationTests {
    private func node(_ json: String) throws -> ConfigNode {
        try ConfigNode(parsing: Data(json.utf8), source: "nettap.json")
    }

    @Test("a preset name and rules with object profiles are read")
    func readsPresetAndRules() throws {
        let shaper = try NetworkShaper(
            configuration: node(
                """
                {"profile": "3g", "rules": [
                  {"match": {"host": "cdn.example.com"}, "profile": "edge"},
                  {"match": {"path": "/upload"}, "profile": {"latencyMs": 100, "jitterMs": 2.5,
                    "downloadBandwidth": "780 kbit/s", "uploadBandwidth": "1.5Mbit/s", "loss": 0.1}},
                  {"match": {"path": "/down"}, "profile": {"preset": "edge", "condition": "dns-failure"}}
                ]}
                """
            )
        )
        #expect(shaper.profile == .threeG)
        #expect(shaper.profile(for: try request("http://cdn.example.com/x")) == .edge)
        let upload = try #require(shaper.profile(for: try request("http://api.example.com/upload")))
        #expect(
            upload
                == NetworkProfile(
                    latency: .milliseconds(100),
                    jitter: .microseconds(2500),
                    downloadBytesPerSecond: 97_500,
                    uploadBytesPerSecond: 187_500,
                    failureRate: 0.1
                )
        )
        let down = try #require(shaper.profile(for: try request("http://api.example.com/down")))
        #expect(down.condition == .dnsFailure && down.latency == NetworkProfile.edge.latency)
    }

    @Test("load(contentsOf:) reads the shaping section of a whole nettap.json, or a file that is only that section")
    func loadsTheSection() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nettap-shaping-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let whole = folder.appendingPathComponent("nettap.json")
        try Data(#"{"shaping": {"profile": "edge"}}"#.utf8).write(to: whole)
        #expect(try NetworkShaper.load(contentsOf: whole).profile == .edge)
        let section = folder.appendingPathComponent("shaping.json")
        try Data(#"{"profile": "lte"}"#.utf8).write(to: section)
        #expect(try NetworkShaper.load(contentsOf: section).profile == .lte)
        let broken = folder.appendingPathComponent("broken.json")
        try Data(#"{"shaping": {"profile": "5g"}}"#.utf8).write(to: broken)
        let error = #expect(throws: ConfigurationError.self) { try NetworkShaper.load(contentsOf: broken) }
        #expect(error?.description.hasPrefix("broken.json: $.shaping.profile: unknown network profile preset") == true)
    }

    @Test("a profile's body fault is read from its type and size, alone or beside a preset")
    func fault() throws {
        let shaper = try NetworkShaper(
            configuration: node(
                #"""
                {"profile": {"preset": "3g", "fault": {"type": "truncate", "afterBytes": "1 KiB"}},
                 "rules": [{"match": {"path": "/video"}, "profile": {"fault": "stall"}}]}
                """#
            )
        )
        #expect(shaper.profile?.fault == .truncate(afterBytes: 1024))
        #expect(shaper.profile?.downloadBytesPerSecond == NetworkProfile.threeG.downloadBytesPerSecond)
        #expect(shaper.rules.first?.profile.fault == .stall(afterBytes: 0))
    }

    @Test(
        "bandwidth units are spelled out",
        arguments: [
            ("1000 bytes/s", 1000), ("8 kbit/s", 1000), ("2 Mbit/s", 250_000), ("1 KiB/s", 1024),
            ("1.5 MiB/s", 1_572_864),
        ]
    )
    func bandwidthUnits(text: String, bytes: Int) {
        #expect(NetworkProfile.bytesPerSecond(parsing: text) == bytes)
    }

    @Test(
        "a bare number, an unknown unit or a negative bandwidth is rejected",
        arguments: ["1000", "5 mph", "-3 kbit/s"]
    )
    func badBandwidth(text: String) {
        #expect(NetworkProfile.bytesPerSecond(parsing: text) == nil)
    }

    @Test(
        "errors name the file and the JSON path",
        arguments: [
            (#"{"profile": "4g"}"#, "nettap.json: $.profile: unknown network profile preset \"4g\""),
            (
                #"{"rules": [{"match": {}, "profile": {"downloadBandwidth": "780 kbps"}}]}"#,
                "nettap.json: $.rules[0].profile.downloadBandwidth: invalid bandwidth \"780 kbps\""
            ),
            (#"{"rules": [{"profile": "3g"}]}"#, "nettap.json: $.rules[0]: missing required key \"match\""),
            (
                #"{"profile": {"loss": 2}}"#,
                "nettap.json: $.profile.loss: loss must be between 0 and 1"
            ),
            (#"{"profile": {"condition": "asleep"}}"#, "nettap.json: $.profile.condition: unknown condition"),
            (#"{"profile": {"fault": "hiccup"}}"#, "nettap.json: $.profile.fault: unknown fault \"hiccup\""),
            (
                #"{"profile": {"fault": {"type": "stall", "afterBytes": "lots"}}}"#,
                "nettap.json: $.profile.fault.afterBytes: invalid size \"lots\""
            ),
            (#"{"profile": {"latencyMs": "fast"}}"#, "nettap.json: $.profile.latencyMs: expected a number"),
            (#"{"profiles": "3g"}"#, "nettap.json: $.profiles: unknown key"),
            (
                #"{"profile": {"downloadBandwidth": 780}}"#,
                "nettap.json: $.profile.downloadBandwidth: a bandwidth needs its unit: write it as a string such as "
                    + "\"780 kbit/s\""
            ),
            (#"{"profile": 3}"#, "nettap.json: $.profile: expected a preset name (100%-loss, 3g, dns-failure"),
        ]
    )
    func errorsNameThePlace(json: String, prefix: String) throws {
        let parsed = try node(json)
        let error = #expect(throws: ConfigurationError.self) { try NetworkShaper(configuration: parsed) }
        let description = try #require(error?.description)
        #expect(description.hasPrefix(prefix), "\(description)")
    }
}
