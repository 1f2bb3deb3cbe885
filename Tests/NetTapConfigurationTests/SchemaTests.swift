import Foundation
import NetTapAudit
import NetTapConfiguration
import NetTapCore
import NetTapFiles
import NetTapInspector
import NetTapIntegrity
import NetTapReplay
import NetTapRewrite
import NetTapShaping
import NetTapStore
import NetTapTestSupport
import Testing

@testable import NetTapCache
@testable import NetTapMocking

@Suite("schema/nettap.schema.json matches the readers and accepts every example")
struct SchemaTests {
    /// The schema as a JSON value.
    private func schema() throws -> JSONValue {
        try JSONValue(data: Data(contentsOf: schemaURL))
    }

    /// The value at a JSON pointer (RFC 6901) such as `/properties/mocks`.
    private func value(at pointer: String, in root: JSONValue) throws -> JSONValue {
        var current = root
        for token in pointer.split(separator: "/", omittingEmptySubsequences: true) {
            switch current {
            case .object(let members):
                current = try #require(members[String(token)], "no \(token) in \(pointer)")
            case .array(let elements):
                let index = try #require(Int(token))
                current = elements[index]
            default:
                Issue.record("\(pointer) goes through a scalar")
                return .null
            }
        }
        return current
    }

    /// The `properties` names of the object schema at `pointer`.
    private func propertyNames(at pointer: String, in root: JSONValue) throws -> Set<String> {
        guard case .object(let members) = try value(at: pointer, in: root),
            case .object(let properties)? = members["properties"]
        else {
            Issue.record("\(pointer) has no properties")
            return []
        }
        return Set(properties.keys)
    }

    /// Every pointer below `pointer` whose schema has `properties`, leaving out `if` conditions.
    private func objectSchemas(in value: JSONValue, at pointer: String = "") -> [String] {
        switch value {
        case .object(let members):
            var found = members["properties"] != nil ? [pointer] : []
            for (key, member) in members where key != "if" {
                if key == "properties" || key == "$defs" {
                    guard case .object(let children) = member else { continue }
                    for (name, child) in children {
                        found += objectSchemas(in: child, at: pointer + "/" + key + "/" + name)
                    }
                } else {
                    found += objectSchemas(in: member, at: pointer + "/" + key)
                }
            }
            return found
        case .array(let elements):
            return elements.enumerated().flatMap { objectSchemas(in: $1, at: pointer + "/\($0)") }
        default:
            return []
        }
    }

    /// The keys each reader accepts, by the schema location that documents them: each section's from the
    /// configuration layer's registry, the objects inside sections from their readers.
    private var readerKeys: [String: Set<String>] {
        let sections = Dictionary(
            uniqueKeysWithValues: NetTapConfiguration.sectionKeys.map { ("/properties/\($0.key)", $0.value) }
        )
        return sections.merging(insideSectionKeys) { registry, _ in registry }
    }

    /// The keys of the objects inside sections, by schema location.
    private var insideSectionKeys: [String: Set<String>] {
        let responseKeys = MockConfigurationReader.responseKeys
        return [
            "": NetTapConfiguration.configurationKeys,
            "/properties/trust/properties/rules/items": TrustRule.configurationKeys,
            "/$defs/redactionRule": RedactionRule.configurationKeys,
            // MockConfiguration(node:baseDirectory:) reads a scenario's keys inline.
            "/properties/mocks/properties/scenarios/items": ["name", "stubs"],
            "/$defs/stub": MockConfigurationReader.stubKeys,
            "/$defs/responseFields": responseKeys,
            "/$defs/alternative": ["name"],
            // MockConfigurationReader reads the array form of response headers inline.
            "/$defs/responseFields/properties/headers/oneOf/0/items": ["name", "value"],
            "/$defs/matcher": RequestMatcher.configurationKeys,
            // The object form of a matcher's graphql member, and a stub's state.
            "/$defs/matcher/properties/graphql/oneOf/1": RequestMatcher.graphQLConfigurationKeys,
            "/$defs/stub/properties/state": MockConfigurationReader.stateKeys,
            "/properties/cassette/properties/matching": CassetteMatching.configurationKeys,
            // ShapingRule.init(configuration:) reads its keys inline.
            "/properties/shaping/properties/rules/items": ["match", "profile"],
            "/$defs/networkProfile/oneOf/1": NetworkProfile.configurationKeys,
            "/properties/files/properties/mounts/items": FileMount.configurationKeys,
            "/$defs/integrityRule": IntegrityRule.configurationKeys,
            // IntegrityRule.init(configuration:baseDirectory:) reads expect and fallback inline.
            "/$defs/integrityRule/properties/expect/oneOf/1": ["manifest"],
            "/$defs/integrityRule/properties/expect/oneOf/2": ["digest"],
            "/$defs/integrityRule/properties/fallback": ["directory", "files"],
            "/properties/rewrite/properties/mapRemote/items": MapRemote.configurationKeys,
            "/$defs/headerRule": HeaderEdit.configurationKeys,
            "/properties/rewrite/properties/responseBody/items": BodyReplacement.configurationKeys,
            // Body faults (BodyFault.init(configuration:)), read by stub responses and network profiles.
            "/$defs/bodyFault/oneOf/1": BodyFault.configurationKeys,
        ]
    }

