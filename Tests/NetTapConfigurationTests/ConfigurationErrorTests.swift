import Foundation
import NetTapConfiguration
import NetTapCore
import NetTapReplay
import NetTapStore
import NetTapTestSupport
import Testing

@Suite("nettap.json errors: every section checked on its own, each error at its JSON path")
struct ConfigurationErrorTests {
    private func check(_ json: String) throws -> (ConfigurationCheck, TemporaryFolder) {
        let folder = try TemporaryFolder(prefix: "nettap-config")
        let file = try folder.write(json, to: "nettap.json")
        return (NetTapConfiguration.check(contentsOf: file), folder)
    }

    @Test("check reports every error in document order, unknown keys with did-you-mean")
    func collectsEverySection() throws {
        let (result, _) = try check(
            """
            {
              "scop": {},
              "colour": 1,
              "capture": {"capacity": 0},
              "mocks": {"stubs": [{"name": "a", "match": {"pathRgex": "^/x"}, "response": {}}]},
              "shaping": {"profile": "4g"},
              "scope": {"denyHosts": ["regex:^(api"]},
              "store": {"maxBytes": "12 parsecs"},
              "audit": {"disabledRules": ["pii.emial"]}
            }
            """
        )
        #expect(!result.isValid)
        #expect(result.configuration == nil)
        #expect(
            result.errors.map(\.path) == [
                "$.scop", "$.colour", "$.capture.capacity", "$.mocks.stubs[0].match.pathRgex", "$.shaping.profile",
                "$.scope.denyHosts[0]", "$.store.maxBytes", "$.audit.disabledRules[0]",
            ]
        )
        #expect(result.errors[0].message == #"unknown key "scop"; did you mean "scope"?"#)
        #expect(result.errors[1].message.hasPrefix(#"unknown key "colour"; expected one of: $schema, audit"#))
        #expect(result.errors[3].message == #"unknown key "pathRgex"; did you mean "pathRegex"?"#)
        #expect(result.errors[7].message == #"unknown rule "pii.emial"; did you mean "pii.email"?"#)
        #expect(result.errors.allSatisfy { $0.source == "nettap.json" })
        #expect(result.sections == ["scope", "capture", "mocks", "shaping", "audit", "store"])
    }

    @Test("load throws the first of those errors")
    func loadThrowsFirst() throws {
        let folder = try TemporaryFolder(prefix: "nettap-config")
        let file = try folder.write(#"{"capture": {"capacity": "many"}, "shaping": {"profile": "4g"}}"#, to: "n.json")
        let error = try #require(throws: ConfigurationError.self) { try NetTapConfiguration.load(contentsOf: file) }
        #expect(error.description == "n.json: $.capture.capacity: expected an integer, found a string")
    }

    @Test("a syntax error is the only error, with line and column")
    func syntaxError() throws {
        let (result, _) = try check("{\n  \"scope\": {,}\n}")
        #expect(result.errors.count == 1)
        #expect(result.errors.first?.line == 2)
        #expect(result.errors.first?.description.hasPrefix("nettap.json:2:") == true)
    }

    @Test("a document that is not an object is one error at $")
    func notAnObject() throws {
        let (result, _) = try check("[1, 2]")
        #expect(result.errors.map(\.description) == ["nettap.json: $: expected a nettap.json object, found an array"])
    }

    @Test("a valid file lists its sections and null sections count as absent")
    func validSections() throws {
        let (result, _) = try check(#"{"$schema": "x", "store": {}, "mocks": null, "scope": {"allowHosts": []}}"#)
        #expect(result.isValid)
        #expect(result.sections == ["scope", "store"])
        #expect(result.configuration?.store == StoreConfiguration())
    }

    @Test("each section's own rules: redaction, cassette, store, capture, install and inspector")
    func sectionRules() throws {
        let cases: [(String, String, String)] = [
            (
                #"{"redaction": {"enabled": false, "add": [{"header": "X"}]}}"#, "$.redaction.add",
                #""add" has no effect with "enabled": false; remove one of them"#
            ),
            (#"{"redaction": {"add": [{"field": "regex:(pin"}]}}"#, "$.redaction.add[0].field", "redaction pattern"),
            (
                #"{"redaction": {"except": [{"headr": "X"}]}}"#, "$.redaction.except[0].headr",
                #"did you mean "header"?"#
            ),
            (#"{"redaction": {"add": [{}]}}"#, "$.redaction.add[0]", "a rule has exactly one of"),
            (#"{"cassette": {"path": "c.har", "mode": "onse"}}"#, "$.cassette.mode", #"did you mean "once"?"#),
            (
                #"{"cassette": {"path": "c.har", "matching": {"body": "xml"}}}"#, "$.cassette.matching.body",
                "unknown body comparison"
            ),
            (#"{"cassette": {"mode": "none"}}"#, "$.cassette", #"missing required key "path""#),
            (#"{"cassette": {"path": "bad.har"}}"#, "$.cassette.path", #"cannot read cassette "bad.har""#),
            (#"{"store": {"maxAgeDays": 0}}"#, "$.store.maxAgeDays", "above 0"),
            (#"{"store": {"maxAgeDays": "forever"}}"#, "$.store.maxAgeDays", #"or "unlimited""#),
            (#"{"store": {"maxBytes": 100}}"#, "$.store.maxBytes", "at least 1048576 bytes"),
            (#"{"store": {"maxBodyBytes": 1.5}}"#, "$.store.maxBodyBytes", "expected a number of bytes"),
            (#"{"capture": {"bodyByteLimit": "1 parsec"}}"#, "$.capture.bodyByteLimit", "invalid size"),
            (#"{"install": {"sharedSession": "yes"}}"#, "$.install.sharedSession", "expected a boolean"),
            (#"{"inspector": {"address": "localhost"}}"#, "$.inspector.address", "expected an IPv4 address"),
            (#"{"inspector": {"port": 70000}}"#, "$.inspector.port", "expected a port from 0 to 65535"),
            (#"{"inspector": {"prot": 9229}}"#, "$.inspector.prot", #"did you mean "port"?"#),
            (#"{"inspector": {"enabled": "yes"}}"#, "$.inspector.enabled", "expected a boolean"),
        ]
        for (json, path, message) in cases {
            let folder = try TemporaryFolder(prefix: "nettap-config")
            try folder.write("{not a HAR", to: "bad.har")
            let result = NetTapConfiguration.check(contentsOf: try folder.write(json, to: "nettap.json"))
            #expect(result.errors.map(\.path) == [path], "\(json)")
            #expect(result.errors.first?.message.contains(message) == true, "\(result.errors)")
        }
    }

    @Test("the redaction section: defaults, added rules with every target, exceptions, or disabled")
    func redaction() throws {
        let node = try ConfigNode(
            parsing: Data(
                #"""
                {"defaults": false, "add": [{"header": "X-Session"}, {"cookie": "sid"}, {"query": "sig*"},
                 {"field": "regex:^pin[0-9]*$"}, {"parameter": ["otp", "code"]}], "except": [{"field": "pin0"}]}
                """#.utf8
            ),
            source: nil
        )
        let redactor = try Redactor(configuration: node)
        #expect(redactor.rules.count == 8)
        #expect(redactor.isSecret("x-session", at: .header))
        #expect(!redactor.isSecret("Authorization", at: .header))
        #expect(redactor.isSecret("SID", at: .cookie))
        #expect(redactor.isSecret("signature", at: .queryItem))
        #expect(redactor.isSecret("pin12", at: .bodyField))
        #expect(!redactor.isSecret("pin0", at: .bodyField))
        #expect(redactor.isSecret("otp", at: .queryItem) && redactor.isSecret("code", at: .bodyField))
        let disabled = try Redactor(configuration: ConfigNode(value: .object(["enabled": .bool(false)])))
        #expect(disabled == .disabled)
        #expect(try Redactor(configuration: ConfigNode(value: .object([:]))) == .default)
    }

    @Test("the cassette section reads mode, matching and body limit, and records into its path")
    func cassette() throws {
        let folder = try TemporaryFolder(prefix: "nettap-config")
        let file = try folder.write(
            #"""
            {"cassette": {"path": "tapes/a.har", "mode": "all", "bodyByteLimit": "2 KiB",
              "matching": {"ignoresQueryOrder": true, "ignoredQueryItems": ["_ts"], "headers": ["Accept"], "body": "exact"}}}
            """#,
            to: "nettap.json"
        )
        let handler = try ReplayHandler.load(contentsOf: file)
        #expect(handler.fileURL.path == folder.url.appendingPathComponent("tapes/a.har").path)
        #expect(handler.mode == .all)
        #expect(handler.bodyByteLimit == 2048)
        #expect(
            handler.matching
                == CassetteMatching(
                    ignoresQueryOrder: true,
                    ignoredQueryItems: ["_ts"],
                    headers: ["Accept"],
                    body: .exact
                )
        )
    }

    @Test("the store section reads sizes with units, days and unlimited age")
    func store() throws {
        let node = ConfigNode(
            value: .object([
                "path": .string("/tmp/x.sqlite"), "maxBytes": .string("1 GiB"), "maxBodyBytes": .integer(0),
                "maxAgeDays": .number(0.5),
            ])
        )
        let store = try StoreConfiguration(configuration: node)
        #expect(store.url.path == "/tmp/x.sqlite")
        #expect(store.limits == StoreLimits(totalByteLimit: 1 << 30, bodyByteLimit: 0, maximumAge: .seconds(43_200)))
        let unlimited = try StoreConfiguration(
            configuration: ConfigNode(value: .object(["maxAgeDays": .string("unlimited")]))
        )
        #expect(unlimited.limits.maximumAge == nil)
        #expect(unlimited.url == StoreConfiguration.defaultURL)
    }
}
