import Foundation
import NetTapAudit
import NetTapCore
import NetTapTestSupport
import Testing

@Suite("AuditHandler configuration: the audit section of nettap.json")
struct ConfigurationTests {
    static func node(_ json: String) throws -> ConfigNode {
        try ConfigNode(parsing: Data(json.utf8), source: "nettap.json")
    }

    @Test("every key is read: sizes with units, hosts, disabled rules")
    func full() throws {
        let handler = try AuditHandler(
            configuration: Self.node(
                #"{"imageSizeLimit": "500 KiB", "bodyScanLimit": "64 KB", "firstPartyHosts": ["example.com", "*.example.com"], "disabledRules": ["pii.email", "cookie.insecure"]}"#
            )
        )
        #expect(handler.imageSizeLimit == 512_000)
        #expect(handler.bodyScanLimit == 64_000)
        #expect(handler.firstPartyHosts == ["example.com", "*.example.com"])
        #expect(handler.disabledRules == [.piiEmail, .cookieInsecure])
        #expect(handler.isFirstParty("api.example.com"))
        #expect(!handler.isFirstParty("example.org"))
        #expect(handler.name == "audit")
    }

    @Test("an empty section gives the defaults; numbers are bytes")
    func defaults() throws {
        let empty = try AuditHandler(configuration: Self.node("{}"))
        #expect(empty.imageSizeLimit == 512_000)
        #expect(empty.bodyScanLimit == 1_048_576)
        #expect(empty.firstPartyHosts.isEmpty)
        #expect(empty.disabledRules.isEmpty)
        let numbers = try AuditHandler(configuration: Self.node(#"{"imageSizeLimit": 1000, "bodyScanLimit": 0}"#))
        #expect(numbers.imageSizeLimit == 1_000)
        #expect(numbers.bodyScanLimit == 0)
    }

    @Test(
        "errors name the file, the JSON path and what is wrong",
        arguments: [
            (
                #"{"imageSizeLimt": 5}"#,
                #"nettap.json: $.imageSizeLimt: unknown key "imageSizeLimt"; did you mean "imageSizeLimit"?"#
            ),
            (
                #"{"imageSizeLimit": "5 parsecs"}"#,
                #"nettap.json: $.imageSizeLimit: invalid size "5 parsecs"; expected a number and a unit: bytes, KB, MB, GB, KiB, MiB, GiB (for example "500 KiB"), or a number of bytes"#
            ),
            (#"{"bodyScanLimit": -1}"#, "nettap.json: $.bodyScanLimit: expected a size of at least 0 bytes, found -1"),
            (
                #"{"firstPartyHosts": ["example.com", "https://x.example.com/"]}"#,
                #"nettap.json: $.firstPartyHosts[1]: invalid host pattern "https://x.example.com/": a host pattern names a host only, without scheme or path"#
            ),
            (
                #"{"firstPartyHosts": "example.com"}"#,
                "nettap.json: $.firstPartyHosts: expected an array, found a string"
            ),
            (
                #"{"disabledRules": ["pii.emial"]}"#,
                #"nettap.json: $.disabledRules[0]: unknown rule "pii.emial"; did you mean "pii.email"?"#
            ),
            (#"{"disabledRules": [7]}"#, "nettap.json: $.disabledRules[0]: expected a string, found a number"),
        ]
    )
    func errors(json: String, message: String) throws {
        #expect(throws: ConfigurationError.self) { try AuditHandler(configuration: Self.node(json)) }
        do {
            _ = try AuditHandler(configuration: Self.node(json))
        } catch let error as ConfigurationError {
            #expect(error.description == message)
        }
    }

    @Test("load reads the audit section of nettap.json, or a file that is only the section")
    func load() throws {
        let folder = try TemporaryFolder(
            prefix: "nettap-audit",
            files: [
                "nettap.json": Data(#"{"shaping": {"profile": "3g"}, "audit": {"imageSizeLimit": "1 MiB"}}"#.utf8),
                "audit.json": Data(#"{"firstPartyHosts": ["example.com"]}"#.utf8),
                "bad.json": Data(#"{"audit": {"disabledRules": ["nope"]}}"#.utf8),
            ]
        )
        defer { folder.remove() }
        #expect(
            try AuditHandler.load(contentsOf: folder.url.appendingPathComponent("nettap.json")).imageSizeLimit
                == 1_048_576
        )
        #expect(
            try AuditHandler.load(contentsOf: folder.url.appendingPathComponent("audit.json")).firstPartyHosts == [
                "example.com"
            ]
        )
        do {
            _ = try AuditHandler.load(contentsOf: folder.url.appendingPathComponent("bad.json"))
            Issue.record("bad.json loaded")
        } catch let error as ConfigurationError {
            #expect(error.description.hasPrefix("bad.json: $.audit.disabledRules[0]: unknown rule \"nope\""))
        }
    }

    @Test("sizes: units, optional space, case; rejects unknown units and negatives")
    func byteCounts() {
        #expect(AuditHandler.byteCount(parsing: "500 KiB") == 512_000)
        #expect(AuditHandler.byteCount(parsing: "1.5MB") == 1_500_000)
        #expect(AuditHandler.byteCount(parsing: "2 mib") == 2_097_152)
        #expect(AuditHandler.byteCount(parsing: "10 bytes") == 10)
        #expect(AuditHandler.byteCount(parsing: "42") == 42)
        #expect(AuditHandler.byteCount(parsing: "1 GiB") == 1_073_741_824)
        #expect(AuditHandler.byteCount(parsing: "5 TB") == nil)
        #expect(AuditHandler.byteCount(parsing: "-5 KB") == nil)
        #expect(AuditHandler.byteCount(parsing: "KB") == nil)
    }
}