    @Test("every object in the schema lists exactly the keys its Swift reader accepts")
    func keysMatchReaders() throws {
        let root = try schema()
        let table = readerKeys
        let documented = Set(objectSchemas(in: root))
        #expect(documented == Set(table.keys), "schema objects without a reader in the table, or the reverse")
        for (pointer, keys) in table.sorted(by: { $0.key < $1.key }) {
            #expect(try propertyNames(at: pointer, in: root) == keys, "at \(pointer.isEmpty ? "/" : pointer)")
        }
        #expect(try propertyNames(at: "", in: root) == Set(NetTapConfiguration.sectionNames + ["$schema"]))
    }

    @Test("the schema's enumerations are the readers' names")
    func enumerationsMatchReaders() throws {
        let root = try schema()
        func strings(_ pointer: String) throws -> Set<String> {
            guard case .array(let values) = try value(at: pointer, in: root) else { return [] }
            return Set(values.compactMap { if case .string(let text) = $0 { text } else { nil } })
        }
        #expect(try strings("/$defs/profilePreset/enum") == Set(NetworkProfile.presets.keys))
        #expect(try strings("/$defs/bodyFaultType/enum") == Set(BodyFault.configurationTypeNames))
        #expect(
            try strings("/properties/cache/properties/fallbackErrors/items/enum")
                == OfflineCacheHandler.configurableFallbackErrorNames
        )
        #expect(
            try strings("/properties/audit/properties/disabledRules/items/enum") == Set(AuditRule.allCases.map(\.id))
        )
        #expect(try strings("/properties/cassette/properties/mode/enum") == Set(RecordMode.allCases.map(\.rawValue)))
        #expect(
            try strings("/properties/cassette/properties/matching/properties/body/enum")
                == Set(CassetteMatching.BodyComparison.allCases.map(\.rawValue))
        )
    }

    @Test("every example configuration is valid for jsonschema and loads without error")
    func examplesAreValid() async throws {
        let examples = try exampleConfigurations()
        #expect(examples.map(\.lastPathComponent) == ["minimal.json", "nettap.json"])
        let result = try await validateWithJSONSchema(examples)
        #expect(result.status == 0, "\(result.output)")
        let copy = try copyOfExamples()
        for example in examples {
            let check = NetTapConfiguration.check(
                contentsOf: copy.url.appendingPathComponent(example.lastPathComponent)
            )
            #expect(check.errors.isEmpty, "\(example.lastPathComponent): \(check.errors)")
        }
    }

    @Test("jsonschema rejects what the readers reject: unknown keys, unknown names, a stub with two answers")
    func schemaRejectsMistakes() async throws {
        let folder = try TemporaryFolder(prefix: "nettap-schema")
        let file = try folder.write(
            #"""
            {
              "scop": {},
              "shaping": {"profile": "4g"},
              "mocks": {"stubs": [{"name": "a", "match": {"pathRgex": "x"}, "response": {}, "sequence": [{}]}]},
              "redaction": {"enabled": false, "add": [{"header": "X"}]},
              "store": {"maxBytes": "12 parsecs"}
            }
            """#,
            to: "bad.json"
        )
        let result = try await validateWithJSONSchema([file])
        #expect(result.status == 1)
        for place in [
            "bad.json: /: ", "/shaping/profile", "/mocks/stubs/0", "/mocks/stubs/0/match", "/redaction",
            "/store/maxBytes",
        ] {
            #expect(
                result.output.contains(place + ": ") || result.output.contains(place),
                "\(place) in \(result.output)"
            )
        }
        #expect(result.output.contains("'scop' was unexpected"))
        #expect(result.output.contains("'pathRgex' was unexpected"))
    }
}
